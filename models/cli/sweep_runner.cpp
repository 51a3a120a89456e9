#include "cli/sweep_runner.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <system_error>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/subprocess.hpp"
#include "cli/sweep_results.hpp"
#include "stats/atomic_write.hpp"

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

// The lock file of a temp directory (cli/sweep_runner.hpp: clean_stale_temps) and the descriptor number it
// has in the child, which inherits it so that the lock outlives a killed sweep as long as its point runs.
constexpr const char* kOwnerFile = ".owner";
constexpr int kChildOwnerFd = 3;

// Creates `tmp`/.owner ("<id>\n<host>\n<pid>\n") and locks it; returns the descriptor (close-on-exec).
int take_ownership(const fs::path& tmp, const std::string& id) {
  const int fd = ::open((tmp / kOwnerFile).c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw std::runtime_error((tmp / kOwnerFile).string() + ": " + std::strerror(errno));
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    throw std::runtime_error((tmp / kOwnerFile).string() + ": cannot lock (" + std::strerror(errno) + ")");
  }
  const std::string text = id + "\n" + host_name() + "\n" + std::to_string(::getpid()) + "\n";
  if (::write(fd, text.data(), text.size()) != static_cast<ssize_t>(text.size())) {
    ::close(fd);
    throw std::runtime_error((tmp / kOwnerFile).string() + ": cannot write");
  }
  return fd;
}

// SIGINT and SIGTERM while points run: the first is remembered (and forwarded), a second one too.
volatile sig_atomic_t g_stop_signal = 0;
volatile sig_atomic_t g_stop_count = 0;

extern "C" void on_stop_signal(int signal_number) {
  if (g_stop_signal == 0) g_stop_signal = signal_number;
  g_stop_count = g_stop_count + 1;
}

// Handles SIGINT and SIGTERM for its lifetime (no SA_RESTART: the wait loop polls anyway).
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    g_stop_count = 0;
    struct sigaction action {};
    action.sa_handler = on_stop_signal;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &old_int_);
    sigaction(SIGTERM, &action, &old_term_);
  }
  ~StopSignals() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

std::string signal_text(int signal_number) {
  if (signal_number == SIGINT) return "SIGINT";
  if (signal_number == SIGTERM) return "SIGTERM";
  if (signal_number == SIGKILL) return "SIGKILL";
  return "signal " + std::to_string(signal_number);
}

// Why a stopped sweep stopped, as the failure records say it.
std::string stop_reason(int signal_number) {
  std::string reason = "the sweep was interrupted by " + signal_text(signal_number);
  const char* job = std::getenv("SLURM_JOB_ID");
  if (job != nullptr && *job != '\0') {
    const char* array = std::getenv("SLURM_ARRAY_JOB_ID");
    const char* task = std::getenv("SLURM_ARRAY_TASK_ID");
    const bool in_array = array != nullptr && *array != '\0' && task != nullptr && *task != '\0';
    reason += " (Slurm job " + (in_array ? std::string(array) + "_" + task : std::string(job)) +
              ": cancelled, out of time or preempted)";
  }
  return reason;
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
  int owner_fd = -1;  // the lock of the temp directory, held until the point is stored
};

json point_record(const SweepPoint& p, const std::vector<std::string>& command) {
  json record = point_identity(p);
  record["command"] = command;
  record["host"] = host_name();
  return record;
}

}  // namespace

nlohmann::json point_identity(const SweepPoint& p) {
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
          {"input_files", p.input_files},
          {"inputs_hash", p.inputs_hash}};
}

std::string temp_dir(const std::string& out_dir, const std::string& id) {
  static const std::string suffix = "." + host_name() + "." + std::to_string(::getpid());
  return (fs::path(out_dir) / "points" / (".tmp." + id + suffix)).string();
}

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

std::vector<std::string> point_command(const SweepPoint& point, const std::string& executable,
                                       const std::string& out_dir) {
  std::vector<std::string> argv{executable, "run", "-q", "-o", out_dir};
  if (!point.config_file.empty()) argv.insert(argv.end(), {"-c", point.config_file});
  if (!point.workload_file.empty()) argv.insert(argv.end(), {"-w", point.workload_file});
  for (const std::string& s : point.overrides)
    argv.insert(argv.end(), {"--set", s});
  return argv;
}

namespace {

bool process_alive(pid_t pid) {
  return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
}

// The owner of a temp directory without a lock file, from its name (.tmp.<id>.<host>.<pid>): true when that
// is a process of this host that no longer exists. Another host's directory cannot be judged: false.
bool dead_local_owner(const std::string& name) {
  const std::size_t dot = name.rfind('.');
  if (dot == std::string::npos) return false;
  const std::string pid_text = name.substr(dot + 1);
  if (pid_text.empty() || pid_text.find_first_not_of("0123456789") != std::string::npos) return false;
  const std::string head = name.substr(0, dot);
  const std::string host = "." + host_name();
  if (head.size() < host.size() || head.compare(head.size() - host.size(), host.size(), host) != 0)
    return false;
  return !process_alive(static_cast<pid_t>(std::stol(pid_text)));
}

// A temp directory whose owner is gone becomes its point's failure record when the point is still to do.
void salvage(const fs::path& tmp, const SweepSpec& spec, const std::string& out_dir) {
  std::error_code ec;
  std::string id, host, pid;
  {
    std::ifstream owner(tmp / kOwnerFile);
    std::getline(owner, id);
    std::getline(owner, host);
    std::getline(owner, pid);
  }
  const SweepPoint* p = id.empty() ? nullptr : spec.find(id);
  if (p == nullptr || point_finished(out_dir, *p, nullptr, &spec.stats)) {
    fs::remove_all(tmp, ec);
    return;
  }
  json record = point_record(*p, point_command(*p, "numagpu", point_dir(out_dir, p->id)));
  record["exit_code"] = -1;
  std::string failure =
      "the process running it (pid " + (pid.empty() ? "?" : pid) + " on " + (host.empty() ? "?" : host) +
      ") ended without recording a result: killed (SIGKILL, out of memory, a node failure, or "
      "a Slurm time limit or cancellation that did not wait)";
  const std::string last = last_line(tmp / "run.log");
  if (!last.empty()) failure += "; its log ends: " + last;
  record["failure"] = failure;
  try {
    write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
    fs::remove(tmp / kOwnerFile, ec);
    move_into_place(tmp, failed_dir(out_dir, p->id));
  } catch (const std::exception&) {
    fs::remove_all(tmp, ec);
  }
}

}  // namespace

void clean_stale_temps(const std::string& out_dir, const SweepSpec& spec) {
  std::error_code ec;
  const fs::path points = fs::path(out_dir) / "points";
  if (!fs::is_directory(points, ec)) return;
  std::vector<fs::path> entries;
  for (const auto& entry : fs::directory_iterator(points, ec))
    entries.push_back(entry.path());
  for (const fs::path& path : entries) {
    const std::string name = path.filename().string();
    if (name.rfind(".stale.", 0) == 0) {  // an old point renamed aside to be deleted: nobody reads it
      fs::remove_all(path, ec);
      continue;
    }
    if (name.rfind(".tmp.", 0) != 0) continue;
    const int fd = ::open((path / kOwnerFile).c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) {
      // No lock file: being created, being moved into place, or left by an older numagpu.
      if (dead_local_owner(name)) salvage(path, spec, out_dir);
      continue;
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) salvage(path, spec, out_dir);  // nobody holds it: owner gone
    ::close(fd);
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
  const StopSignals stop_signals;
  int stop_signal = 0;  // the SIGINT or SIGTERM being obeyed
  bool killed = false;  // the running points were sent SIGKILL

  auto launch = [&](const SweepPoint* p) {
    const std::string tmp = temp_dir(o.out_dir, p->id);
    std::error_code ec;
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp, ec);
    if (ec) throw std::runtime_error(tmp + ": cannot create (" + ec.message() + ")");
    const int owner_fd = take_ownership(tmp, p->id);
    subprocess::Command point;
    point.argv = point_command(*p, o.executable, tmp);
    point.program = o.executable;
    point.in = subprocess::Stream::kNull;
    point.out = subprocess::Stream::kFile;
    point.out_file = (fs::path(tmp) / "run.log").string();
    point.err_to_out = true;
    point.pass_fds = {{owner_fd, kChildOwnerFd}};  // the child holds the lock too
    point.own_process_group = true;                // its own group: signals come through us
    pid_t pid = 0;
    try {
      pid = subprocess::start(point);
    } catch (const subprocess::SpawnError& e) {
      ::close(owner_fd);
      throw std::runtime_error(std::string("cannot start a point: ") + e.what());
    }
    running.emplace(pid, Running{p, tmp, Clock::now(), owner_fd});
  };

  auto finish = [&](const Running& r, const subprocess::ExitStatus& status) {
    const double wall = std::chrono::duration<double>(Clock::now() - r.started).count();
    const SweepPoint& p = *r.point;
    const fs::path tmp(r.tmp);
    const bool exited = status.signal == 0;
    const int code = exited ? status.code : -1;
    // What the run wrote, with each file's size: a later sweep takes the point as finished only while every
    // one of them is there with that size (sweep_results.hpp: incomplete_point).
    json outputs = json::object();
    std::error_code ec;
    for (const fs::directory_entry& e : fs::directory_iterator(tmp, ec)) {
      const std::string name = e.path().filename().string();
      if (e.is_regular_file() && name != kOwnerFile && name != "point.json") outputs[name] = e.file_size();
    }
    std::string missing_output;  // an output every run writes that is absent or empty
    for (const char* name : kRunOutputs)
      if (missing_output.empty() && (!outputs.contains(name) || outputs[name] == 0))
        missing_output = std::string(name) + (outputs.contains(name) ? " is empty" : " is missing");
    // The run read its inputs as they were when it started; the point's identity names them as they were
    // when the spec was loaded. An input changed in between (an edited graph during a long sweep) would
    // record a result under an identity it does not have: the point fails and runs again.
    std::string changed_input;
    if (!p.input_files.empty() && inputs_hash(p.input_files) != std::optional<std::string>(p.inputs_hash))
      changed_input = "an input file changed since the sweep read it (" + p.input_files.front() +
                      (p.input_files.size() > 1 ? ", ..." : "") + "); the point runs again";
    const bool ok = exited && code == 0 && missing_output.empty() && changed_input.empty();
    json record = point_record(p, point_command(p, o.executable, point_dir(o.out_dir, p.id)));
    record["wall_seconds"] = wall;
    record["cpu_seconds"] = status.cpu_seconds;
    record["exit_code"] = code;
    if (ok) record["outputs"] = outputs;
    std::string failure;
    if (!ok) {
      failure = status.text();
      if (exited && code == 0)
        failure += ", but " + (missing_output.empty() ? changed_input : missing_output);
      if (stop_signal != 0) {
        failure =
            stop_reason(stop_signal) +
            (killed ? "; the point did not stop within " + std::to_string(kStopGraceSeconds) + " s: SIGKILL"
                    : "; the point stopped") +
            " (" + failure + ")";
      }
      const std::string last = last_line(tmp / "run.log");
      if (!last.empty()) failure += ": " + last;
      record["failure"] = failure;
    }
    write_file_atomically((tmp / "point.json").string(), record.dump(1) + "\n");
    fs::remove(tmp / kOwnerFile, ec);  // still locked through r.owner_fd until the caller closes it
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

  // A point the interrupted sweep never started: failed, with the reason, unless an earlier attempt of the
  // same configuration left its failure record (and its log).
  auto not_started = [&](const SweepPoint& p) {
    const fs::path dir = failed_dir(o.out_dir, p.id);
    if (std::ifstream in(dir / "point.json"); in) {  // keep a record of this configuration's last attempt
      const json earlier = json::parse(in, nullptr, false);
      if (!earlier.is_discarded() && same_identity(earlier, p)) return;
    }
    json record = point_record(p, point_command(p, o.executable, point_dir(o.out_dir, p.id)));
    record["exit_code"] = -1;
    record["failure"] = "not started: " + stop_reason(stop_signal);
    try {
      std::error_code ec;
      fs::remove_all(dir, ec);  // another configuration's attempt: stale
      fs::create_directories(dir);
      write_file_atomically((dir / "point.json").string(), record.dump(1) + "\n");
    } catch (const std::exception& e) {
      err << "numagpu sweep: point " << p.id << ": cannot record it as not started (" << e.what() << ")\n";
    }
  };

  Clock::time_point stop_started;
  while (!pending.empty() || !running.empty()) {
    if (g_stop_signal != 0 && stop_signal == 0) {  // stop: nothing new, forward the signal, wait (bounded)
      stop_signal = g_stop_signal;
      stop_started = Clock::now();
      if (o.progress) bar.clear();
      err << "numagpu sweep: " << signal_text(stop_signal) << ": stopping " << running.size()
          << " running point(s) (at most " << kStopGraceSeconds << " s), " << pending.size()
          << " not started\n"
          << std::flush;
      for (const SweepPoint* p : pending) {
        not_started(*p);
        ++summary.failed;
      }
      pending.clear();
      for (const auto& [pid, r] : running)
        ::kill(pid, stop_signal);
    }
    if (stop_signal != 0 && !killed &&
        (g_stop_count > 1 || Clock::now() - stop_started > std::chrono::seconds(kStopGraceSeconds))) {
      killed = true;  // a second signal, or the points did not stop in time
      for (const auto& [pid, r] : running)
        ::kill(pid, SIGKILL);
    }
    while (stop_signal == 0 && running.size() < jobs && !pending.empty()) {
      launch(pending.front());
      pending.pop_front();
    }
    if (running.empty()) break;
    if (o.progress) bar.draw(running.size(), false);
    // Poll, so that a signal, the grace period and the progress bar (elapsed time, ETA) are seen in time.
    std::optional<std::pair<pid_t, subprocess::ExitStatus>> done;
    try {
      done = subprocess::wait_any(/*block=*/false);
    } catch (const std::system_error& e) {
      throw std::runtime_error(std::string("waiting for points: ") + e.code().message());
    }
    if (!done) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      continue;
    }
    const auto [pid, status] = *done;
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
    ::close(r.owner_fd);
    if (o.progress) bar.draw(running.size(), true);
  }
  summary.interrupted = stop_signal;
  if (o.progress) bar.clear();
  return summary;
}

}  // namespace numagpu
