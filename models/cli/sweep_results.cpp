#include "cli/sweep_results.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include "cli/sweep_tabled.hpp"
#include "stats/atomic_write.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

std::vector<std::string> split(const std::string& path) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(path);
  while (std::getline(in, part, '.'))
    parts.push_back(part);
  return parts;
}

bool has_wildcard(const std::string& s) {
  return s.find_first_of("*?[") != std::string::npos;
}

// "socket2" before "socket10": compare digit runs by value.
bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
      std::size_t i2 = i, j2 = j;
      while (i2 < a.size() && std::isdigit(static_cast<unsigned char>(a[i2])))
        ++i2;
      while (j2 < b.size() && std::isdigit(static_cast<unsigned char>(b[j2])))
        ++j2;
      const std::string na = a.substr(i, i2 - i), nb = b.substr(j, j2 - j);
      const std::string ta = na.substr(std::min(na.find_first_not_of('0'), na.size()));
      const std::string tb = nb.substr(std::min(nb.find_first_not_of('0'), nb.size()));
      if (ta.size() != tb.size()) return ta.size() < tb.size();
      if (ta != tb) return ta < tb;
      i = i2;
      j = j2;
    } else {
      if (a[i] != b[j]) return a[i] < b[j];
      ++i;
      ++j;
    }
  }
  return a.size() - i < b.size() - j;
}

using Match = std::pair<std::string, const json*>;

void walk(const json& node, const std::vector<std::string>& parts, std::size_t i, const std::string& path,
          std::vector<Match>& out) {
  if (i == parts.size()) {
    out.emplace_back(path, &node);
    return;
  }
  const std::string& want = parts[i];
  auto child_path = [&path](const std::string& key) { return path.empty() ? key : path + "." + key; };
  if (node.is_object()) {
    if (!has_wildcard(want)) {
      const auto it = node.find(want);
      if (it != node.end()) walk(*it, parts, i + 1, child_path(want), out);
      return;
    }
    for (auto it = node.begin(); it != node.end(); ++it)
      if (fnmatch(want.c_str(), it.key().c_str(), 0) == 0) walk(*it, parts, i + 1, child_path(it.key()), out);
  } else if (node.is_array()) {
    for (std::size_t k = 0; k < node.size(); ++k) {
      const std::string key = std::to_string(k);
      if (has_wildcard(want) ? fnmatch(want.c_str(), key.c_str(), 0) == 0 : want == key)
        walk(node[k], parts, i + 1, child_path(key), out);
    }
  }
}

}  // namespace

json extract_stat(const json& document, const SweepStat& stat, std::string* problem, const json* power) {
  std::vector<std::string> parts = split(stat.path);
  const json* root = nullptr;
  std::string prefix;
  if (!parts.empty() && (parts.front() == "run" || parts.front() == "config")) {
    prefix = parts.front();
    parts.erase(parts.begin());
    root = document.contains(prefix) ? &document[prefix] : nullptr;
  } else if (!parts.empty() && parts.front() == "power") {  // the point's power.json (docs/power.md)
    prefix = parts.front();
    parts.erase(parts.begin());
    if (power == nullptr) {
      if (problem) *problem = "'" + stat.path + "': the point has no readable power.json";
      return nullptr;
    }
    root = power;
  } else {
    root = document.contains("stats") ? &document["stats"] : nullptr;
  }
  std::vector<Match> matches;
  if (root != nullptr) walk(*root, parts, 0, prefix, matches);
  std::sort(matches.begin(), matches.end(),
            [](const Match& a, const Match& b) { return natural_less(a.first, b.first); });
  if (matches.empty()) {
    if (problem) *problem = "'" + stat.path + "' matches nothing";
    return nullptr;
  }
  const bool wildcard = std::any_of(parts.begin(), parts.end(), has_wildcard);
  if (stat.reduce == StatReduce::kNone) {
    if (!wildcard) return *matches.front().second;
    json all = json::object();
    for (const Match& m : matches)
      all[m.first] = *m.second;
    return all;
  }
  // Integers stay integers for sum, min and max (counters are exact); a mean, or any real, is a double.
  bool integers = stat.reduce != StatReduce::kMean;
  std::size_t counted = 0;
  for (const Match& m : matches) {
    if (m.second->is_null()) continue;
    if (!m.second->is_number()) {
      if (problem) *problem = "'" + m.first + "' is not a number, so it cannot be reduced";
      return nullptr;
    }
    integers = integers && m.second->is_number_integer();
    ++counted;
  }
  if (counted == 0) return nullptr;  // every match is null (e.g. a 0/0 rate): so is their reduction
  if (integers) {
    // Counters stay far below 2^63 in any run this simulator can finish, so their sums are exact.
    std::int64_t isum = 0, imin = std::numeric_limits<std::int64_t>::max(),
                 imax = std::numeric_limits<std::int64_t>::min();
    for (const Match& m : matches) {
      if (m.second->is_null()) continue;
      const std::int64_t v = m.second->get<std::int64_t>();
      isum += v;
      imin = std::min(imin, v);
      imax = std::max(imax, v);
    }
    if (stat.reduce == StatReduce::kSum) return isum;
    return stat.reduce == StatReduce::kMin ? imin : imax;
  }
  double sum = 0, lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (const Match& m : matches) {
    if (m.second->is_null()) continue;
    const double v = m.second->get<double>();
    sum += v;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  switch (stat.reduce) {
    case StatReduce::kSum:
      return sum;
    case StatReduce::kMean:
      return sum / double(counted);
    case StatReduce::kMin:
      return lo;
    default:
      return hi;
  }
}

std::string point_dir(const std::string& out_dir, const std::string& id) {
  return (fs::path(out_dir) / "points" / id).string();
}

std::string failed_dir(const std::string& out_dir, const std::string& id) {
  return (fs::path(out_dir) / "failed" / id).string();
}

namespace {

std::optional<json> read_json(const fs::path& file) {
  std::ifstream in(file);
  if (!in) return std::nullopt;
  try {
    return json::parse(in);
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

}  // namespace

std::string incomplete_point(const std::string& dir, json* stats) {
  const fs::path d(dir);
  const std::optional<json> record = read_json(d / "point.json");
  if (!record || !record->is_object()) return "point.json is missing or not valid JSON";
  if (is_tabled_point(*record))
    return "a tabled point, taken from " + tabled_source(*record) +
           " without run outputs (give that table to --reuse)";
  std::error_code ec;
  for (const char* name : kRunOutputs) {
    const auto size = fs::file_size(d / name, ec);
    if (ec) return std::string(name) + " is missing";
    if (size == 0) return std::string(name) + " is empty";
  }
  if (const auto outputs = record->find("outputs"); outputs != record->end() && outputs->is_object()) {
    for (auto it = outputs->begin(); it != outputs->end(); ++it) {
      const auto size = fs::file_size(d / it.key(), ec);
      if (ec) return it.key() + " is missing";
      if (!it->is_number_unsigned() || size != it->get<std::uintmax_t>())
        return it.key() + " has " + std::to_string(size) + " bytes, not the " + it->dump() + " the run wrote";
    }
  }
  std::optional<json> doc = read_json(d / "stats.json");
  if (!doc || !doc->is_object() || !doc->contains("stats") || !(*doc)["stats"].is_object())
    return "stats.json is not a statistics document";
  if (stats != nullptr) *stats = std::move(*doc);
  return "";
}

bool same_identity(const json& record, const SweepPoint& point) {
  if (!record.is_object()) return false;
  const auto text = [&record](const char* key) {
    const auto it = record.find(key);
    return it != record.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  return text("config_hash") == point.config_hash && text("inputs_hash") == point.inputs_hash;
}

bool point_finished(const std::string& out_dir, const SweepPoint& point, json* stats,
                    const std::vector<SweepStat>* wanted) {
  const std::string dir = point_dir(out_dir, point.id);
  const std::optional<json> info = read_json(fs::path(dir) / "point.json");
  if (!info || !same_identity(*info, point)) return false;
  if (is_tabled_point(*info)) return wanted == nullptr || tabled_stats(*info, *wanted, nullptr);
  return incomplete_point(dir, stats).empty();
}

CollectSummary collect_results(const SweepSpec& spec, const std::string& out_dir, std::ostream& err) {
  CollectSummary summary;
  json points = json::array();
  std::set<std::string> reported;  // one message per statistic, not per point
  for (const SweepPoint& p : spec.points) {
    json row;
    row["id"] = p.id;
    row["workload"] = p.workload;
    row["grid"] = p.grid;
    json labels = json::object();
    for (const auto& [axis, label] : p.labels)
      labels[axis] = label;
    row["labels"] = labels;
    row["overrides"] = p.overrides;
    row["config_file"] = p.config_file;
    row["workload_file"] = p.workload_file;
    row["config_hash"] = p.config_hash;
    row["inputs_hash"] = p.inputs_hash;
    row["stats"] = json::object();
    json doc;
    const fs::path dir = point_dir(out_dir, p.id);
    const std::optional<json> record = read_json(dir / "point.json");
    json tabled;
    if (record && same_identity(*record, p) && tabled_stats(*record, spec.stats, &tabled)) {
      // A point taken from a results table (cli/sweep_tabled.hpp): its statistics are the table's.
      row["status"] = "ok";
      ++summary.ok;
      row["reused_from"] = tabled_source(*record);
      const json wall = record->value("wall_seconds", json());
      row["wall_seconds"] = wall.is_number() ? wall : json(0.0);
      if (const json cpu = record->value("cpu_seconds", json()); cpu.is_number()) row["cpu_seconds"] = cpu;
      row["stats"] = std::move(tabled);
    } else if (point_finished(out_dir, p, &doc, &spec.stats)) {
      const std::optional<json> info = read_json(dir / "point.json");
      row["status"] = "ok";
      ++summary.ok;
      row["wall_seconds"] = info ? info->value("wall_seconds", 0.0) : 0.0;
      // Points run before numagpu recorded it have no CPU time: left out rather than shown as 0.
      if (info && info->contains("cpu_seconds")) row["cpu_seconds"] = (*info)["cpu_seconds"];
      // power.json only when a statistic asks for it (a `power.` path).
      std::optional<json> power;
      if (std::any_of(spec.stats.begin(), spec.stats.end(),
                      [](const SweepStat& s) { return s.path.rfind("power.", 0) == 0; }))
        power = read_json(dir / "power.json");
      for (const SweepStat& s : spec.stats) {
        std::string problem;
        row["stats"][s.name] = extract_stat(doc, s, &problem, power ? &*power : nullptr);
        if (!problem.empty() && reported.insert(s.name).second)
          err << "numagpu sweep: stat '" << s.name << "': " << problem << " (point " << p.id << ")\n";
      }
    } else if (const std::optional<json> info = read_json(fs::path(failed_dir(out_dir, p.id)) / "point.json");
               info && same_identity(*info, p)) {
      row["status"] = "failed";
      row["exit_code"] = info->value("exit_code", -1);
      row["failure"] = info->value("failure", "");
      ++summary.failed;
      summary.failures.emplace_back(p.id, info->value("failure", ""));
      summary.todo_indices.push_back(p.index);
    } else {
      // A point directory of this identity whose outputs are damaged (an empty or cut stats.json, say): it
      // counts as missing, so that the next sweep (or --slurm array) runs it again.
      if (record && same_identity(*record, p)) {
        std::string why;
        if (!is_tabled_point(*record))
          why = incomplete_point(dir.string());
        else
          tabled_stats(*record, spec.stats, nullptr, &why);
        err << "numagpu sweep: " << dir.string() << ": incomplete (" << why
            << "); the point counts as missing and runs again\n";
      }
      row["status"] = "missing";
      ++summary.missing;
      summary.missing_ids.push_back(p.id);
      summary.todo_indices.push_back(p.index);
    }
    points.push_back(std::move(row));
  }
  json stats = json::array();
  for (const SweepStat& s : spec.stats) {
    stats.push_back({{"name", s.name}, {"path", s.path}, {"reduce", stat_reduce_name(s.reduce)}});
  }
  std::error_code ec;
  const fs::path spec_path = fs::absolute(spec.file, ec).lexically_normal();
  const json results = {{"format", "numagpu-sweep-results"},
                        {"version", 1},
                        {"generator", {{"name", "numagpu"}, {"version", NUMAGPU_VERSION}}},
                        {"sweep", spec.name},
                        {"description", spec.description},
                        {"study", spec.study},
                        {"spec", spec_path.string()},
                        {"axes", spec.axis_names},
                        {"stats", stats},
                        {"points", points}};
  write_file_atomically((fs::path(out_dir) / "results.json").string(), results.dump(1) + "\n");
  write_file_atomically((fs::path(out_dir) / "results.csv").string(), results_csv(results));
  return summary;
}

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// A leaf as one CSV cell: numbers as JSON writes them (shortest exact form), a series as its values
// separated by ';', anything else as compact JSON.
std::string csv_value(const json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number() || v.is_boolean()) return v.dump();
  if (v.is_object() && v.contains("values") && v["values"].is_array()) {
    std::string s;
    for (const json& x : v["values"])
      s += (s.empty() ? "" : ";") + (x.is_null() ? std::string() : x.dump());
    return s;
  }
  return v.dump();
}

}  // namespace

std::string results_csv(const json& results) {
  // Columns: fixed ones, one per axis, then one per statistic value. A statistic whose value is an object
  // of matches (wildcards, no reduction) gets one column per matched path, over the union of all points.
  std::vector<std::string> stat_columns;
  std::map<std::string, std::pair<std::string, std::string>> column_source;  // column -> (stat, match)
  for (const json& s : results["stats"]) {
    const std::string name = s["name"];
    const bool wildcard = s["reduce"] == "none" && has_wildcard(s["path"].get<std::string>());
    if (!wildcard) {
      stat_columns.push_back(name);
      column_source[name] = {name, ""};
      continue;
    }
    std::vector<std::string> matches;
    for (const json& p : results["points"]) {
      const json& v = p["stats"].contains(name) ? p["stats"][name] : json();
      if (!v.is_object()) continue;
      for (auto it = v.begin(); it != v.end(); ++it)
        if (std::find(matches.begin(), matches.end(), it.key()) == matches.end()) matches.push_back(it.key());
    }
    std::sort(matches.begin(), matches.end(), natural_less);
    for (const std::string& m : matches) {
      const std::string column = name + "[" + m + "]";
      stat_columns.push_back(column);
      column_source[column] = {name, m};
    }
  }
  std::ostringstream csv;
  csv << "point,workload";
  for (const json& a : results["axes"])
    csv << "," << csv_field(a.get<std::string>());
  csv << ",status,config_hash,overrides,wall_seconds,cpu_seconds";
  for (const std::string& c : stat_columns)
    csv << "," << csv_field(c);
  csv << "\n";
  for (const json& p : results["points"]) {
    csv << csv_field(p["id"]) << "," << csv_field(p["workload"]);
    for (const json& a : results["axes"]) {
      const std::string axis = a;
      csv << "," << (p["labels"].contains(axis) ? csv_field(p["labels"][axis]) : "");
    }
    std::string overrides;
    for (const json& o : p["overrides"])
      overrides += (overrides.empty() ? "" : " ") + o.get<std::string>();
    csv << "," << csv_field(p["status"]) << "," << csv_field(p["config_hash"]) << "," << csv_field(overrides)
        << "," << (p.contains("wall_seconds") ? p["wall_seconds"].dump() : "") << ","
        << (p.contains("cpu_seconds") ? p["cpu_seconds"].dump() : "");
    for (const std::string& c : stat_columns) {
      const auto& [stat, match] = column_source[c];
      json v = p["stats"].contains(stat) ? p["stats"][stat] : json();
      if (!match.empty()) v = v.is_object() && v.contains(match) ? v[match] : json();
      csv << "," << csv_field(csv_value(v));
    }
    csv << "\n";
  }
  return csv.str();
}

}  // namespace numagpu
