#include "stats/registry.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace numagpu::stats {

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kCounter:
      return "counter";
    case Kind::kAverage:
      return "average";
    case Kind::kHistogram:
      return "histogram";
    case Kind::kSeries:
      return "series";
    case Kind::kScalar:
      return "scalar";
  }
  return "unknown";
}

namespace {

// Every proper prefix of a dotted path, shortest first: "a.b.c" -> "a", "a.b".
std::vector<std::string> proper_prefixes(const std::string& path) {
  std::vector<std::string> out;
  for (std::size_t dot = path.find('.'); dot != std::string::npos; dot = path.find('.', dot + 1)) {
    out.push_back(path.substr(0, dot));
  }
  return out;
}

[[noreturn]] void clash(const std::string& path, const std::string& why) {
  throw std::logic_error("statistic '" + path + "': " + why);
}

// JSON has no NaN or infinity; null says "no value" explicitly instead of relying on the serializer.
nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json();
}

std::string format_number(uint64_t v) {
  return std::to_string(v);
}

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest form that reads back exactly
  return std::string(buf, res.ptr);
}

nlohmann::json leaf(const Counter& c) {
  return c.value();
}

nlohmann::json leaf(const Scalar& s) {
  return number_or_null(s.value());
}

nlohmann::json leaf(const Average& a) {
  return {{"count", a.count()},
          {"sum", number_or_null(a.sum())},
          {"mean", number_or_null(a.mean())},
          {"min", number_or_null(a.min())},
          {"max", number_or_null(a.max())}};
}

nlohmann::json leaf(const Histogram& h) {
  const bool empty = h.count() == 0;
  return {{"bucket_width", h.bucket_width()},
          {"buckets", h.buckets()},
          {"overflow", h.overflow()},
          {"count", h.count()},
          {"sum", h.sum()},
          {"min", empty ? nlohmann::json() : nlohmann::json(h.min())},
          {"max", empty ? nlohmann::json() : nlohmann::json(h.max())}};
}

nlohmann::json leaf(const TimeSeries& s) {
  nlohmann::json values = nlohmann::json::array();
  for (const double v : s.values())
    values.push_back(number_or_null(v));
  return {{"window_cycles", s.window_cycles()}, {"values", std::move(values)}};
}

// One stats.txt line before column alignment.
struct TextLine {
  std::string label;
  std::string value;
  std::string comment;
};

// Appends the lines of one statistic. Overloads per kind, selected by std::visit.
struct TextLines {
  const std::string& path;
  const std::string& comment;
  std::vector<TextLine>& out;

  void emit(const std::string& suffix, std::string value) const {
    out.push_back({suffix.empty() ? path : path + "::" + suffix, std::move(value), comment});
  }
  static std::string range(uint64_t lo, uint64_t hi) { return std::to_string(lo) + "-" + std::to_string(hi); }

  void operator()(const Counter* c) const { emit("", format_number(c->value())); }
  void operator()(const Scalar* s) const { emit("", format_number(s->value())); }
  void operator()(const Average* a) const {
    emit("count", format_number(a->count()));
    emit("sum", format_number(a->sum()));
    emit("mean", format_number(a->mean()));
    emit("min", format_number(a->min()));
    emit("max", format_number(a->max()));
  }
  void operator()(const Histogram* h) const {
    const bool empty = h->count() == 0;
    emit("count", format_number(h->count()));
    emit("sum", format_number(h->sum()));
    emit("min", empty ? "nan" : format_number(h->min()));
    emit("max", empty ? "nan" : format_number(h->max()));
    const uint64_t w = h->bucket_width();
    for (std::size_t k = 0; k < h->bucket_count(); ++k) {
      emit(range(k * w, (k + 1) * w - 1), format_number(h->buckets()[k]));
    }
    emit("overflow", format_number(h->overflow()));
  }
  void operator()(const TimeSeries* s) const {
    const uint64_t w = s->window_cycles();
    for (std::size_t i = 0; i < s->values().size(); ++i) {
      emit(range(i * w, (i + 1) * w - 1), format_number(s->values()[i]));
    }
  }
};

}  // namespace

void Registry::claim_owner(const std::string& name) {
  if (!owners_.insert(name).second)
    throw std::logic_error("statistics registry: two machines named '" + name +
                           "' share it (give each a name of its own)");
}

template <typename T, typename Make>
T& Registry::add(const std::string& path, Kind kind, const std::string& unit, const std::string& desc,
                 Make make) {
  // All checks come before any change so that a rejected registration leaves the registry as it was.
  check_path(path);
  if (entries_.count(path)) clash(path, "registered twice");
  if (groups_.count(path)) clash(path, "is already a group of other statistics, it cannot also be one");
  // A recorded group is never a statistic (registering one checks groups_ above), and the prefixes of a
  // group are groups too; likewise generic groups are never described. So when the path's parent (the path
  // up to its last dot) is a group already, checking and recording the prefixes can neither fail nor add
  // anything: skipping them was most of the registration cost at start-up (docs/performance.md). A
  // component registers its statistics one after the other, so the parent is usually the last one's.
  const std::size_t dot = path.rfind('.');
  const bool same_parent =
      dot != std::string::npos && dot == last_parent_.size() && path.compare(0, dot, last_parent_) == 0;
  const bool known_parent = same_parent || (dot != std::string::npos && groups_.count(path.substr(0, dot)));
  std::vector<std::string> prefixes;
  std::string generic;
  if (same_parent) {
    generic = last_generic_parent_ + "." + generic_component(std::string_view(path).substr(dot + 1));
  } else if (known_parent) {
    generic = generic_path(path);
  } else {
    prefixes = proper_prefixes(path);
    for (const std::string& prefix : prefixes) {
      if (entries_.count(prefix)) clash(path, "'" + prefix + "' is a statistic, it cannot also be a group");
    }
    generic = generic_path(path);
  }
  if (generic_groups_.count(generic)) {
    clash(path, "generic path '" + generic + "' is already a group of other statistics");
  }
  std::vector<std::string> generic_prefixes;
  if (!known_parent) {
    generic_prefixes = proper_prefixes(generic);
    for (const std::string& prefix : generic_prefixes) {
      if (descriptions_.count(prefix)) {
        clash(path, "generic path '" + prefix + "' is a statistic, it cannot also be a group");
      }
    }
  }
  const auto described = descriptions_.find(generic);
  if (described != descriptions_.end()) {
    const Description& d = described->second;
    if (d.kind != kind || d.unit != unit || d.desc != desc) {
      clash(path, "generic path '" + generic + "' is already described as " + kind_name(d.kind) + " '" +
                      d.desc + "' (" + d.unit + "); all instances must share kind, unit and description");
    }
  }

  // Insertions. Only an allocation failure can throw from here on, which the simulator does not survive.
  T& stat = make();
  const Description* description =
      described != descriptions_.end()
          ? &described->second
          : &descriptions_.emplace(generic, Description{kind, unit, desc}).first->second;
  entries_.emplace(path, Entry{&stat, description});
  groups_.insert(prefixes.begin(), prefixes.end());
  generic_groups_.insert(generic_prefixes.begin(), generic_prefixes.end());
  if (!same_parent) {
    // A path without a dot has no parent: the empty string then matches no later one (dot != npos there).
    last_parent_.assign(path, 0, dot == std::string::npos ? 0 : dot);
    last_generic_parent_.assign(generic, 0, dot == std::string::npos ? 0 : generic.rfind('.'));
  }
  return stat;
}

Counter& Registry::counter(const std::string& path, const std::string& unit, const std::string& desc) {
  return add<Counter>(path, Kind::kCounter, unit, desc,
                      [&]() -> Counter& { return counters_.emplace_back(); });
}

Average& Registry::average(const std::string& path, const std::string& unit, const std::string& desc) {
  return add<Average>(path, Kind::kAverage, unit, desc,
                      [&]() -> Average& { return averages_.emplace_back(); });
}

Histogram& Registry::histogram(const std::string& path, const std::string& unit, const std::string& desc,
                               uint64_t bucket_width, std::size_t buckets) {
  // Construct first: invalid parameters throw before anything is recorded.
  Histogram prototype(bucket_width, buckets);
  return add<Histogram>(path, Kind::kHistogram, unit, desc,
                        [&]() -> Histogram& { return histograms_.emplace_back(std::move(prototype)); });
}

TimeSeries& Registry::series(const std::string& path, const std::string& unit, const std::string& desc,
                             uint64_t window_cycles, TimeSeries::Merge merge) {
  TimeSeries prototype(window_cycles, merge);
  return add<TimeSeries>(path, Kind::kSeries, unit, desc,
                         [&]() -> TimeSeries& { return series_.emplace_back(std::move(prototype)); });
}

void Registry::coarsen_series() {
  for (TimeSeries& s : series_)
    s.coarsen();
}

Scalar& Registry::scalar(const std::string& path, const std::string& unit, const std::string& desc) {
  return add<Scalar>(path, Kind::kScalar, unit, desc, [&]() -> Scalar& { return scalars_.emplace_back(); });
}

nlohmann::json Registry::tree() const {
  nlohmann::json root = nlohmann::json::object();
  for (const auto& [path, entry] : entries_) {
    const std::vector<std::string_view> parts = split_path(path);
    nlohmann::json* node = &root;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i)
      node = &(*node)[std::string(parts[i])];
    (*node)[std::string(parts.back())] = std::visit([](const auto* stat) { return leaf(*stat); }, entry.stat);
  }
  return root;
}

nlohmann::json Registry::descriptions() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [generic, d] : descriptions_) {
    out[generic] = {{"kind", kind_name(d.kind)}, {"unit", d.unit}, {"desc", d.desc}};
  }
  return out;
}

std::string Registry::text() const {
  std::vector<const std::pair<const std::string, Entry>*> items;
  std::vector<std::string_view> paths;
  items.reserve(entries_.size());
  paths.reserve(entries_.size());
  for (const auto& item : entries_) {
    items.push_back(&item);
    paths.push_back(item.first);
  }
  std::vector<TextLine> lines;
  for (const std::size_t i : path_order(paths)) {
    const auto* item = items[i];
    const std::string& path = item->first;
    const Entry& entry = item->second;
    const Description& d = *entry.description;
    std::string comment = d.desc;
    if (!d.unit.empty()) comment += (comment.empty() ? "(" : " (") + d.unit + ")";
    if (!comment.empty()) comment.insert(0, "# ");
    std::visit(TextLines{path, comment, lines}, entry.stat);
  }

  std::size_t label_width = 0, value_width = 0;
  for (const TextLine& line : lines) {
    label_width = std::max(label_width, line.label.size());
    value_width = std::max(value_width, line.value.size());
  }
  std::string out;
  for (const TextLine& line : lines) {
    out += line.label;
    out.append(label_width - line.label.size() + 2, ' ');
    out.append(value_width - line.value.size(), ' ');  // values right-aligned so digits line up
    out += line.value;
    if (!line.comment.empty()) out += "  " + line.comment;
    out += '\n';
  }
  return out;
}

}  // namespace numagpu::stats
