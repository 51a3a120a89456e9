#include "stats/document.hpp"

#include <map>
#include <set>
#include <stdexcept>

#include "stats/path.hpp"
#include "stats/registry.hpp"

namespace numagpu::stats {

nlohmann::json make_document(const Registry& registry, const std::string& version,
                             const nlohmann::json& resolved_config, const std::string& config_hash,
                             const nlohmann::json& run_info, bool complete) {
  const auto object_or_empty = [](const nlohmann::json& j, const char* what) {
    if (j.is_null()) return nlohmann::json::object();
    if (!j.is_object())
      throw std::invalid_argument(std::string("stats document: ") + what + " must be an object");
    return j;
  };
  nlohmann::json doc = nlohmann::json::object();
  doc["schema_version"] = kSchemaVersion;
  doc["generator"] = {{"name", "numagpu"}, {"version", version}};
  doc["config_hash"] = config_hash;
  doc["config"] = object_or_empty(resolved_config, "config");
  doc["run"] = object_or_empty(run_info, "run info");
  doc["complete"] = complete;
  doc["stats"] = registry.tree();
  doc["descriptions"] = registry.descriptions();
  return doc;
}

namespace {

const std::map<std::string, Kind>& kinds_by_name() {
  static const std::map<std::string, Kind> kinds = [] {
    std::map<std::string, Kind> m;
    for (const Kind k : {Kind::kCounter, Kind::kAverage, Kind::kHistogram, Kind::kSeries, Kind::kScalar}) {
      m.emplace(kind_name(k), k);
    }
    return m;
  }();
  return kinds;
}

// A count: an integer that is not negative (nlohmann keeps a parsed non-negative integer as unsigned, but an
// in-memory document built from an int literal holds a signed one).
bool is_count(const nlohmann::json& j) {
  return j.is_number_unsigned() || (j.is_number_integer() && j.get<int64_t>() >= 0);
}

bool is_number_or_null(const nlohmann::json& j) {
  return j.is_number() || j.is_null();
}

// Collects problems about one leaf; `where` names it in messages ("stats.system.sm0.ipc").
class LeafChecker {
 public:
  LeafChecker(std::string where, std::vector<std::string>& problems)
      : where_(std::move(where)), problems_(problems) {}

  void check(Kind kind, const nlohmann::json& leaf) {
    switch (kind) {
      case Kind::kCounter:
        if (!is_count(leaf)) report("counter must be a non-negative integer");
        return;
      case Kind::kScalar:
        if (!is_number_or_null(leaf)) report("scalar must be a number or null");
        return;
      case Kind::kAverage:
        if (object(leaf, "average")) average(leaf);
        return;
      case Kind::kHistogram:
        if (object(leaf, "histogram")) histogram(leaf);
        return;
      case Kind::kSeries:
        if (object(leaf, "series")) series(leaf);
        return;
    }
  }

 private:
  void report(const std::string& what) { problems_.push_back(where_ + ": " + what); }

  bool object(const nlohmann::json& leaf, const char* kind) {
    if (leaf.is_object()) return true;
    report(std::string(kind) + " must be an object");
    return false;
  }

  // Returns the field if present, reporting it missing otherwise.
  const nlohmann::json* field(const nlohmann::json& leaf, const char* name) {
    const auto it = leaf.find(name);
    if (it != leaf.end()) return &*it;
    report(std::string("missing field '") + name + "'");
    return nullptr;
  }

  const nlohmann::json* count_field(const nlohmann::json& leaf, const char* name) {
    const nlohmann::json* f = field(leaf, name);
    if (f && !is_count(*f)) {
      report(std::string("'") + name + "' must be a non-negative integer");
      return nullptr;
    }
    return f;
  }

  // mean/min/max: null exactly when there are no samples (count == 0), otherwise a value of the right type.
  void optional_fields(const nlohmann::json& leaf, const nlohmann::json* count,
                       std::initializer_list<const char*> names, bool integer) {
    for (const char* name : names) {
      const nlohmann::json* f = field(leaf, name);
      if (!f) continue;
      if (!(f->is_null() || (integer ? is_count(*f) : f->is_number()))) {
        report(std::string("'") + name + "' must be " + (integer ? "a non-negative integer" : "a number") +
               " or null");
      } else if (count && count->get<uint64_t>() == 0 && !f->is_null()) {
        report(std::string("'") + name + "' must be null when count is 0");
      } else if (count && count->get<uint64_t>() != 0 && f->is_null() && integer) {
        // Only histogram bounds are integers and always finite; an average may legitimately hold null
        // after a non-finite sample.
        report(std::string("'") + name + "' must not be null when count is positive");
      }
    }
  }

  void average(const nlohmann::json& leaf) {
    const nlohmann::json* count = count_field(leaf, "count");
    if (const nlohmann::json* sum = field(leaf, "sum"); sum && !is_number_or_null(*sum)) {
      report("'sum' must be a number or null");
    }
    optional_fields(leaf, count, {"mean", "min", "max"}, false);
  }

  void histogram(const nlohmann::json& leaf) {
    if (const nlohmann::json* w = count_field(leaf, "bucket_width"); w && w->get<uint64_t>() == 0) {
      report("'bucket_width' must be positive");
    }
    const nlohmann::json* overflow = count_field(leaf, "overflow");
    const nlohmann::json* count = count_field(leaf, "count");
    count_field(leaf, "sum");
    optional_fields(leaf, count, {"min", "max"}, true);

    const nlohmann::json* buckets = field(leaf, "buckets");
    if (!buckets) return;
    if (!buckets->is_array() || buckets->empty()) {
      report("'buckets' must be a non-empty array");
      return;
    }
    uint64_t total = 0;
    for (const nlohmann::json& b : *buckets) {
      if (!is_count(b)) {
        report("'buckets' must hold non-negative integers");
        return;
      }
      total += b.get<uint64_t>();
    }
    if (overflow && count && total + overflow->get<uint64_t>() != count->get<uint64_t>()) {
      report("'count' is not the sum of 'buckets' and 'overflow'");
    }
  }

  void series(const nlohmann::json& leaf) {
    if (const nlohmann::json* w = count_field(leaf, "window_cycles"); w && w->get<uint64_t>() == 0) {
      report("'window_cycles' must be positive");
    }
    const nlohmann::json* values = field(leaf, "values");
    if (!values) return;
    if (!values->is_array()) {
      report("'values' must be an array");
      return;
    }
    for (const nlohmann::json& v : *values) {
      if (!is_number_or_null(v)) {
        report("'values' must hold numbers or null");
        return;
      }
    }
  }

  std::string where_;
  std::vector<std::string>& problems_;
};

// Walks the stats tree. A node is a leaf when its generic path has a description; an object without one is
// a group; anything else is an undescribed leaf.
class TreeChecker {
 public:
  TreeChecker(const std::map<std::string, Kind>& kinds, std::vector<std::string>& problems)
      : kinds_(kinds), problems_(problems) {}

  void walk(const nlohmann::json& group, const std::string& path, const std::string& generic) {
    for (const auto& [key, child] : group.items()) {
      const std::string child_path = path.empty() ? key : path + "." + key;
      const std::string where = "stats." + child_path;
      if (key.empty()) {
        problems_.push_back(where + ": empty path component");
        continue;
      }
      const std::string child_generic = (generic.empty() ? "" : generic + ".") + generic_component(key);
      const auto described = kinds_.find(child_generic);
      if (described != kinds_.end()) {
        used_.insert(child_generic);
        LeafChecker(where, problems_).check(described->second, child);
      } else if (child.is_object()) {
        if (child.empty()) {
          problems_.push_back(where + ": empty group");
        } else {
          walk(child, child_path, child_generic);
        }
      } else {
        problems_.push_back(where + ": no description for generic path '" + child_generic + "'");
      }
    }
  }

  const std::set<std::string>& used() const { return used_; }

 private:
  const std::map<std::string, Kind>& kinds_;
  std::vector<std::string>& problems_;
  std::set<std::string> used_;
};

}  // namespace

std::vector<std::string> validate_document(const nlohmann::json& doc) {
  std::vector<std::string> problems;
  if (!doc.is_object()) return {"document is not a JSON object"};

  // Under a different schema nothing else can be interpreted, so the version is checked first and alone.
  const auto version = doc.find("schema_version");
  if (version == doc.end()) return {"missing field 'schema_version'"};
  if (!version->is_number_integer()) return {"'schema_version' must be an integer"};
  if (version->get<int64_t>() != kSchemaVersion) {
    return {"schema_version is " + std::to_string(version->get<int64_t>()) + ", this reader understands " +
            std::to_string(kSchemaVersion)};
  }

  // Top-level fields; returns the field if it is present with the right type.
  const auto require = [&](const char* name, bool (nlohmann::json::*is_type)() const noexcept,
                           const char* type) -> const nlohmann::json* {
    const auto it = doc.find(name);
    if (it == doc.end()) {
      problems.push_back(std::string("missing field '") + name + "'");
      return nullptr;
    }
    if (!((*it).*is_type)()) {
      problems.push_back(std::string("'") + name + "' must be " + type);
      return nullptr;
    }
    return &*it;
  };

  if (const nlohmann::json* gen = require("generator", &nlohmann::json::is_object, "an object")) {
    for (const char* name : {"name", "version"}) {
      const auto it = gen->find(name);
      if (it == gen->end() || !it->is_string()) {
        problems.push_back(std::string("'generator.") + name + "' must be a string");
      }
    }
  }
  require("config_hash", &nlohmann::json::is_string, "a string");
  require("config", &nlohmann::json::is_object, "an object");
  require("run", &nlohmann::json::is_object, "an object");
  require("complete", &nlohmann::json::is_boolean, "a boolean");
  const nlohmann::json* stats = require("stats", &nlohmann::json::is_object, "an object");
  const nlohmann::json* descriptions = require("descriptions", &nlohmann::json::is_object, "an object");
  if (!descriptions) return problems;  // leaves cannot be judged without their descriptions

  std::map<std::string, Kind> kinds;
  for (const auto& [generic, d] : descriptions->items()) {
    const std::string where = "descriptions." + generic;
    if (!d.is_object()) {
      problems.push_back(where + ": must be an object");
      continue;
    }
    for (const char* name : {"unit", "desc"}) {
      const auto it = d.find(name);
      if (it == d.end() || !it->is_string()) problems.push_back(where + ": '" + name + "' must be a string");
    }
    const auto kind = d.find("kind");
    const auto known = kind != d.end() && kind->is_string() ? kinds_by_name().find(kind->get<std::string>())
                                                            : kinds_by_name().end();
    if (known == kinds_by_name().end()) {
      problems.push_back(where + ": 'kind' must be one of counter, average, histogram, series, scalar");
      continue;
    }
    kinds.emplace(generic, known->second);
  }
  if (!stats) return problems;

  TreeChecker checker(kinds, problems);
  checker.walk(*stats, "", "");
  for (const auto& [generic, kind] : kinds) {
    if (!checker.used().count(generic))
      problems.push_back("descriptions." + generic + ": describes no statistic");
  }
  return problems;
}

}  // namespace numagpu::stats
