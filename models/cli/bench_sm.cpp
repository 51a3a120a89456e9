#include "cli/bench_sm.hpp"

#include <unistd.h>

#include <regex.h>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <set>
#include <sstream>
#include <stdexcept>
#include <tuple>

#include <nlohmann/json.hpp>

#include "cli/bench_sm_published.hpp"
#include "cli/bench_sm_suite.hpp"
#include "cli/embedded_scripts.hpp"
#include "cli/interrupt.hpp"
#include "cli/python_script.hpp"
#include "cli/run.hpp"
#include "cli/subprocess.hpp"
#include "config/config.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {

namespace fs = std::filesystem;

namespace {

struct Row {
  const Benchmark* bench;
  const PublishedValue* published;  // null: none
  double model = NAN;
};

std::string quoted(const std::string& s) {
  return "\"" + s + "\"";
}

std::string number(double v) {
  if (std::isnan(v)) return "";
  char b[32];
  const bool whole = std::fabs(v - std::round(v)) < 1e-9;
  std::snprintf(b, sizeof b, whole ? "%.0f" : std::fabs(v) >= 100 ? "%.1f" : "%.3g", v);
  return b;
}

// The error of `model` against `published`, in percent of the published value; NaN without both.
double error_pct(const Row& r) {
  if (!r.published || std::isnan(r.model) || r.published->value == 0) return NAN;
  return 100.0 * (r.model - r.published->value) / r.published->value;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s)
    q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string csv_text(const std::vector<Row>& rows, const std::string& config) {
  std::ostringstream o;
  o << "# numagpu bench-sm, configuration " << config << "\n";
  o << "benchmark,group,unit,model,published,error_pct,kind,source,where,page,status\n";
  for (const Row& r : rows) {
    const PublishedValue* p = r.published;
    o << r.bench->id << "," << r.bench->group << "," << csv_field(r.bench->unit) << "," << number(r.model)
      << "," << (p ? number(p->value) : "") << "," << number(error_pct(r)) << "," << (p ? p->kind : "") << ","
      << csv_field(p ? p->source : "") << "," << csv_field(p ? p->where : "") << ","
      << csv_field(p ? p->page : "") << "," << csv_field(r.bench->not_run) << "\n";
  }
  return o.str();
}

std::string md_text(const std::vector<Row>& rows, const std::string& config) {
  std::ostringstream o;
  o << "# numagpu bench-sm\n\nConfiguration: `" << config
    << "`. Published values and their sources: configs/published/volta_microbenchmarks.yaml; the method of "
       "each "
       "benchmark: docs/microbenchmarks.md. Error: (model - published) / published.\n\n";
  o << "| benchmark | unit | published | source (paper, table/figure, page) | model | error % |\n";
  o << "|---|---|---:|---|---:|---:|\n";
  for (const Row& r : rows) {
    const PublishedValue* p = r.published;
    std::string source;
    if (p) {
      source = p->source + ", " + p->where + (p->page.empty() ? "" : ", p. " + p->page);
      if (p->kind != "measured") source += " (" + p->kind + ")";
    }
    const std::string model = r.bench->not_run.empty() ? number(r.model) : r.bench->not_run;
    const double e = error_pct(r);
    o << "| " << r.bench->id << " | " << r.bench->unit << " | " << (p ? number(p->value) : "") << " | "
      << source << " | " << model << " | " << (std::isnan(e) ? "" : number(e)) << " |\n";
  }
  return o.str();
}

// The workload that runs `launches` in order, as YAML.
std::string workload_yaml(const std::vector<const BenchLaunch*>& launches) {
  std::string y = "workload:\n  name: bench-sm\n  kernels:\n";
  for (std::size_t i = 0; i < launches.size(); ++i) {
    y += "    - name: k" + std::to_string(i) + "\n      kernel: " + quoted(launches[i]->kernel) +
         "\n      args: " + quoted(launches[i]->args) + "\n";
  }
  return y;
}

// The kernels' elapsed cycles from a run's stats.json (system.runtime.kernel<N>.cycles).
std::vector<double> kernel_cycles(const fs::path& stats_json, std::size_t kernels) {
  std::ifstream in(stats_json);
  if (!in) throw std::runtime_error(stats_json.string() + ": cannot open");
  const nlohmann::json doc = nlohmann::json::parse(in);
  const nlohmann::json& runtime = doc.at("stats").at("system").at("runtime");
  std::vector<double> cycles;
  for (std::size_t i = 0; i < kernels; ++i)
    cycles.push_back(runtime.at("kernel" + std::to_string(i)).at("cycles").get<double>());
  return cycles;
}

}  // namespace

int bench_sm_command(const BenchSmOptions& o, std::ostream& out, std::ostream& err) {
  // SIGINT and SIGTERM as `run` takes them: a Ctrl-C reaches the simulation too, which stops; bench-sm then
  // writes nothing (a partial suite is no table) and exits with 128 + the signal.
  interrupt::install_handlers();
  auto bad = [&err](const std::string& what) {
    err << "numagpu: error: bench-sm: " << what << "\n";
    return kExitBadInput;
  };
  if (o.config.empty()) return bad("-c CONFIG is required (e.g. configs/gpus/qv100.yaml)");
  if (o.out_dir.empty()) return bad("-o DIR is required");
  // POSIX extended regular expressions (regex.h), not std::regex: GCC 12's <regex> does not build
  // warning-free in the sanitizer build (-O1, -Werror=maybe-uninitialized inside libstdc++'s NFA).
  const std::string pattern = o.only.empty() ? std::string(".") : o.only;
  regex_t only_re;
  if (const int rc = regcomp(&only_re, pattern.c_str(), REG_EXTENDED | REG_NOSUB)) {
    char why[256];
    regerror(rc, &only_re, why, sizeof why);
    return bad("--only '" + o.only + "': not a regular expression (" + why + ")");
  }
  struct FreeRegex {
    regex_t* r;
    ~FreeRegex() { regfree(r); }
  } free_only{&only_re};
  auto selected = [&only_re](const std::string& id) {
    return regexec(&only_re, id.c_str(), 0, nullptr, 0) == 0;
  };

  RunOptions run;
  run.config_file = o.config;
  run.sets = o.sets;
  SuiteFacts facts;
  bool scheduler_key = false;
  try {
    const config::Config cfg = load_configuration(run);
    facts.sockets = unsigned(cfg.integer("system.sockets"));
    facts.sms = unsigned(cfg.integer("sm.per_socket")) * facts.sockets;
    facts.clock_mhz = unsigned(cfg.integer("system.clock_mhz"));
    facts.dram_gbps = double(cfg.integer("dram.bandwidth_gbps"));
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  try {
    RunOptions probe = run;
    probe.sets.push_back(std::string(kSchedulerKey) + "=" + kGreedyThenOldest);
    load_configuration(probe);
    scheduler_key = true;
  } catch (const config::ConfigError&) {
    scheduler_key = false;  // the scheduler benchmark is listed as pending
  }
  const BenchSuite suite = volta_suite(facts, scheduler_key);
  std::set<std::string> ids;
  for (const Benchmark& b : suite.benchmarks)
    ids.insert(b.id);
  std::map<std::string, PublishedValue> published;
  try {
    published =
        load_published(o.published.empty() ? builtin_published_layer() : config::Layer{o.published, {}}, ids);
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  std::vector<Row> rows;
  for (const Benchmark& b : suite.benchmarks) {
    if (!selected(b.id)) continue;
    const auto p = published.find(b.id);
    if (p != published.end() && p->second.unit != b.unit)
      return bad("published value of " + b.id + " is in '" + p->second.unit + "', the benchmark measures '" +
                 b.unit + "'");
    rows.push_back({&b, p == published.end() ? nullptr : &p->second});
  }
  if (rows.empty())
    return bad("--only '" + o.only + "' matches no benchmark (docs/microbenchmarks.md lists them)");

  // The output directory and a staging directory in it: the outputs move in together at the end.
  const fs::path dir(o.out_dir);
  std::error_code ec;
  const bool existed = fs::exists(dir, ec);
  fs::create_directories(dir, ec);
  if (ec) return bad(o.out_dir + ": cannot create output directory (" + ec.message() + ")");
  const fs::path stage = dir / (".numagpu-staging." + std::to_string(::getpid()));
  fs::remove_all(stage, ec);
  if (!fs::create_directory(stage, ec) || ec) {
    if (!existed) fs::remove(dir, ec);
    return bad(o.out_dir + ": cannot write output files there");
  }
  struct Cleanup {
    fs::path stage, dir;
    bool remove_dir;
    ~Cleanup() {
      std::error_code ignored;
      fs::remove_all(stage, ignored);
      if (remove_dir) fs::remove(dir, ignored);  // only when still empty
    }
  } cleanup{stage, dir, !existed};

  // One `numagpu run` per configuration variant, its launches in order.
  // A launch two benchmarks share (the same kernel, arguments and variant) runs once.
  using LaunchKey = std::tuple<std::string, std::string, std::string>;
  auto key = [](const BenchLaunch& l) { return LaunchKey{l.variant, l.kernel, l.args}; };
  std::map<std::string, std::vector<const BenchLaunch*>> by_variant;
  std::set<LaunchKey> planned;
  for (const Row& r : rows)
    for (const BenchLaunch& l : r.bench->launches)
      if (planned.insert(key(l)).second) by_variant[l.variant].push_back(&l);
  std::map<LaunchKey, double> cycles;
  for (const auto& [variant, launches] : by_variant) {
    const fs::path run_dir = stage / "runs" / (variant.empty() ? "config" : variant);
    fs::create_directories(run_dir, ec);
    write_file_atomically((run_dir / "workload.yaml").string(), workload_yaml(launches));
    subprocess::Command child;
    child.program = "/proc/self/exe";  // this numagpu
    child.argv = {"numagpu", "run", "-q", "-c", fs::absolute(o.config).string()};
    std::vector<std::string> sets = o.sets;
    for (const BenchVariant& v : suite.variants)
      if (v.name == variant) sets.insert(sets.end(), v.sets.begin(), v.sets.end());
    for (const std::string& s : sets)
      child.argv.insert(child.argv.end(), {"--set", s});
    child.argv.insert(child.argv.end(),
                      {"-w", (run_dir / "workload.yaml").string(), "-o", (run_dir / "out").string()});
    child.out = subprocess::Stream::kPipe;
    child.err = subprocess::Stream::kPipe;
    if (!o.quiet)
      out << "bench-sm: running " << launches.size() << " kernels"
          << (variant.empty() ? "" : " (" + variant + ")") << "\n"
          << std::flush;
    subprocess::Output r;
    try {
      r = subprocess::run(child);
    } catch (const subprocess::SpawnError& e) {
      err << "numagpu: error: bench-sm: " << e.what() << "; nothing written\n";
      return kExitRunFailed;
    }
    if (const int signal_number = interrupt::pending()) {
      err << "numagpu: bench-sm interrupted by " << (signal_number == SIGINT ? "SIGINT" : "SIGTERM")
          << "; nothing written\n";
      return interrupt::exit_status(signal_number);
    }
    if (!r.status.ok()) {
      std::string first = r.err.substr(0, r.err.find('\n'));
      err << "numagpu: error: bench-sm: the simulation failed (" << r.status.text() << ")"
          << (first.empty() ? "" : ": " + first) << "; nothing written\n";
      return r.status.code == kExitBadInput ? kExitBadInput : kExitRunFailed;
    }
    try {
      const std::vector<double> c = kernel_cycles(run_dir / "out" / "stats.json", launches.size());
      for (std::size_t i = 0; i < launches.size(); ++i)
        cycles[key(*launches[i])] = c[i];
    } catch (const std::exception& e) {
      err << "numagpu: error: bench-sm: reading the run's statistics: " << e.what() << "; nothing written\n";
      return kExitRunFailed;
    }
  }
  for (Row& r : rows) {
    if (!r.bench->not_run.empty() || !r.bench->value) continue;
    std::vector<double> c;
    for (const BenchLaunch& l : r.bench->launches)
      c.push_back(cycles.at(key(l)));
    r.model = r.bench->value(c);
  }

  const std::string config_name = o.config;
  try {
    write_file_atomically((stage / "bench_sm.csv").string(), csv_text(rows, config_name));
    write_file_atomically((stage / "bench_sm.md").string(), md_text(rows, config_name));
  } catch (const std::exception& e) {
    return bad(e.what());
  }
  const ScriptResult plot =
      run_python_script(embedded::kPlotBenchSm, {(stage / "bench_sm.csv").string(), stage.string()}, false);
  const bool plotted = plot.exit_code == 0;
  if (!plotted) fs::remove(stage / "bench_sm.png", ec);  // all figures or none
  // The table last: an interrupted move leaves no report of a mixed set; a signal now is taken after.
  const interrupt::DeferSignals held;
  for (const char* name : {"bench_sm.csv", "bench_sm.png", "bench_sm.md"}) {
    if (!fs::exists(stage / name)) continue;
    if (std::rename((stage / name).c_str(), (dir / name).c_str()) != 0)
      return bad((dir / name).string() + ": cannot write (" + std::strerror(errno) + ")");
  }
  cleanup.remove_dir = false;

  if (!o.quiet) {
    out << "  benchmark                         unit               published      model    error %\n";
    for (const Row& r : rows) {
      char line[256];
      const double e = error_pct(r);
      std::snprintf(line, sizeof line, "  %-32s  %-17s  %9s  %9s  %9s\n", r.bench->id.c_str(),
                    r.bench->unit.c_str(), r.published ? number(r.published->value).c_str() : "",
                    r.bench->not_run.empty() ? number(r.model).c_str() : "-", number(e).c_str());
      out << line;
    }
    out << "outputs     " << (dir / "bench_sm.csv").string() << ", bench_sm.md"
        << (plotted ? ", bench_sm.png" : "") << "\n";
  }
  if (!plotted) {
    err << "numagpu: error: bench-sm: plotting failed, no figure written: "
        << script_failure(plot, "plot_bench_sm.py") << "\n";
    return kExitRunFailed;
  }
  err << plot.error_text;
  return kExitOk;
}

}  // namespace numagpu
