#include "cli/sweep_tabled.hpp"

#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "cli/sweep_results.hpp"
#include "cli/sweep_reuse.hpp"
#include "cli/sweep_runner.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// A results table's statistic definitions by name: {path, reduce}.
json definitions_of(const json& table) {
  json defs = json::object();
  for (const json& s : table["stats"])
    if (s.is_object() && s.value("name", json()).is_string())
      defs[s["name"].get<std::string>()] = {{"path", s.value("path", json())},
                                            {"reduce", s.value("reduce", json())}};
  return defs;
}

json definition_of(const SweepStat& s) {
  return {{"path", s.path}, {"reduce", stat_reduce_name(s.reduce)}};
}

// The first statistic of `wanted` that `defs` does not define alike ("" when it defines them all).
std::string first_undefined(const json& defs, const std::vector<SweepStat>& wanted) {
  for (const SweepStat& s : wanted)
    if (!defs.contains(s.name) || defs[s.name] != definition_of(s)) return s.name;
  return "";
}

json read_table(const std::string& file) {
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot read the results table");
  json table = json::parse(in, nullptr, false);
  if (table.is_discarded() || !table.is_object() ||
      table.value("format", json()) != "numagpu-sweep-results" || !table.contains("points") ||
      !table["points"].is_array() || !table.contains("stats") || !table["stats"].is_array())
    throw std::runtime_error(file +
                             ": not a sweep's results table (results.json: format "
                             "numagpu-sweep-results, with points and stats)");
  return table;
}

std::string text(const json& row, const char* key) {
  const auto it = row.find(key);
  return it != row.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string key_of(const json& row) {
  return text(row, "config_hash") + "+" + text(row, "inputs_hash");
}

}  // namespace

const char* stat_reduce_name(StatReduce reduce) {
  switch (reduce) {
    case StatReduce::kSum:
      return "sum";
    case StatReduce::kMean:
      return "mean";
    case StatReduce::kMin:
      return "min";
    case StatReduce::kMax:
      return "max";
    case StatReduce::kNone:
      break;
  }
  return "none";
}

bool is_results_table(const std::string& path) {
  return path.size() > 5 && path.compare(path.size() - 5, 5, ".json") == 0;
}

bool is_tabled_point(const json& record) {
  return record.is_object() && record.contains("tabled_stats") && record["tabled_stats"].is_object();
}

std::string tabled_source(const json& record) {
  const std::string from = text(record, "reused_from");
  return from.empty() ? "a results table" : from;
}

bool tabled_stats(const json& record, const std::vector<SweepStat>& wanted, json* values, std::string* why) {
  if (!is_tabled_point(record)) {
    if (why) *why = "not a tabled point";
    return false;
  }
  const json& held = record["tabled_stats"];
  json found = json::object();
  for (const SweepStat& s : wanted) {
    const auto it = held.find(s.name);
    if (it == held.end() || !it->is_object() || it->value("path", json()) != s.path ||
        it->value("reduce", json()) != stat_reduce_name(s.reduce)) {
      if (why)
        *why = "its table (" + tabled_source(record) + ") has no statistic '" + s.name + "' of path " +
               s.path + " and reduction " + stat_reduce_name(s.reduce);
      return false;
    }
    found[s.name] = it->value("value", json());
  }
  if (values) *values = std::move(found);
  return true;
}

std::map<std::string, TableRow> plan_tabled_points(const std::vector<std::string>& tables,
                                                   const std::vector<const SweepPoint*>& todo,
                                                   const std::vector<SweepStat>& wanted, std::ostream& err) {
  // identity -> every usable row, in the order the tables were given
  std::map<std::string, std::vector<TableRow>> rows;
  for (const std::string& file : tables) {
    const json table = read_table(file);
    if (const std::string missing = first_undefined(definitions_of(table), wanted); !missing.empty()) {
      err << "numagpu sweep: --reuse " << file << ": not used: it has no statistic '" << missing
          << "' as this spec defines it (path and reduction), so none of its rows can stand for a point\n";
      continue;
    }
    const std::string path = fs::absolute(file).lexically_normal().string();
    for (const json& row : table["points"])
      if (row.is_object() && row.value("status", json()) == "ok" && !text(row, "config_hash").empty() &&
          row.contains("stats") && row["stats"].is_object())
        rows[key_of(row)].push_back({path, row});
  }
  std::map<std::string, TableRow> plan;
  for (const SweepPoint* p : todo) {
    const auto hit = rows.find(p->config_hash + "+" + p->inputs_hash);
    if (hit == rows.end()) continue;
    const TableRow& chosen = hit->second.front();
    for (const TableRow& other : hit->second)
      for (const SweepStat& s : wanted)
        if (other.row["stats"].value(s.name, json()) != chosen.row["stats"].value(s.name, json()))
          throw ReuseConflict("point " + p->id + ": " + chosen.table + " (point " + text(chosen.row, "id") +
                              ") and " + other.table + " (point " + text(other.row, "id") +
                              ") hold runs of its configuration (hash " + p->config_hash +
                              ") with different values of '" + s.name +
                              "'; give only the --reuse whose result is right");
    plan[p->id] = chosen;
  }
  return plan;
}

std::size_t write_tabled_points(const std::map<std::string, TableRow>& plan,
                                std::vector<const SweepPoint*>& todo, const std::vector<SweepStat>& wanted,
                                const std::string& out_dir, std::ostream& err) {
  std::size_t written = 0;
  std::vector<const SweepPoint*> still;
  for (const SweepPoint* p : todo) {
    const auto hit = plan.find(p->id);
    if (hit == plan.end()) {
      still.push_back(p);
      continue;
    }
    const json& row = hit->second.row;
    const fs::path tmp = temp_dir(out_dir, p->id);
    try {
      json record = point_identity(*p);
      record["reused_from"] = hit->second.table;
      record["reused_row"] = text(row, "id");
      // The original run's host cost, so that a study's cost can still be summed over its points.
      for (const char* key : {"wall_seconds", "cpu_seconds"})
        if (const json v = row.value(key, json()); v.is_number()) record[key] = v;
      json stats = json::object();
      for (const SweepStat& s : wanted) {
        json entry = definition_of(s);
        entry["value"] = row["stats"].value(s.name, json());
        stats[s.name] = std::move(entry);
      }
      record["tabled_stats"] = std::move(stats);
      std::error_code ec;
      fs::remove_all(tmp, ec);
      fs::create_directories(tmp);
      write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
      move_into_place(tmp, point_dir(out_dir, p->id));
      ++written;
    } catch (const std::exception& e) {
      std::error_code ec;
      fs::remove_all(tmp, ec);
      err << "numagpu sweep: point " << p->id << ": cannot take it from " << hit->second.table << " ("
          << e.what() << "); it runs instead\n";
      still.push_back(p);
    }
  }
  todo = std::move(still);
  return written;
}

}  // namespace numagpu
