#include "app/sweep_reuse.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "app/sweep_results.hpp"
#include "app/sweep_runner.hpp"
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

}  // namespace

std::map<std::string, std::string> finished_points_by_hash(const std::vector<std::string>& dirs) {
  std::map<std::string, std::string> found;
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
      std::ifstream in(p / "point.json");
      if (!in || !fs::exists(p / "stats.json")) continue;
      const json info = json::parse(in, nullptr, false);
      if (info.is_discarded() || !info.is_object() || !info.contains("config_hash") ||
          !info["config_hash"].is_string())
        continue;
      found.emplace(info["config_hash"].get<std::string>(), fs::absolute(p).lexically_normal().string());
    }
  }
  return found;
}

std::size_t reuse_finished_points(const std::map<std::string, std::string>& found,
                                  std::vector<const SweepPoint*>& todo, const std::string& out_dir,
                                  std::ostream& err) {
  std::size_t reused = 0;
  std::vector<const SweepPoint*> still;
  for (const SweepPoint* p : todo) {
    const auto hit = found.find(p->config_hash);
    const fs::path target = point_dir(out_dir, p->id);
    if (hit == found.end() || fs::absolute(target).lexically_normal().string() == hit->second) {
      still.push_back(p);
      continue;
    }
    const fs::path source = hit->second;
    const fs::path tmp = temp_dir(out_dir, p->id);
    try {
      std::ifstream in(source / "point.json");
      json record = json::parse(in);
      // This point's identity; the run's record (command, host, wall time, exit) stays the original's.
      record.update(point_identity(*p));
      record["reused_from"] = source.string();
      std::error_code ec;
      fs::remove_all(tmp, ec);
      link_or_copy_files(source, tmp);
      write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
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
