#include "cli/correlate.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <utility>
#include <vector>

#include "cli/correlate_counters.hpp"
#include "cli/correlate_power.hpp"
#include "cli/embedded_scripts.hpp"
#include "cli/hw_csv.hpp"
#include "cli/interrupt.hpp"
#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "cli/study_kernels.hpp"
#include "cli/subprocess.hpp"
#include "config/config.hpp"
#include "stats/atomic_write.hpp"
#include "system/system_config.hpp"

namespace numagpu {

namespace fs = std::filesystem;

namespace {

std::string file_safe(const std::string& s) {
  std::string r;
  for (char c : s)
    r += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return r.substr(0, 60);
}

std::string yaml_quote(const std::string& s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') r += '\\';
    r += c;
  }
  return r + "\"";
}

// A `numagpu run` command line, and the kernels its CUDA program simulates (NUMAGPU_SIMULATE; empty: a
// library kernel's run, which has no program).
struct RunCommand {
  std::vector<std::string> argv;
  std::string simulate;
  std::string out_file;  // where the child's standard output goes (a program's own lines); empty: correlate's
};

// Runs `numagpu run` for each command line, at most `jobs` at once; returns each one's exit status (128 + the
// signal for one that a signal ended; -1 for one not started because correlate was interrupted: a run already
// going stops on the same Ctrl-C, keeping its statistics so far).
std::vector<int> run_children(const std::vector<RunCommand>& commands, unsigned jobs) {
  std::vector<int> status(commands.size(), -1);
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0;
  while ((next < commands.size() && interrupt::pending() == 0) || !running.empty()) {
    while (next < commands.size() && running.size() < std::max(1u, jobs) && interrupt::pending() == 0) {
      subprocess::Command run;
      run.argv = commands[next].argv;
      run.program = "/proc/self/exe";  // this numagpu, whatever its argv[0]
      if (!commands[next].out_file.empty()) {
        run.out = subprocess::Stream::kFile;
        run.out_file = commands[next].out_file;
      }
      // The child inherits the environment at its start: correlate is single-threaded, so setting it here
      // gives each child its own.
      if (commands[next].simulate.empty())
        ::unsetenv("NUMAGPU_SIMULATE");
      else
        ::setenv("NUMAGPU_SIMULATE", commands[next].simulate.c_str(), 1);
      try {
        const pid_t pid = subprocess::start(run);
        running[pid] = next;
      } catch (const subprocess::SpawnError&) {
        status[next] = 127;  // as a shell says a program it could not start
      }
      ++next;
    }
    std::optional<std::pair<pid_t, subprocess::ExitStatus>> done;
    try {
      done = subprocess::wait_any(/*block=*/true);
    } catch (const std::system_error&) {
      break;  // no child left to wait for
    }
    if (!done) continue;  // a signal: look at the flag
    const auto it = running.find(done->first);
    if (it == running.end()) continue;
    status[it->second] = done->second.shell_code();
    running.erase(it);
  }
  return status;
}

// A kernel's run directory, `parent/NAME`: NAME made safe for a file system and unique among `used` (rows
// whose names differ only in unsafe characters, or after their first 60, get directories of their own).
fs::path run_dir_name(const std::string& parent, const std::string& name, std::set<std::string>& used) {
  const std::string base = file_safe(name);
  std::string candidate = base;
  for (unsigned n = 2; !used.insert(candidate).second; ++n)
    candidate = base + "_" + std::to_string(n);
  return fs::path(parent) / candidate;
}

// The workload file that runs `k` once per launch, and the `numagpu run` command for it.
RunCommand kernel_run(const CorrelateOptions& o, const std::string& workload_name,
                      const std::string& kernel_name, const StudyKernel& k, const fs::path& run_dir) {
  fs::create_directories(run_dir);
  std::string yaml = "workload:\n  name: " + yaml_quote(workload_name) + "\n  kernels:\n";
  for (unsigned i = 0; i < k.launches; ++i) {
    yaml += "    - name: " + yaml_quote(kernel_name + (k.launches > 1 ? "_" + std::to_string(i) : "")) +
            "\n      kernel: " + yaml_quote(k.library_name) + "\n      args: " + yaml_quote(k.args) + "\n";
  }
  write_file_atomically((run_dir / "workload.yaml").string(), yaml);
  std::vector<std::string> cmd = {"numagpu", "run", "-q"};
  if (!o.config.empty()) cmd.insert(cmd.end(), {"-c", fs::absolute(o.config).string()});
  cmd.insert(cmd.end(), {"-w", (run_dir / "workload.yaml").string(), "-o", (run_dir / "out").string()});
  return {cmd, "", ""};
}

// The CUDA version of a kernel's run (correlate --cuda): `numagpu run --cuda PROGRAM -- ARGS` simulating the
// one kernel, the command written to the run's cuda.txt (what makes the folder correlate's, as workload.yaml
// does a library kernel's run).
// `stage` and `dir`: the staging and the final output folder, for the paths cuda.txt names.
RunCommand cuda_kernel_run(const CorrelateOptions& o, const StudyKernel& k, const fs::path& program,
                           const fs::path& run_dir, const fs::path& stage, const fs::path& dir) {
  fs::create_directories(run_dir);
  RunCommand run{{"numagpu", "run", "-q"}, k.cuda->kernel, (run_dir / "stdout.txt").string()};
  if (!o.config.empty()) run.argv.insert(run.argv.end(), {"-c", fs::absolute(o.config).string()});
  run.argv.insert(run.argv.end(), {"-o", (run_dir / "out").string(), "--cuda", program.string(), "--"});
  const std::vector<std::string> args = cuda_program_args(k);
  run.argv.insert(run.argv.end(), args.begin(), args.end());
  std::string text = "NUMAGPU_SIMULATE=" + run.simulate;
  for (std::string a : run.argv) {
    if (a.rfind(stage.string(), 0) == 0) a = dir.string() + a.substr(stage.string().size());
    text += " " + a;
  }
  write_file_atomically((run_dir / "cuda.txt").string(), text + "\n");
  return run;
}

// The source folder of the CUDA programs and numagpu-cc (beside this numagpu program).
fs::path cuda_examples_dir() {
  return NUMAGPU_CUDA_EXAMPLES_DIR;
}
fs::path numagpu_cc() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path("numagpu-cc") : self.parent_path() / "numagpu-cc";
}

// Builds examples/cuda/PROGRAM.cu into `out` with numagpu-cc; throws std::runtime_error, one line.
void build_cuda_program(const std::string& program, const fs::path& out) {
  const fs::path source = cuda_examples_dir() / (program + ".cu");
  if (!fs::is_regular_file(source))
    throw std::runtime_error("--cuda: " + source.string() + ": no such file (the map's cuda.program)");
  subprocess::Command cc;
  cc.argv = {numagpu_cc().string(), "-O2", source.string(), "-o", out.string()};
  cc.out = subprocess::Stream::kPipe;
  cc.err = subprocess::Stream::kPipe;
  subprocess::Output r;
  try {
    r = subprocess::run(cc);
  } catch (const subprocess::SpawnError& e) {
    throw std::runtime_error(std::string("--cuda: ") + e.what() +
                             " (numagpu-cc is beside the numagpu program)");
  }
  if (!r.status.ok()) {
    std::string first = r.err.empty() ? r.out : r.err;
    first = first.substr(0, first.find('\n'));
    throw std::runtime_error("--cuda: building " + source.string() + " failed (" + r.status.text() +
                             (first.empty() ? "" : "): " + first) + (first.empty() ? ")" : ""));
  }
}

// What `numagpu run` checks before it simulates, for the configuration and workload of a kernel's run: throws
// config::ConfigError, the one line `run` would print. Done for every run before any starts, so that a bad
// configuration writes nothing. No workload: a CUDA program's run (its launches are the program's).
void check_run_configuration(const CorrelateOptions& o, const std::optional<fs::path>& workload) {
  RunOptions run;
  if (!o.config.empty()) run.config_file = o.config;
  if (workload) run.workload_file = workload->string();
  const config::Config loaded = load_configuration(run);
  const SystemSpec spec = to_system_spec(loaded);
  if (!spec.external.empty()) {
    loaded.fail(spec.external.front().key,
                "external port '" + spec.external.front().name +
                    "' would stay unbound: the numagpu program binds no host component (docs/tlm-edges.md)");
  }
}

// Runs one of the embedded plot scripts with `args` (cli/python_script.hpp: no shell, its standard output
// discarded). Returns "" when it succeeded, else what went wrong in one line: the script's own error and
// where in the script it was raised, or that matplotlib is missing only when its import failed.
std::string run_plot(std::string_view script, const std::string& name, const std::vector<std::string>& args) {
  const ScriptResult r = run_python_script(script, args, /*keep_stdout=*/false);
  return r.exit_code == 0 ? std::string() : script_failure(r, name);
}

// correlate's outputs (docs/correlation.md): staged in a private directory inside the output directory and
// moved into place together at the end. A commit first removes everything an earlier correlate left there
// (the names below), so that no figure or table of another run stays beside this one's; other files are left
// alone. The report (*.md) is moved in last: an interrupted commit leaves no report of a mixed set.
class Staging {
 public:
  explicit Staging(fs::path dir) : dir_(std::move(dir)) {}
  ~Staging() { abandon(); }
  Staging(const Staging&) = delete;
  Staging& operator=(const Staging&) = delete;

  // Creates the output directory when missing and the staging directory in it; throws one line.
  void create() {
    std::error_code ec;
    const bool existed = fs::exists(dir_, ec);
    fs::create_directories(dir_, ec);
    if (ec)
      throw std::runtime_error(dir_.string() + ": cannot create output directory (" + ec.message() + ")");
    created_dir_ = !existed;
    // A commit replaces runs/ and power_runs/ whole: only when they are correlate's (each entry a kernel's
    // directory with its workload.yaml), never a folder of the user's that happens to have the name.
    for (const char* runs : {"runs", "power_runs"}) {
      if (!fs::exists(dir_ / runs)) continue;
      bool ours = fs::is_directory(dir_ / runs);
      for (const auto& entry : fs::directory_iterator(dir_ / runs, ec))
        ours = ours && (fs::is_regular_file(entry.path() / "workload.yaml") ||
                        fs::is_regular_file(entry.path() / "cuda.txt"));
      if (!ours || ec) {
        throw std::runtime_error(
            (dir_ / runs).string() +
            ": not an earlier correlate's runs, which correlate replaces; nothing written "
            "(choose another -o)");
      }
    }
    // A staging directory of a correlate that is no longer alive (killed, or ended by a second Ctrl-C):
    // removed. One of a live process never is.
    for (const auto& entry : fs::directory_iterator(dir_, ec)) {
      const std::string name = entry.path().filename().string(), prefix = ".numagpu-staging.";
      if (name.rfind(prefix, 0) != 0 || name.size() == prefix.size() ||
          name.find_first_not_of("0123456789", prefix.size()) != std::string::npos ||
          name.size() > prefix.size() + 9)
        continue;
      const pid_t owner = static_cast<pid_t>(std::stol(name.substr(prefix.size())));
      if (owner != ::getpid() && ::kill(owner, 0) != 0 && errno == ESRCH) fs::remove_all(entry.path(), ec);
    }
    const fs::path candidate = dir_ / (".numagpu-staging." + std::to_string(::getpid()));
    fs::remove_all(candidate, ec);  // this process's own, of an earlier set (tests run several)
    if (::mkdir(candidate.c_str(), 0777) != 0) {
      const std::string why = std::strerror(errno);
      abandon();
      throw std::runtime_error(dir_.string() + ": cannot write output files there (" + why +
                               "); found before running, nothing written");
    }
    staging_ = candidate;
  }
  const fs::path& path() const { return staging_; }
  const fs::path& dir() const { return dir_; }

  static bool owned(const std::string& name) {
    static const std::set<std::string> fixed = {"correlation.csv",
                                                "correlation.md",
                                                "power_correlation.csv",
                                                "power_breakdown.csv",
                                                "power_correlation.md",
                                                "power_correlation.png",
                                                "power_breakdown.png",
                                                "runs",
                                                "power_runs"};
    return fixed.count(name) ||
           (name.rfind("correlation_", 0) == 0 && name.size() > 16 && name.substr(name.size() - 4) == ".png");
  }

  // Removes the staged figures (a plot failed: all figures or none).
  void drop_figures() {
    for (const auto& entry : fs::directory_iterator(staging_)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 4 && name.substr(name.size() - 4) == ".png") fs::remove(entry.path());
    }
  }

  void commit() {
    const interrupt::DeferSignals held;  // the set is moved in whole; a signal now is taken after
    std::vector<std::string> staged, reports;
    for (const auto& entry : fs::directory_iterator(staging_)) {
      const std::string name = entry.path().filename().string();
      (name.size() > 3 && name.substr(name.size() - 3) == ".md" ? reports : staged).push_back(name);
    }
    std::vector<fs::path> old;
    for (const auto& entry : fs::directory_iterator(dir_))
      if (owned(entry.path().filename().string())) old.push_back(entry.path());
    std::sort(old.begin(), old.end(), [](const fs::path& a, const fs::path& b) {
      return (a.extension() == ".md") > (b.extension() == ".md");  // the old reports go first
    });
    for (const fs::path& p : old)
      fs::remove_all(p);
    std::sort(staged.begin(), staged.end());
    std::sort(reports.begin(), reports.end());
    staged.insert(staged.end(), reports.begin(), reports.end());
    for (const std::string& name : staged) {
      if (::rename((staging_ / name).c_str(), (dir_ / name).c_str()) != 0)
        throw WriteError((dir_ / name).string(), errno);
    }
    ::rmdir(staging_.c_str());
    staging_.clear();
    committed_ = true;
  }

  void abandon() {
    std::error_code ignored;
    if (!staging_.empty()) fs::remove_all(staging_, ignored);
    staging_.clear();
    if (!committed_ && created_dir_) fs::remove(dir_, ignored);  // only when still empty
    created_dir_ = false;
  }

 private:
  fs::path dir_, staging_;
  bool created_dir_ = false, committed_ = false;
};

}  // namespace

int correlate_command(const CorrelateOptions& o, std::ostream& out, std::ostream& err) {
  // SIGINT and SIGTERM, as `run` takes them: the first stops starting runs (a Ctrl-C reaches the runs in
  // progress too, which stop keeping their statistics so far; a signal to correlate alone lets them finish),
  // and the results so far are written as a complete set; a second one ends correlate at once.
  interrupt::install_handlers();
  if (o.hw_csv.empty() && o.power_csv.empty()) {
    err << "numagpu: error: correlate: give --hw (counters), --power (measured power) or both\n";
    return kExitBadInput;
  }
  if (!o.config.empty() && !fs::is_regular_file(o.config)) {
    err << "numagpu: error: --config " << o.config << ": no such file\n";
    return kExitBadInput;
  }
  // Bad input writes nothing: the tables are read, and the configuration of every run checked as `run`
  // checks it, before anything runs or appears in the output directory.
  std::vector<HwPowerRow> power_rows;
  std::vector<HwRow> rows;
  try {
    if (!o.power_csv.empty()) power_rows = read_hw_power_csv(o.power_csv);
    if (!o.hw_csv.empty()) rows = read_hw_csv(o.hw_csv);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  Staging staging(fs::absolute(o.out_dir));
  try {
    staging.create();
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  const fs::path& stage = staging.path();
  const fs::path& dir = staging.dir();

  std::vector<PowerJob> power_jobs;
  std::vector<CounterJob> counter_jobs;
  std::vector<const HwPowerRow*> power_unmatched;
  std::vector<const HwRow*> unmatched, no_cuda;
  std::vector<RunCommand> commands;
  try {
    std::set<std::string> used;
    std::map<std::string, fs::path> programs;  // --cuda: each program's build
    for (const HwPowerRow& row : power_rows) {
      const std::optional<StudyKernel> k = power_study_kernel(row.name);
      if (!k) {
        power_unmatched.push_back(&row);
        continue;
      }
      const fs::path run_dir = run_dir_name("power_runs", row.name, used);
      commands.push_back(kernel_run(o, row.name, row.name, *k, stage / run_dir));
      power_jobs.push_back({&row, k->library_name, k->args, run_dir});
    }
    used.clear();
    for (const HwRow& row : rows) {
      const std::optional<StudyKernel> k = study_kernel(row.benchmark, row.kernel);
      if (!k) {
        unmatched.push_back(&row);
        continue;
      }
      if (o.cuda && !k->cuda) {
        no_cuda.push_back(&row);
        continue;
      }
      const fs::path run_dir = run_dir_name("runs", row.benchmark + "__" + function_name(row.kernel), used);
      if (o.cuda) {
        // Each program built once, into the run folder of its first kernel.
        auto built = programs.find(k->cuda->program);
        if (built == programs.end()) {
          fs::create_directories(stage / run_dir);
          built = programs.emplace(k->cuda->program, stage / run_dir / k->cuda->program).first;
          build_cuda_program(k->cuda->program, built->second);
        }
        commands.push_back(cuda_kernel_run(o, *k, built->second, stage / run_dir, stage, dir));
      } else {
        commands.push_back(kernel_run(o, row.benchmark, function_name(row.kernel), *k, stage / run_dir));
      }
      counter_jobs.push_back({&row, *k, run_dir});
    }
    if (o.cuda && !counter_jobs.empty()) check_run_configuration(o, std::nullopt);
    // Every run's configuration, each library kernel's once (its workload differs only in names).
    std::set<std::string> checked;
    for (const PowerJob& j : power_jobs)
      if (checked.insert(j.library_name + " " + j.args).second)
        check_run_configuration(o, stage / j.run_dir / "workload.yaml");
    for (const CounterJob& j : counter_jobs)
      if (!o.cuda && checked.insert(j.kernel.library_name + " " + j.kernel.args).second)
        check_run_configuration(o, stage / j.run_dir / "workload.yaml");
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;  // the staging directory goes with `staging`
  } catch (const std::exception& e) {
    err << "numagpu: error: correlate: " << e.what() << "\n";
    return kExitBadInput;
  }

  if (!o.quiet) {
    if (!o.power_csv.empty()) {
      out << "numagpu correlate --power: " << power_jobs.size() << " of " << power_rows.size()
          << " kernels are in the library; running " << power_jobs.size() << " simulation(s), "
          << std::max(1u, o.jobs) << " at a time\n";
    }
    if (!o.hw_csv.empty()) {
      out << "numagpu correlate: " << counter_jobs.size() << " of " << rows.size()
          << (o.cuda ? " kernels have a CUDA version" : " kernels are in the library") << "; running "
          << counter_jobs.size() << " simulation(s), " << std::max(1u, o.jobs) << " at a time\n";
    }
  }
  out << std::flush;
  const std::vector<int> status = run_children(commands, o.jobs);
  const std::vector<int> power_status(status.begin(), status.begin() + long(power_jobs.size()));
  const std::vector<int> counter_status(status.begin() + long(power_jobs.size()), status.end());

  int failures = 0;
  std::string plot_error;
  std::vector<std::string> wrote;
  ReportPart power, counters;
  try {
    if (!o.power_csv.empty()) {
      power = power_report(o, power_jobs, power_status, power_unmatched, rows, stage, dir, err);
      failures += power.failures;
      plot_error = run_plot(embedded::kPlotPowerCorrelation, "plot_power_correlation.py",
                            {(stage / "power_correlation.csv").string(),
                             (stage / "power_breakdown.csv").string(), stage.string()});
      if (!plot_error.empty()) plot_error = "plot_power_correlation.py: " + plot_error;
    }
    if (!o.hw_csv.empty()) {
      counters = counters_report(o, counter_jobs, counter_status, unmatched, no_cuda, stage, dir, err);
      failures += counters.failures;
      // The scatter plots (python3-matplotlib), as `numagpu plot` draws its figures.
      if (plot_error.empty()) {
        plot_error = run_plot(embedded::kPlotCorrelation, "plot_correlation.py",
                              {(stage / "correlation.csv").string(), stage.string()});
        if (!plot_error.empty()) plot_error = "plot_correlation.py: " + plot_error;
      }
    }
    if (!plot_error.empty()) staging.drop_figures();  // all figures or none
    staging.commit();
  } catch (const std::exception& e) {
    err << "numagpu: error: correlate: " << e.what() << "\n";
    return kExitRunFailed;
  }
  const bool plotted = plot_error.empty();
  if (!o.power_csv.empty()) {
    if (!o.quiet) out << power.md.substr(power.md.find("Kernels:"));
    out << "numagpu: wrote " << (dir / "power_correlation.csv").string()
        << ", power_breakdown.csv, power_correlation.md"
        << (plotted ? ", power_correlation.png, power_breakdown.png" : "") << "\n";
  }
  if (!o.hw_csv.empty()) {
    if (!o.quiet) out << counters.md.substr(counters.md.find("## Per counter"));  // in full
    out << "numagpu: wrote " << (dir / "correlation.csv").string() << ", correlation.md"
        << (plotted ? ", correlation_*.png" : "") << "\n";
  }
  if (!plotted)
    err << "numagpu: error: correlate: plotting failed, no figure written: " << plot_error << "\n";
  if (const int signal_number = interrupt::pending()) {
    err << "numagpu: correlate interrupted by " << (signal_number == SIGINT ? "SIGINT" : "SIGTERM")
        << "; the results so far are written, the runs not finished listed as failed\n";
    return interrupt::exit_status(signal_number);
  }
  return failures || !plotted ? kExitRunFailed : kExitOk;
}

}  // namespace numagpu
