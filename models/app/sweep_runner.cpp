#include "app/sweep_runner.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/sweep_results.hpp"
#include "stats/atomic_write.hpp"

extern char** environ;

namespace numagpu {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof name - 1) != 0) return "host";
  return name;
}

std::string temp_dir(const std::string& out_dir, const std::string& id) {
  static const std::string suffix = "." + host_name() + "." + std::to_string(::getpid());
  return (fs::path(out_dir) / "points" / (".tmp." + id + suffix)).string();
}

std::string duration_text(double seconds) {
  char text[32];
  const long s = static_cast<long>(seconds + 0.5);
  if (s < 60) {
    std::snprintf(text, sizeof text, "%lds", s);
  } else if (s < 3600) {
    std::snprintf(text, sizeof text, "%ldm%02lds", s / 60, s % 60);
  } else {
    std::snprintf(text, sizeof text, "%ldh%02ldm", s / 3600, (s % 3600) / 60);
  }
  return text;
}

// The last non-empty line of a log: usually the child's own one-line error.
std::string last_line(const fs::path& log) {
  std::ifstream in(log);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

// Replaces `target` (a directory, possibly absent) by `source` with renames only, so that readers see the
// old point, no point, or the new point, never a partial one.
void move_into_place(const fs::path& source, const fs::path& target) {
  fs::create_directories(target.parent_path());
  if (fs::exists(target)) {
    const fs::path stale = target.parent_path() / (".stale." + target.filename().string() + "." +
                                                   host_name() + "." + std::to_string(::getpid()));
    fs::rename(target, stale);
    fs::rename(source, target);
    fs::remove_all(stale);
  } else {
    fs::rename(source, target);
  }
}

class ProgressBar {
 public:
  ProgressBar(std::ostream& os, std::size_t total, std::size_t before, unsigned jobs)
      : os_(os), total_(total), done_(before), jobs_(jobs), started_(Clock::now()) {}

  void finished(bool ok, double wall) {
    ++(ok ? done_ : failed_);
    ++completed_here_;
    wall_sum_ += wall;
  }
  void draw(std::size_t running, bool force) {
    const auto now = Clock::now();
    if (!force && now - last_draw_ < std::chrono::milliseconds(250)) return;
    last_draw_ = now;
    const std::size_t left = total_ - done_ - failed_;
    std::string eta = "--";
    if (completed_here_ > 0) {
      const double per_point = wall_sum_ / double(completed_here_);
      eta = duration_text(per_point * double(left) /
                          double(std::max<std::size_t>(1, std::min<std::size_t>(jobs_, left))));
    }
    constexpr int kWidth = 24;
    const int filled = total_ ? static_cast<int>(kWidth * (done_ + failed_) / total_) : kWidth;
    const double elapsed = std::chrono::duration<double>(now - started_).count();
    char line[200];
    std::snprintf(line, sizeof line, "\r[%s%s] %zu/%zu done, %zu running, %zu failed, %s elapsed, ETA %s   ",
                  std::string(filled, '#').c_str(), std::string(kWidth - filled, '.').c_str(), done_, total_,
                  running, failed_, duration_text(elapsed).c_str(), eta.c_str());
    os_ << line << std::flush;
    drawn_ = true;
  }
  void clear() {
    if (drawn_) os_ << "\r" << std::string(100, ' ') << "\r" << std::flush;
    drawn_ = false;
  }

 private:
  std::ostream& os_;
  std::size_t total_, done_, failed_ = 0, completed_here_ = 0;
  unsigned jobs_;
  double wall_sum_ = 0;
  Clock::time_point started_, last_draw_{};
  bool drawn_ = false;
};

struct Running {
  const SweepPoint* point;
  std::string tmp;
  Clock::time_point started;
};

json point_record(const SweepPoint& p, const std::vector<std::string>& command) {
  json labels = json::object();
  for (const auto& [axis, label] : p.labels)
    labels[axis] = label;
  return {{"id", p.id},
          {"workload", p.workload},
          {"grid", p.grid},
          {"labels", labels},
          {"overrides", p.overrides},
          {"config_file", p.config_file},
          {"workload_file", p.workload_file},
          {"config_hash", p.config_hash},
          {"command", command},
          {"host", host_name()}};
}

}  // namespace

std::vector<std::string> point_command(const SweepPoint& point, const std::string& executable,
                                       const std::string& out_dir) {
  std::vector<std::string> argv{executable, "run", "-q", "-o", out_dir};
  if (!point.config_file.empty()) argv.insert(argv.end(), {"-c", point.config_file});
  if (!point.workload_file.empty()) argv.insert(argv.end(), {"-w", point.workload_file});
  for (const std::string& s : point.overrides)
    argv.insert(argv.end(), {"--set", s});
  return argv;
}

void remove_stale_temps(const std::string& out_dir) {
  std::error_code ec;
  const fs::path points = fs::path(out_dir) / "points";
  if (!fs::is_directory(points, ec)) return;
  for (const auto& entry : fs::directory_iterator(points, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(".tmp.", 0) == 0 || name.rfind(".stale.", 0) == 0) fs::remove_all(entry.path(), ec);
  }
}

RunnerSummary run_points(const std::vector<const SweepPoint*>& points, const RunnerOptions& o,
                         std::ostream& out, std::ostream& err) {
  RunnerSummary summary;
  std::deque<const SweepPoint*> pending(points.begin(), points.end());
  std::map<pid_t, Running> running;
  const unsigned jobs = std::max(1u, o.jobs);
  ProgressBar bar(err, o.total, o.finished_before, jobs);
  std::size_t reported = o.finished_before;

  auto launch = [&](const SweepPoint* p) {
    const std::string tmp = temp_dir(o.out_dir, p->id);
    std::error_code ec;
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp, ec);
    const std::vector<std::string> argv = point_command(*p, o.executable, tmp);
    const std::string log = (fs::path(tmp) / "run.log").string();
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    std::vector<char*> args;
    for (const std::string& a : argv)
      args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    pid_t pid = 0;
    const int rc = posix_spawn(&pid, o.executable.c_str(), &actions, nullptr, args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (ec || rc != 0) {
      throw std::runtime_error(o.executable + ": cannot start a point (" +
                               std::string(ec ? ec.message() : std::strerror(rc)) + ")");
    }
    running.emplace(pid, Running{p, tmp, Clock::now()});
  };

  auto finish = [&](const Running& r, int status) {
    const double wall = std::chrono::duration<double>(Clock::now() - r.started).count();
    const SweepPoint& p = *r.point;
    const fs::path tmp(r.tmp);
    const bool exited = WIFEXITED(status);
    const int code = exited ? WEXITSTATUS(status) : -1;
    const bool ok = exited && code == 0 && fs::exists(tmp / "stats.json");
    json record = point_record(p, point_command(p, o.executable, point_dir(o.out_dir, p.id)));
    record["wall_seconds"] = wall;
    record["exit_code"] = code;
    std::string failure;
    if (!ok) {
      failure =
          exited ? "exit " + std::to_string(code) : "killed by signal " + std::to_string(WTERMSIG(status));
      const std::string last = last_line(tmp / "run.log");
      if (!last.empty()) failure += ": " + last;
      record["failure"] = failure;
    }
    write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
    std::error_code ec;
    if (ok) {
      move_into_place(tmp, point_dir(o.out_dir, p.id));
      fs::remove_all(failed_dir(o.out_dir, p.id), ec);
      ++summary.ok;
    } else {
      move_into_place(tmp, failed_dir(o.out_dir, p.id));
      ++summary.failed;
    }
    bar.finished(ok, wall);
    ++reported;
    if (o.progress) bar.clear();
    if (!ok) {
      err << "numagpu sweep: point " << p.id << " failed (" << failure
          << "); log: " << (fs::path(failed_dir(o.out_dir, p.id)) / "run.log").string() << "\n";
    } else if (!o.quiet && !o.progress) {
      char line[64];
      std::snprintf(line, sizeof line, " done in %.1f s\n", wall);
      out << "[" << reported << "/" << o.total << "] " << p.id << line << std::flush;
    }
  };

  while (!pending.empty() || !running.empty()) {
    while (running.size() < jobs && !pending.empty()) {
      launch(pending.front());
      pending.pop_front();
    }
    if (o.progress) bar.draw(running.size(), false);
    int status = 0;
    // With a progress bar, poll so the bar (elapsed time, ETA) keeps moving; otherwise just wait.
    const pid_t pid = waitpid(-1, &status, o.progress ? WNOHANG : 0);
    if (pid == 0) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    if (pid < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("waiting for points: ") + std::strerror(errno));
    }
    const auto it = running.find(pid);
    if (it == running.end()) continue;  // not one of ours
    const Running r = it->second;
    running.erase(it);
    try {
      finish(r, status);
    } catch (const std::exception& e) {  // a full disk, say: this point is lost, the others go on
      ++summary.failed;
      if (o.progress) bar.clear();
      err << "numagpu sweep: point " << r.point->id << " failed: cannot store its outputs (" << e.what()
          << ")\n";
    }
    if (o.progress) bar.draw(running.size(), true);
  }
  if (o.progress) bar.clear();
  return summary;
}

}  // namespace numagpu
