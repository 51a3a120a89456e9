#include "cli/sweep.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/embedded_scripts.hpp"
#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "cli/sweep_results.hpp"
#include "cli/sweep_reuse.hpp"
#include "cli/sweep_runner.hpp"
#include "cli/sweep_spec.hpp"
#include "cli/sweep_tabled.hpp"
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

// 'text' in a message, on one line: control bytes as \n, \t or \xHH.
std::string printable(const std::string& text) {
  std::string shown;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') {
      shown += "\\n";
    } else if (c == '\t') {
      shown += "\\t";
    } else if (u < 0x20 || u == 0x7f) {
      char hex[5];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      shown += hex;
    } else {
      shown += c;
    }
  }
  return shown;
}

bool has_control_byte(const std::string& text) {
  return std::any_of(text.begin(), text.end(), [](char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 0x20 || u == 0x7f;
  });
}

// One argument of an "#SBATCH" line, as sbatch reads it back. sbatch splits the line at blanks, takes an
// unescaped '#' outside quotes as the start of a comment, a backslash as the escape of the next byte, and
// quotes: in older Slurm '"' toggles quoting and a '#' ends the line even when quoted; in newer ones (22.05
// here) '"' or '\'' opens a quote that only the same character closes, and an escaped blank still ends the
// argument.
// An argument holding any of those is written in double quotes with '\\', '"' and '#' escaped, which both
// read back as written. A newline cannot be written (it ends the line): callers refuse control bytes.
std::string sbatch_argument(const std::string& text) {
  if (text.find_first_of(" \"'\\#") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '\\' || c == '"' || c == '#') quoted += '\\';
    quoted += c;
  }
  return quoted + "\"";
}

// The longest --slurm-option (older sbatch read an #SBATCH argument into a BUFSIZ buffer, 8 KiB on Linux).
constexpr std::size_t kMaxSlurmOption = 1024;

// Why a --slurm-option cannot be written as an "#SBATCH" line ("" when it can).
std::string slurm_option_problem(const std::string& option) {
  if (has_control_byte(option)) return "holds a control byte (a newline, say); one option per --slurm-option";
  if (option.size() > kMaxSlurmOption) return "is longer than " + std::to_string(kMaxSlurmOption) + " bytes";
  if (option.size() < 2 || option[0] != '-')
    return "is not an sbatch option (expected one such as --qos=long)";
  return "";
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

// "0-3,7,9-10": Slurm's --array syntax for sorted indices.
std::string index_ranges(const std::vector<std::size_t>& indices) {
  std::string text;
  for (std::size_t i = 0; i < indices.size();) {
    std::size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1)
      ++j;
    text += (text.empty() ? "" : ",") + std::to_string(indices[i]);
    if (j > i) text += "-" + std::to_string(indices[j]);
    i = j + 1;
  }
  return text;
}

// Directories that are local to each machine on most clusters.
bool node_local(const std::string& path) {
  for (const char* prefix : {"/tmp/", "/var/tmp/", "/dev/shm/", "/run/"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

// The head of a Slurm script: checks that every absolute path baked into it exists where it runs.
std::string path_check(const std::string& script, const std::vector<std::string>& paths) {
  std::string text = "for path in";
  for (const std::string& p : paths)
    text += " \\\n    " + shell_quote(p);
  text +=
      "; do\n"
      "  if [[ ! -e $path ]]; then\n"
      "    echo \"" +
      script +
      ": $path: not found on $(hostname): the compute nodes must see the numagpu binary, the sweep spec, its "
      "files and the output directory at the paths of the machine that ran numagpu sweep --slurm (a shared "
      "file system)\" >&2\n"
      "    exit 2\n"
      "  fi\n"
      "done\n";
  return text;
}

int write_slurm(const SweepSpec& spec, const SweepOptions& o, const std::string& out_dir,
                const std::string& exe, std::ostream& out, std::ostream& err) {
  const fs::path dir = fs::path(absolute(out_dir)) / "slurm";
  // It goes into #SBATCH --output lines, which end at a newline, and a backslash there makes Slurm drop
  // the backslashes and expand no %A, %a or %j.
  if (has_control_byte(dir.string()) || dir.string().find('\\') != std::string::npos) {
    err << "numagpu: error: --slurm: the output directory '" << printable(absolute(out_dir))
        << "' holds a control byte or a backslash, which an #SBATCH --output line cannot carry\n";
    return kExitBadInput;
  }
  std::error_code ec;
  fs::create_directories(dir / "logs", ec);
  if (ec) {
    err << "numagpu: error: " << dir.string() << ": cannot create directory (" << ec.message() << ")\n";
    return kExitBadInput;
  }
  // Only what is still to do: a resubmission after failures or cancellations runs the missing and failed
  // points, under the indices they always have (point order of the spec).
  clean_stale_temps(out_dir, spec);
  std::vector<std::size_t> todo;
  for (const SweepPoint& p : spec.points)
    if (!point_finished(out_dir, p, nullptr, &spec.stats)) todo.push_back(p.index);
  const std::string n = std::to_string(spec.points.size());
  if (todo.empty()) {
    out << "numagpu sweep: " << spec.name << ": all " << n
        << " points are finished, nothing to submit; the results table: numagpu sweep "
        << shell_quote(o.spec_file) << " -o " << shell_quote(out_dir) << " --collect\n";
    return kExitOk;
  }

  std::vector<std::string> paths{exe, absolute(o.spec_file)};
  for (const SweepPoint& p : spec.points) {
    std::vector<std::string> files{p.config_file, p.workload_file};
    files.insert(files.end(), p.input_files.begin(), p.input_files.end());
    for (const std::string& f : files)
      if (!f.empty() && std::find(paths.begin(), paths.end(), f) == paths.end()) paths.push_back(f);
  }
  paths.push_back(absolute(out_dir));
  for (const std::string& p : paths)
    if (node_local(p))
      err << "numagpu sweep: warning: " << p
          << " is on a node-local file system on most clusters; the array tasks will not find it there\n";

  std::string resources = "#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=1\n";
  if (!spec.slurm.partition.empty()) resources += "#SBATCH --partition=" + spec.slurm.partition + "\n";
  if (!spec.slurm.account.empty()) resources += "#SBATCH --account=" + spec.slurm.account + "\n";
  std::string extra;
  for (const std::string& s : o.slurm_options)  // checked by sweep_command: one sbatch argument each
    extra += "#SBATCH " + sbatch_argument(s) + "\n";
  // sbatch expands %A, %a, %j... in --output (and %% to %): a '%' of the directory's name is doubled.
  std::string logs;
  for (const char c : (dir / "logs").string())
    logs += c == '%' ? std::string("%%") : std::string(1, c);
  auto output_line = [&logs](const std::string& file) {
    return "#SBATCH " + sbatch_argument("--output=" + logs + "/" + file) + "\n";
  };
  const std::string todo_text = std::to_string(todo.size()) + " of " + n + " points";
  std::string array =
      "#!/bin/bash\n"
      "#SBATCH --job-name=numagpu-" +
      spec.name +
      "\n"
      "#SBATCH --array=" +
      index_ranges(todo) + "\n" + resources + "#SBATCH --time=" + spec.slurm.time +
      "\n#SBATCH --mem=" + spec.slurm.memory + "\n" + output_line("%A_%a.out") + extra + "# numagpu sweep " +
      spec.name + ": one array task per point still to do (" + todo_text +
      "), written by\n"
      "# `numagpu sweep --slurm`. Submit with submit.sh (it queues collect.sbatch after the array), or run "
      "one\n"
      "# point by hand: SLURM_ARRAY_TASK_ID=3 bash array.sbatch\n"
      "# Each task writes only its own point directory, atomically, exactly as a local sweep does; a task "
      "that is\n"
      "# cancelled or runs out of time records its point as failed. Run numagpu sweep --slurm again to "
      "write an\n"
      "# array of the points still missing or failed.\n"
      "set -euo pipefail\n" +
      path_check("array.sbatch", paths) + "points=(\n";
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
      spec.name + "-collect\n" + resources +
      "#SBATCH --time=0:30:00\n"
      "#SBATCH --mem=1G\n" +
      output_line("collect_%j.out") + extra + "# Collects the results table of numagpu sweep " + spec.name +
      " once the array job is over (failed or\n"
      "# missing points are listed by id in its log and make this step exit 1; numagpu sweep --slurm then "
      "writes\n"
      "# an array of only those).\n"
      "set -euo pipefail\n" +
      path_check("collect.sbatch", paths) + "exec " + sweep_invocation(exe, o, out_dir) + " --collect\n";
  const std::string submit =
      "#!/bin/bash\n"
      "# Queues the " +
      todo_text + " still to do of numagpu sweep " + spec.name +
      " as an array job, then the collect step after it.\n"
      "set -euo pipefail\n"
      "cd \"$(dirname \"$0\")\"\n"
      "array=$(sbatch --parsable array.sbatch)\n"
      "array=${array%%;*}\n"
      "collect=$(sbatch --parsable --dependency=afterany:\"$array\" collect.sbatch)\n"
      "echo \"numagpu sweep " +
      spec.name + ": array job $array (" + todo_text + "), collect job ${collect%%;*}\"\n";
  try {
    for (const auto& [name, text] : {std::pair<const char*, const std::string&>{"array.sbatch", array},
                                     {"collect.sbatch", collect},
                                     {"submit.sh", submit}}) {
      write_file_atomically((dir / name).string(), text);
      fs::permissions(dir / name, fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                      fs::perm_options::add);
    }
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  out << "numagpu sweep: " << spec.name << ": wrote " << (dir / "array.sbatch").string() << " ("
      << todo.size() << " array tasks: " << todo_text << " still to do), "
      << (dir / "collect.sbatch").string() << ", " << (dir / "submit.sh").string() << "\nsubmit with: bash "
      << shell_quote((dir / "submit.sh").string()) << "\n";
  return kExitOk;
}

int collect_and_report(const SweepSpec& spec, const SweepOptions& o, const std::string& out_dir,
                       std::ostream& out, std::ostream& err) {
  CollectSummary s;
  try {
    s = collect_results(spec, out_dir, err);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitRunFailed;
  }
  // Name the points that are not ok (a few of each, so that a big sweep stays readable).
  constexpr std::size_t kNamed = 20;
  for (std::size_t i = 0; i < s.failures.size() && i < kNamed; ++i)
    err << "numagpu sweep: failed: " << s.failures[i].first << ": " << s.failures[i].second << "\n";
  if (s.failures.size() > kNamed)
    err << "numagpu sweep: failed: ... and " << s.failures.size() - kNamed << " more (results.csv)\n";
  if (!s.missing_ids.empty()) {
    err << "numagpu sweep: missing (never ran, or still running):";
    for (std::size_t i = 0; i < s.missing_ids.size() && i < kNamed; ++i)
      err << " " << s.missing_ids[i];
    if (s.missing_ids.size() > kNamed) err << " ... and " << s.missing_ids.size() - kNamed << " more";
    err << "\n";
  }
  if (!s.todo_indices.empty()) {
    std::string again = "numagpu sweep " + shell_quote(o.spec_file) + " -o " + shell_quote(out_dir);
    for (const std::string& set : o.sets)
      again += " --set " + shell_quote(set);
    for (const std::string& w : o.workloads)
      again += " --workloads " + shell_quote(w);
    err << "numagpu sweep: to run only the " << s.todo_indices.size()
        << " failed and missing points (array indices " << index_ranges(s.todo_indices) << "): " << again
        << ", or under Slurm: " << again << " --slurm && bash "
        << shell_quote((fs::path(absolute(out_dir)) / "slurm" / "submit.sh").string()) << "\n";
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
  for (const std::string& option : o.slurm_options) {
    const std::string problem = slurm_option_problem(option);
    if (!problem.empty()) {
      err << "numagpu: error: --slurm-option: '" << printable(option) << "' " << problem << "\n";
      return kExitBadInput;
    }
  }
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
  if (!o.reuse.empty() && (o.slurm || !o.point.empty() || o.collect_only)) {
    err << "numagpu: error: --reuse: only a local sweep reuses points (not with --slurm, --point or "
           "--collect)\n";
    return kExitBadInput;
  }
  // Reused points are chosen before anything is written, so that a conflict between sources is an error
  // that leaves the output directory as it was.
  std::map<std::string, std::string> reuse_plan;  // point id -> a finished point of another sweep
  std::map<std::string, TableRow> table_plan;     // point id -> a row of an earlier results table
  if (!o.reuse.empty()) {
    std::vector<std::string> dirs, tables;
    for (const std::string& source : o.reuse)
      (is_results_table(source) ? tables : dirs).push_back(source);
    try {
      std::vector<const SweepPoint*> todo;
      for (const SweepPoint& p : spec.points)
        if (!point_finished(out_dir, p, nullptr, &spec.stats)) todo.push_back(&p);
      if (!dirs.empty()) reuse_plan = plan_reuse(finished_points_by_hash(dirs), todo, out_dir, err);
      // A run's own outputs first; a table only for what no directory holds.
      std::vector<const SweepPoint*> rest;
      for (const SweepPoint* p : todo)
        if (!reuse_plan.count(p->id)) rest.push_back(p);
      if (!tables.empty()) table_plan = plan_tabled_points(tables, rest, spec.stats, err);
    } catch (const std::exception& e) {
      err << "numagpu: error: --reuse: " << e.what() << "\n";
      return kExitBadInput;
    }
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
    if (point_finished(out_dir, *p, nullptr, &spec.stats)) {
      out << "numagpu sweep: point " << p->id << " is already finished\n";
      return kExitOk;
    }
    clean_stale_temps(out_dir, spec);  // a killed earlier task of this point, say
    ro.total = 1;
    ro.progress = false;
    try {
      const RunnerSummary s = run_points({p}, ro, out, err);
      if (s.interrupted) return 128 + s.interrupted;
      return s.failed ? kExitRunFailed : kExitOk;
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
  clean_stale_temps(out_dir, spec);  // only those whose owners are gone (cli/sweep_runner.hpp)
  int interrupted = 0;
  if (!o.collect_only) {
    std::vector<const SweepPoint*> todo;
    for (const SweepPoint& p : spec.points)
      if (!point_finished(out_dir, p, nullptr, &spec.stats)) todo.push_back(&p);
    const std::size_t reused = reuse_finished_points(reuse_plan, todo, out_dir, err) +
                               write_tabled_points(table_plan, todo, spec.stats, out_dir, err);
    ro.total = spec.points.size();
    ro.finished_before = spec.points.size() - todo.size();
    if (!o.quiet) {
      out << "numagpu sweep: " << spec.name << ": " << spec.points.size() << " points";
      if (ro.finished_before) out << ", " << ro.finished_before << " finished before";
      if (reused) out << " (" << reused << " of them reused from --reuse)";
      out << "; running " << todo.size() << " with -j " << ro.jobs << " into " << out_dir << "\n"
          << std::flush;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      interrupted = run_points(todo, ro, out, err).interrupted;
    } catch (const std::exception& e) {
      err << "numagpu: error: " << e.what() << "\n";
      return kExitRunFailed;
    }
    if (!o.quiet && !todo.empty() && !interrupted) {
      char line[80];
      std::snprintf(line, sizeof line, "numagpu sweep: %s: ran %zu points in %.1f s\n", spec.name.c_str(),
                    todo.size(),
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
      out << line;
    }
  }
  const int rc = collect_and_report(spec, o, out_dir, out, err);
  return interrupted ? 128 + interrupted : rc;  // the table holds what finished; the exit says why it stopped
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
  std::vector<std::string> args{o.results, out_dir};
  if (!o.reference.empty()) {
    if (!std::ifstream(o.reference)) {
      err << "numagpu: error: --reference " << o.reference << ": cannot read\n";
      return kExitBadInput;
    }
    args.push_back(o.reference);
  }
  const ScriptResult r = run_python_script(embedded::kPlotStudy, args);
  if (r.exit_code != 0) {
    err << "numagpu: error: plot: " << script_failure(r, "plot_study.py") << "\n";
    return kExitRunFailed;
  }
  err << r.error_text;
  return kExitOk;
}

int plot_sweep_command(const PlotSweepOptions& o, std::ostream& out, std::ostream& err) {
  std::error_code ec;
  if (!fs::is_regular_file(o.results, ec)) {
    err << "numagpu: error: " << o.results << ": no such file (give a sweep's results.json)\n";
    return kExitBadInput;
  }
  auto file_safe = [](std::string s) {
    for (char& c : s)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') c = '_';
    return s;
  };
  const std::string output = !o.output.empty()
                                 ? o.output
                                 : (fs::path(absolute(o.results)).parent_path() /
                                    ("sweep-" + file_safe(o.y) + "-by-" + file_safe(o.x) + ".png"))
                                       .string();
  out << std::flush;
  // The script checks the columns and says in one line what is wrong (exit 2), or that matplotlib is
  // missing (exit 3).
  const ScriptResult r = run_python_script(embedded::kPlotSweep, {o.results, o.x, o.y, o.group, output});
  if (r.exit_code == 2) {  // the script said why, in one line
    err << r.error_text;
    return kExitBadInput;
  }
  if (r.exit_code != 0) {
    err << "numagpu: error: plot sweep: " << script_failure(r, "plot_sweep.py") << "\n";
    return kExitRunFailed;
  }
  err << r.error_text;
  out << "numagpu: wrote " << output << "\n";
  return kExitOk;
}

}  // namespace numagpu
