#include "cli/sweep_reuse.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "cli/sweep_results.hpp"
#include "cli/sweep_runner.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

// Every regular file of `source` into `target` (created): a hard link where the file system allows (the
// sweep replaces files by renaming, never rewrites them, so a shared inode is never changed under the
// other sweep), a copy otherwise. point.json is left out: the caller writes this point's own.
void link_or_copy_files(const fs::path& source, const fs::path& target) {
  fs::create_directories(target);
  for (const fs::directory_entry& e : fs::directory_iterator(source)) {
    if (!e.is_regular_file() || e.path().filename() == "point.json") continue;
    std::error_code ec;
    fs::create_hard_link(e.path(), target / e.path().filename(), ec);
    if (ec) fs::copy_file(e.path(), target / e.path().filename(), fs::copy_options::overwrite_existing);
  }
}

std::string key_of(const std::string& config_hash, const std::string& inputs_hash) {
  return inputs_hash.empty() ? config_hash : config_hash + "+" + inputs_hash;
}

json read_json_or_null(const fs::path& file) {
  std::ifstream in(file);
  return in ? json::parse(in, nullptr, false) : json();
}

// What two runs of one identity must agree on: the statistics (not the run's wall time or host) and the
// power figures.
json results_of(const fs::path& dir, const json& stats_document) {
  return {{"stats.json",
           {{"complete", stats_document.value("complete", json())},
            {"stats", stats_document.value("stats", json())}}},
          {"power.json", read_json_or_null(dir / "power.json")}};
}

}  // namespace

std::string reuse_key(const SweepPoint& point) {
  return key_of(point.config_hash, point.inputs_hash);
}

std::map<std::string, std::vector<std::string>> finished_points_by_hash(
    const std::vector<std::string>& dirs) {
  std::map<std::string, std::vector<std::string>> found;
  for (const std::string& dir : dirs) {
    const fs::path points = fs::path(dir) / "points";
    std::error_code ec;
    if (!fs::is_directory(points, ec))
      throw std::runtime_error(dir + ": not a sweep's output directory (it has no points/ folder)");
    std::vector<fs::path> entries;
    for (const fs::directory_entry& e : fs::directory_iterator(points))
      if (e.is_directory() && e.path().filename().string().rfind('.', 0) != 0) entries.push_back(e.path());
    std::sort(entries.begin(), entries.end());  // the same choice on every file system
    for (const fs::path& p : entries) {
      const json info = read_json_or_null(p / "point.json");
      if (info.is_discarded() || !info.is_object() || !info.contains("config_hash") ||
          !info["config_hash"].is_string())
        continue;
      const json inputs = info.value("inputs_hash", json(""));
      const std::string path = fs::absolute(p).lexically_normal().string();
      std::vector<std::string>& list = found[key_of(info["config_hash"].get<std::string>(),
                                                    inputs.is_string() ? inputs.get<std::string>() : "?")];
      if (std::find(list.begin(), list.end(), path) == list.end()) list.push_back(path);
    }
  }
  return found;
}

std::map<std::string, std::string> plan_reuse(const std::map<std::string, std::vector<std::string>>& found,
                                              const std::vector<const SweepPoint*>& todo,
                                              const std::string& out_dir, std::ostream& err) {
  std::map<std::string, std::string> plan;
  for (const SweepPoint* p : todo) {
    const auto hit = found.find(reuse_key(*p));
    if (hit == found.end()) continue;
    const std::string own = fs::absolute(point_dir(out_dir, p->id)).lexically_normal().string();
    std::string chosen;
    json chosen_results;
    for (const std::string& source : hit->second) {
      if (source == own) continue;
      json stats;
      const std::string why = incomplete_point(source, &stats);
      if (!why.empty()) {
        err << "numagpu sweep: point " << p->id << ": not reused from " << source << " (incomplete: " << why
            << ")\n";
        continue;
      }
      json results = results_of(source, stats);
      if (chosen.empty()) {
        chosen = source;
        chosen_results = std::move(results);
        continue;
      }
      if (results == chosen_results) continue;
      const json patch = json::diff(chosen_results, results);
      const std::string where = patch.empty() ? std::string() : patch[0].value("path", std::string());
      throw ReuseConflict("point " + p->id + ": " + chosen + " and " + source +
                          " hold runs of its configuration (hash " + reuse_key(*p) +
                          ") with different results (first at " + where +
                          "); give only the --reuse whose result is right");
    }
    if (!chosen.empty()) plan[p->id] = chosen;
  }
  return plan;
}

std::size_t reuse_finished_points(const std::map<std::string, std::string>& plan,
                                  std::vector<const SweepPoint*>& todo, const std::string& out_dir,
                                  std::ostream& err) {
  std::size_t reused = 0;
  std::vector<const SweepPoint*> still;
  for (const SweepPoint* p : todo) {
    const auto hit = plan.find(p->id);
    if (hit == plan.end()) {
      still.push_back(p);
      continue;
    }
    const fs::path source = hit->second;
    const fs::path target = point_dir(out_dir, p->id);
    const fs::path tmp = temp_dir(out_dir, p->id);
    try {
      std::ifstream in(source / "point.json");
      json record = json::parse(in);
      // This point's identity; the run's record (command, host, wall time, exit, outputs) stays the
      // original's.
      record.update(point_identity(*p));
      record["reused_from"] = source.string();
      std::error_code ec;
      fs::remove_all(tmp, ec);
      link_or_copy_files(source, tmp);
      write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
      const std::string why = incomplete_point(tmp.string());
      if (!why.empty()) throw std::runtime_error("incomplete: " + why);  // changed since it was planned
      move_into_place(tmp, target);
      ++reused;
    } catch (const std::exception& e) {
      std::error_code ec;
      fs::remove_all(tmp, ec);
      err << "numagpu sweep: point " << p->id << ": cannot reuse " << source.string() << " (" << e.what()
          << "); it runs instead\n";
      still.push_back(p);
    }
  }
  todo = std::move(still);
  return reused;
}

}  // namespace numagpu
