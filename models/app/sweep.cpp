#include "app/sweep.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/embedded_configs.hpp"
#include "app/run.hpp"
#include "app/sweep_results.hpp"
#include "app/sweep_runner.hpp"
#include "app/sweep_spec.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string this_executable() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("numagpu") : self.string();
}

// 'text' for the shell, whatever it contains.
std::string shell_quote(const std::string& text) {
  std::string q = "'";
  for (char c : text)
    q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string absolute(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec);
  return (ec ? fs::path(path) : p).lexically_normal().string();
}

// Holds an exclusive lock on OUT/.lock for the life of the object, so that two local sweeps never write
// into one directory (Slurm tasks do not take it: each writes only its own point).
class DirectoryLock {
 public:
  explicit DirectoryLock(const std::string& dir) {
    fd_ = ::open((fs::path(dir) / ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    held_ = fd_ >= 0 && ::flock(fd_, LOCK_EX | LOCK_NB) == 0;
  }
  ~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_);
  }
  DirectoryLock(const DirectoryLock&) = delete;
  DirectoryLock& operator=(const DirectoryLock&) = delete;
  bool held() const { return held_; }

 private:
  int fd_ = -1;
  bool held_ = false;
};

// Common tail of every command the Slurm scripts run: the same spec, output directory and extra overrides.
std::string sweep_invocation(const std::string& exe, const SweepOptions& o, const std::string& out_dir) {
  std::string cmd = shell_quote(exe) + " sweep " + shell_quote(absolute(o.spec_file)) + " -o " +
                    shell_quote(absolute(out_dir));
  for (const std::string& s : o.sets)
    cmd += " --set " + shell_quote(s);
  for (const std::string& w : o.workloads)
    cmd += " --workloads " + shell_quote(w);
  return cmd;
}

int write_slurm(const SweepSpec& spec, const SweepOptions& o, const std::string& out_dir,
                const std::string& exe, std::ostream& out, std::ostream& err) {
  const fs::path dir = fs::path(absolute(out_dir)) / "slurm";
  std::error_code ec;
  fs::create_directories(dir / "logs", ec);
  if (ec) {
    err << "numagpu: error: " << dir.string() << ": cannot create directory (" << ec.message() << ")\n";
    return kExitBadInput;
  }
  const std::string n = std::to_string(spec.points.size());
  std::string extra;
  for (const std::string& s : o.slurm_options)
    extra += "#SBATCH " + s + "\n";
  std::string array =
      "#!/bin/bash\n"
      "#SBATCH --job-name=numagpu-" +
      spec.name +
      "\n"
      "#SBATCH --array=0-" +
      std::to_string(spec.points.size() - 1) +
      "\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --output=" +
      (dir / "logs").string() + "/%A_%a.out\n" + extra + "# numagpu sweep " + spec.name +
      ": one array task per point (" + n +
      " points), written by\n"
      "# `numagpu sweep --slurm`. Submit with submit.sh (it queues collect.sbatch after the array), or run "
      "one\n"
      "# point by hand: SLURM_ARRAY_TASK_ID=3 bash array.sbatch\n"
      "# Each task writes only its own point directory, atomically, exactly as a local sweep does.\n"
      "set -euo pipefail\n"
      "points=(\n";
  for (const SweepPoint& p : spec.points)
    array += "  " + p.id + "\n";
  array +=
      ")\n"
      "task=\"${SLURM_ARRAY_TASK_ID:?is not set: submit with sbatch, or set it to run one point}\"\n"
      "if ! [[ \"$task\" =~ ^[0-9]+$ ]] || (( task >= ${#points[@]} )); then\n"
      "  echo \"array.sbatch: SLURM_ARRAY_TASK_ID=$task is not a point index (0-$(( ${#points[@]} - 1 )))\" "
      ">&2\n"
      "  exit 2\n"
      "fi\n"
      "exec " +
      sweep_invocation(exe, o, out_dir) + " --point \"${points[$task]}\"\n";
  const std::string collect =
      "#!/bin/bash\n"
      "#SBATCH --job-name=numagpu-" +
      spec.name +
      "-collect\n"
      "#SBATCH --ntasks=1\n"
      "#SBATCH --cpus-per-task=1\n"
      "#SBATCH --output=" +
      (dir / "logs").string() + "/collect_%j.out\n" + extra +
      "# Collects the results table of numagpu sweep " + spec.name +
      " once the array job is over (failed or\n"
      "# missing points are listed in it and make this step exit 1; rerun the array to retry them).\n"
      "set -euo pipefail\n"
      "exec " +
      sweep_invocation(exe, o, out_dir) + " --collect\n";
  const std::string submit =
      "#!/bin/bash\n"
      "# Queues the " +
      n + " point tasks of numagpu sweep " + spec.name +
      ", then the collect step after them.\n"
      "set -euo pipefail\n"
      "cd \"$(dirname \"$0\")\"\n"
      "array=$(sbatch --parsable array.sbatch)\n"
      "array=${array%%;*}\n"
      "collect=$(sbatch --parsable --dependency=afterany:\"$array\" collect.sbatch)\n"
      "echo \"numagpu sweep " +
      spec.name + ": array job $array (" + n + " points), collect job ${collect%%;*}\"\n";
  try {
    write_file_atomically((dir / "array.sbatch").string(), array);
    write_file_atomically((dir / "collect.sbatch").string(), collect);
    write_file_atomically((dir / "submit.sh").string(), submit);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  out << "numagpu sweep: " << spec.name << ": wrote " << (dir / "array.sbatch").string() << " (" << n
      << " array tasks), " << (dir / "collect.sbatch").string() << ", " << (dir / "submit.sh").string()
      << "\nsubmit with: bash " << shell_quote((dir / "submit.sh").string()) << "\n";
  return kExitOk;
}

int collect_and_report(const SweepSpec& spec, const std::string& out_dir, std::ostream& out,
                       std::ostream& err) {
  CollectSummary s;
  try {
    s = collect_results(spec, out_dir, err);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitRunFailed;
  }
  const fs::path dir(out_dir);
  out << "numagpu sweep: " << spec.name << ": " << s.ok << " ok, " << s.failed << " failed, " << s.missing
      << " missing; results: " << (dir / "results.csv").string() << ", " << (dir / "results.json").string()
      << "\n";
  return s.failed + s.missing ? kExitRunFailed : kExitOk;
}

}  // namespace

std::string sweep_spec_reference() {
  return sweep_schema().markdown_reference();
}

int sweep_command(const SweepOptions& o, std::ostream& out, std::ostream& err) {
  SweepSpec spec;
  try {
    spec = load_sweep_spec(o.spec_file, o.sets);
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (!o.workloads.empty()) {
    for (const std::string& w : o.workloads) {
      if (std::none_of(spec.points.begin(), spec.points.end(),
                       [&w](const SweepPoint& p) { return p.workload == w; })) {
        err << "numagpu: error: --workloads: " << o.spec_file << " has no workload '" << w << "'\n";
        return kExitBadInput;
      }
    }
    std::vector<SweepPoint> kept;
    for (SweepPoint& p : spec.points) {
      if (std::find(o.workloads.begin(), o.workloads.end(), p.workload) == o.workloads.end()) continue;
      p.index = kept.size();
      kept.push_back(std::move(p));
    }
    spec.points = std::move(kept);
  }
  const std::string out_dir = o.out_dir.empty() ? "numagpu-sweeps/" + spec.name : o.out_dir;
  const std::string exe = o.executable.empty() ? this_executable() : o.executable;

  if (o.list) {
    for (const SweepPoint& p : spec.points) {
      out << p.index << "\t" << p.id << "\t" << p.config_hash;
      for (const std::string& s : p.overrides)
        out << " " << s;
      out << "\n";
    }
    return kExitOk;
  }
  if (o.slurm) return write_slurm(spec, o, out_dir, exe, out, err);
  if (!make_output_dir(out_dir, err)) return kExitBadInput;

  RunnerOptions ro;
  ro.executable = exe;
  ro.out_dir = out_dir;
  ro.jobs = o.jobs ? o.jobs : std::max(1u, std::thread::hardware_concurrency());
  ro.quiet = o.quiet;
  ro.progress = o.progress && !o.quiet;

  if (!o.point.empty()) {  // one Slurm array task: this point only, no lock, no collect
    const SweepPoint* p = spec.find(o.point);
    if (p == nullptr) {
      err << "numagpu: error: " << o.spec_file << ": no point '" << o.point
          << "' (numagpu sweep --list shows them)\n";
      return kExitBadInput;
    }
    if (point_finished(out_dir, *p)) {
      out << "numagpu sweep: point " << p->id << " is already finished\n";
      return kExitOk;
    }
    ro.total = 1;
    ro.progress = false;
    try {
      return run_points({p}, ro, out, err).failed ? kExitRunFailed : kExitOk;
    } catch (const std::exception& e) {
      err << "numagpu: error: " << e.what() << "\n";
      return kExitRunFailed;
    }
  }

  const DirectoryLock lock(out_dir);
  if (!lock.held()) {
    err << "numagpu: error: " << out_dir << ": another numagpu sweep is using this directory\n";
    return kExitBadInput;
  }
  if (!o.collect_only) {
    remove_stale_temps(out_dir);
    std::vector<const SweepPoint*> todo;
    for (const SweepPoint& p : spec.points)
      if (!point_finished(out_dir, p)) todo.push_back(&p);
    ro.total = spec.points.size();
    ro.finished_before = spec.points.size() - todo.size();
    if (!o.quiet) {
      out << "numagpu sweep: " << spec.name << ": " << spec.points.size() << " points";
      if (ro.finished_before) out << ", " << ro.finished_before << " finished before";
      out << "; running " << todo.size() << " with -j " << ro.jobs << " into " << out_dir << "\n"
          << std::flush;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      run_points(todo, ro, out, err);
    } catch (const std::exception& e) {
      err << "numagpu: error: " << e.what() << "\n";
      return kExitRunFailed;
    }
    if (!o.quiet && !todo.empty()) {
      char line[80];
      std::snprintf(line, sizeof line, "numagpu sweep: %s: ran %zu points in %.1f s\n", spec.name.c_str(),
                    todo.size(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      out << line;
    }
  }
  return collect_and_report(spec, out_dir, out, err);
}

int plot_command(const PlotOptions& o, std::ostream& out, std::ostream& err) {
  std::ifstream in(o.results);
  json results;
  try {
    if (!in) throw std::runtime_error("cannot read");
    results = json::parse(in, nullptr, false);
    if (results.is_discarded()) throw std::runtime_error("not a numagpu sweep results.json (not valid JSON)");
    if (results.value("format", "") != "numagpu-sweep-results")
      throw std::runtime_error("not a numagpu sweep results.json");
  } catch (const std::exception& e) {
    err << "numagpu: error: " << o.results << ": " << e.what() << "\n";
    return kExitBadInput;
  }
  if (results.value("study", "").empty()) {
    err << "numagpu: error: " << o.results
        << ": the sweep names no study kind, so there is nothing to plot\n";
    return kExitBadInput;
  }
  const std::string out_dir =
      o.out_dir.empty() ? fs::path(absolute(o.results)).parent_path().string() : o.out_dir;
  if (!make_output_dir(out_dir, err)) return kExitBadInput;
  out << std::flush;
  // Debian's interpreter, where python3-matplotlib installs, even when another python3 comes first on PATH.
  const std::string python = fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const std::string cmd = python + " - " + shell_quote(o.results) + " " + shell_quote(out_dir);
  FILE* pipe = ::popen(cmd.c_str(), "w");
  if (pipe == nullptr) {
    err << "numagpu: error: cannot start " << python << "\n";
    return kExitRunFailed;
  }
  std::fwrite(embedded::kPlotStudy.data(), 1, embedded::kPlotStudy.size(), pipe);
  const int status = ::pclose(pipe);
  const int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (rc != 0) {
    err << "numagpu: error: plot: python3 failed (exit " << rc
        << "); it needs python3-matplotlib (scripts/setup.sh installs it)\n";
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace numagpu
