#include "cli/run.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/bench_report.hpp"
#include "cli/interrupt.hpp"
#include "cli/power_outputs.hpp"
#include "cli/progress.hpp"
#include "cli/summary.hpp"
#include "common/health.hpp"
#include "common/printable.hpp"
#include "config/config.hpp"
#include "config/emit_yaml.hpp"
#include "fabric/lane_vcd.hpp"
#include "kernels/cpp_program.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"
#include "stats/document.hpp"
#include "stats/output_set.hpp"
#include "system/activity_recorder.hpp"
#include "system/configuration.hpp"
#include "system/system.hpp"
#include "system/system_config.hpp"
#include "trace/trace.hpp"
#include "workload/program.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

namespace {

// How often (simulated cycles) a run looks whether it was asked to stop: a Ctrl-C takes effect within this
// many cycles, and a run costs one event per window for it.
constexpr Cycles kInterruptCheckCycles = 2000;

const char* signal_name(int signal_number) {
  switch (signal_number) {
    case SIGINT:
      return "SIGINT";
    case SIGTERM:
      return "SIGTERM";
    default:
      return "a signal";
  }
}

// Every file a run may write into its directory: a rerun into the same directory replaces the whole set.
const std::vector<std::string> kRunOutputs = {"stats.json",    "stats.txt",  "config.yaml", "lanes.vcd",
                                              "activity.json", "power.json", "bench.json"};

// The names a run into `dir` owns: the fixed set, this run's RTL waveforms (rtl.waves), and every
// rtl_*.vcd already in `dir`, so that a rerun without waveforms, or with other blocks, leaves none behind.
std::vector<std::string> run_outputs(const std::string& dir, const System& system) {
  std::vector<std::string> owned = kRunOutputs;
  for (const auto& [file, text] : system.rtl_waves().files())
    owned.push_back(file);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("rtl_", 0) == 0 && name.size() > 8 && name.compare(name.size() - 4, 4, ".vcd") == 0 &&
        std::find(owned.begin(), owned.end(), name) == owned.end())
      owned.push_back(name);
  }
  return owned;
}

// The workload item whose kernel a program of that name runs: a library kernel's program is named after
// its item, an application's launches "<item>/<launch>". -1 when none is.
long item_of_program(const SystemSpec& spec, const std::string& program) {
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    const std::string& n = spec.kernels[i].name;
    if (program == n ||
        (program.size() > n.size() && program.compare(0, n.size(), n) == 0 && program[n.size()] == '/'))
      return static_cast<long>(i);
  }
  return -1;
}

// A CTA's record passed checks.max_record_bytes: one line at the item's arguments (file:line:col when the
// configuration says where they were written).
void report_record_limit(const config::Config& cfg, const SystemSpec& spec,
                         const kernels::RecordLimitExceeded& e, std::ostream& err) {
  const long item = item_of_program(spec, e.program);
  if (item < 0) {
    err << "numagpu: error: " << printable(e.message()) << "\n";
    return;
  }
  const KernelSpec& k = spec.kernels[static_cast<std::size_t>(item)];
  const std::string what =
      (k.app.empty() ? "kernel " + k.kernel : "application " + k.app + ", kernel '" + e.program + "',") +
      " with args \"" + k.args + "\": " + e.detail() + "; smaller arguments fit, or a larger limit";
  try {
    cfg.fail("workload.kernels." + std::to_string(item) + ".args", what);
  } catch (const config::ConfigError& located) {
    err << "numagpu: error: " << printable(located.what()) << "\n";
  }
}

}  // namespace

// Creates the output directory, or says in one line why it cannot.
bool make_output_dir(const std::string& dir, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return true;
  err << "numagpu: error: " << dir << ": cannot create output directory (" << ec.message() << ")\n";
  return false;
}

// The layers of system/configuration.hpp, which embedders load with too.
config::Config load_configuration(const RunOptions& o) {
  ConfigLayers layers;
  layers.system_file = o.config_file;
  layers.workload_file = o.workload_file;
  layers.workload_yaml = o.workload_yaml;
  layers.sets = o.sets;
  return load_configuration(layers);
}

int config_dump_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  try {
    const config::Config loaded = load_configuration(options);
    (void)to_system_spec(loaded);  // cross-field checks too: a dump is a statement that the config is valid
    const config::Config cfg = as_run_configuration(loaded);  // replayable from wherever it is written
    out << "# numagpu " << NUMAGPU_VERSION << " resolved configuration, hash " << cfg.hash() << "\n"
        << cfg.dump_yaml();
    return kExitOk;
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
}

int workload_dump_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  SystemSpec spec;
  std::optional<config::Config> loaded;
  try {
    loaded.emplace(load_configuration(options));
    spec = to_system_spec(*loaded);
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  // Names are data: any string (quotes, newlines, `&`, `null`, control and non-ASCII characters) must load
  // back unchanged, so workload.yaml is written by an emitter (config/emit_yaml.hpp), never pasted together,
  // and before anything else: a name it cannot write fails the dump before a file is made.
  for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
    if (!spec.kernels[i].host_program()) continue;
    err << "numagpu: error: workload.kernels." << i << (spec.kernels[i].cuda.empty() ? ".app" : ".cuda")
        << ": an application's kernels are launched by its host program as the run goes; workload dump "
        << "writes fixed kernels only\n";
    return kExitBadInput;
  }
  std::vector<std::string> files;
  std::string yaml;
  try {
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
      const KernelSpec& k = spec.kernels[i];
      // The file is named by the index (unique) and the name's first 64 bytes, made safe for any file
      // system; the name itself is in workload.yaml.
      constexpr std::size_t kNameInFile = 64;
      std::string file = "kernel-" + std::to_string(i) + "-";
      for (std::size_t c = 0; c < k.name.size() && c < kNameInFile; ++c)
        file += std::isalnum(static_cast<unsigned char>(k.name[c])) ? k.name[c] : '_';
      file += ".ngt";
      files.push_back(file);
      kernels.push_back(nlohmann::ordered_json{{"name", k.name}, {"trace", file}});
    }
    const nlohmann::ordered_json document = {
        {"workload", nlohmann::ordered_json{{"name", spec.workload_name}, {"kernels", kernels}}}};
    yaml = "# Written by numagpu workload dump: replays the dumped kernels.\n" + config::emit_yaml(document);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  // All or nothing: the traces and workload.yaml are written aside and moved in together, workload.yaml last.
  OutputSet outputs(options.out_dir, {}, "workload.yaml");
  // The CTAs are recorded one at a time, each under checks.max_record_bytes as in a run.
  auto bounds = std::make_shared<kernels::RecordBounds>();
  bounds->limit = spec.max_record_bytes;
  try {
    outputs.probe();
    for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
      const KernelSpec& k = spec.kernels[i];
      std::unique_ptr<KernelProgram> program;
      if (!k.kernel.empty()) {  // a library kernel: its steps as the SM would take them
        auto cpp = std::make_unique<kernels::CppKernelProgram>(
            k.name, kernels::make_kernel(k.kernel, k.args, k.base_address), spec.facts.line_bytes);
        cpp->bound_by(bounds);
        program = std::move(cpp);
      } else if (k.trace_path.empty()) {
        program = std::make_unique<SyntheticProgram>(k, spec.facts.line_bytes);
      } else {
        program = load_trace_program(k.trace_path, spec.facts.line_bytes, nullptr);
      }
      dump_program(*program, static_cast<std::uint32_t>(i), spec.facts.line_bytes, outputs.staged(files[i]));
    }
    outputs.add("workload.yaml", yaml);
    outputs.commit();
  } catch (const kernels::RecordLimitExceeded& e) {
    outputs.abandon();
    report_record_limit(*loaded, spec, e, err);
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    outputs.abandon();
    err << "numagpu: error: out of memory: an allocation failed (host memory, or a ulimit -v); nothing "
           "written\n";
    return kExitBadInput;
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  for (const std::string& file : files)
    out << "numagpu: wrote " << outputs.path(file) << "\n";
  out << "numagpu: wrote " << outputs.path("workload.yaml") << "\n";
  return kExitOk;
}

int config_reference_command(std::ostream& out) {
  out << system_schema().markdown_reference();
  return kExitOk;
}

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  const auto startup_begin = std::chrono::steady_clock::now();
  std::optional<config::Config> loaded;
  SystemSpec spec;
  const auto interrupted = [&err](int signal_number) {
    err << "numagpu: interrupted by " << signal_name(signal_number)
        << " before the run started; nothing written\n";
    return interrupt::exit_status(signal_number);
  };
  // The workload (and the traces it reads, each opened once) is built before anything is written, while the
  // configuration can still name the key of a trace whose CTA cannot fit: bad input writes nothing.
  Workload workload;
  try {
    loaded.emplace(load_configuration(options));
    spec = to_system_spec(*loaded);
    // External ports are for a host platform to bind (docs/tlm-edges.md); the program has nothing to bind.
    if (!spec.external.empty()) {
      loaded->fail(spec.external.front().key,
                   "external port '" + spec.external.front().name +
                       "' would stay unbound: the numagpu program binds no host component (a host platform "
                       "that embeds numagpu binds it, docs/tlm-edges.md)");
    }
    workload = build_workload(spec, &*loaded, options.cuda_program);
    loaded.emplace(as_run_configuration(*loaded));  // what the outputs describe: see as_run_configuration
  } catch (const config::ConfigError& e) {
    // e.g. an input file's reading, interrupted
    if (const int signal_number = interrupt::pending()) return interrupted(signal_number);
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;  // nothing written
  } catch (const trace::TraceError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  } catch (const kernels::KernelError& e) {
    // an application's input, interrupted while read, or changed since the check
    if (const int signal_number = interrupt::pending()) return interrupted(signal_number);
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  const config::Config* cfg = &*loaded;
  stats::Registry registry;
  auto built = std::make_unique<System>("system", Configuration(spec), registry, std::move(workload), err);
  if (const int signal_number = interrupt::pending()) return interrupted(signal_number);
  // A directory that cannot take the outputs is found now, not after the whole simulation.
  OutputSet outputs(options.out_dir, run_outputs(options.out_dir, *built), "stats.json");
  try {
    outputs.probe();
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  System& system = *built;
  const GpuClock& clock = system.context().clock;
  RunHealth& health = system.context().health;
  health.set_echo(true);
  for (const std::string& w : system.trace_warnings())
    err << "numagpu: warning: " << printable(w) << "\n";
  std::unique_ptr<ProgressLine> progress;
  if (options.progress && !options.quiet) {
    ProgressLine::Probes probes{[&] { return system.requests_completed(); },
                                [&] { return system.dispatcher().kernels_done(); },
                                [&] { return system.dispatcher().finished(); },
                                // An application's launches are known only as it runs: no total then.
                                std::any_of(spec.kernels.begin(), spec.kernels.end(),
                                            [](const KernelSpec& k) { return k.host_program(); })
                                    ? 0u
                                    : static_cast<std::uint32_t>(spec.kernels.size())};
    progress = std::make_unique<ProgressLine>("progress", system.context(), probes, err);
    progress->start();
  }
  interrupt::InterruptPoller poller("interrupt_poller", system.context(), kInterruptCheckCycles,
                                    [&system] { system.stop_early(); });
  poller.start();
  // Periodic activities of the app end with the workload, like the model's own: a look still pending after
  // the last write-back would otherwise move the end of the simulation (drained_cycles) later.
  system.dispatcher().on_finish = [&poller, &progress, model_finish = system.dispatcher().on_finish] {
    poller.halt();
    if (progress) progress->halt();
    model_finish();
  };

  ActivityRecorder recorder("activity", system, static_cast<Cycles>(cfg->integer("stats.sample_cycles")));
  // A CTA body is recorded whole before its warps run, in host time in which the poller cannot look.
  system.stop_recording_when([] { return interrupt::pending() != 0; });

  const auto wall_start = std::chrono::steady_clock::now();
  // Failures from inside the simulation: one line, nothing written, exit 2 when the input or the host's
  // memory is the cause, 1 for anything else (a check of the model's own). Statistics of a run cut by a
  // kernel it could not record or by an allocation failure describe a machine that did not run the
  // workload, and after an allocation failure the outputs (megabytes of text) may not fit either.
  try {
    system.run();
  } catch (const kernels::RecordLimitExceeded& e) {
    report_record_limit(*cfg, spec, e, err);
    return kExitBadInput;
  } catch (const std::bad_alloc&) {
    err << "numagpu: error: out of memory at cycle " << clock.now()
        << ": an allocation failed (host memory, or a ulimit -v); nothing written\n";
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {  // a launch the configuration could not check beforehand
    err << "numagpu: error: " << printable(e.what()) << " (at cycle " << clock.now()
        << "); nothing written\n";
    return kExitBadInput;
  } catch (const sc_core::sc_report& e) {
    const char* process = e.get_process_name();
    err << "numagpu: error: " << printable(e.get_msg()) << " (in " << printable(process ? process : "SystemC")
        << " at cycle " << clock.now() << "); nothing written\n";
    return kExitRunFailed;
  } catch (const std::exception& e) {  // what a CTA threw, as thrown (a kernel's own check)
    err << "numagpu: error: " << printable(e.what()) << " (at cycle " << clock.now()
        << "); nothing written\n";
    return kExitRunFailed;
  }
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  BenchReport bench;
  if (options.bench) {
    bench.startup_seconds = std::chrono::duration<double>(wall_start - startup_begin).count();
    bench.simulate_seconds = wall_seconds;
    bench.activity = system.host_activity();
    bench.delta_cycles = sc_core::sc_delta_count();
  }
  if (progress) progress->finish();

  // Why the simulation ended, and whether the statistics cover the whole run.
  const char* stop_reason = "finished";
  if (system.stopped_early()) {
    stop_reason = "interrupted";
  } else if (health.count(RunHealth::Kind::kWatchdog) != 0) {
    stop_reason = "watchdog";
  } else if (spec.max_cycles != 0 && sc_core::sc_pending_activity()) {
    stop_reason = "max_cycles";  // sc_start stopped at the limit with events still to come
  } else if (!system.dispatcher().cut_short().empty()) {
    stop_reason = "max_launches";  // an application at its launch bound: the workload ended there
  }
  const bool complete = std::string(stop_reason) == "finished";

  const RunFacts facts = collect_facts(system, wall_seconds);
  nlohmann::json run_info = facts.to_json();
  run_info["stop_reason"] = stop_reason;
  run_info["cycle_reached"] = clock.now();
  const nlohmann::json document =
      stats::make_document(registry, NUMAGPU_VERSION, cfg->resolved(), cfg->hash(), run_info, complete);
  nlohmann::json power;
  if (options.bench) {
    bench.sim_cycles = facts.drained_cycles;
    bench.sm_requests = facts.loads + facts.stores + facts.atomics;
    bench.transactions = facts.transactions;
    bench.peak_rss_kib = peak_rss_kib();
    if (options.bench_extra) options.bench_extra(bench);
  }
  // The whole set is written aside and moved in with stats.json last (OutputSet): a reader never sees a
  // stats.json beside a partial set. A signal that arrives meanwhile waits until the set is in place, or
  // until a failed one is cleaned up.
  std::optional<interrupt::DeferSignals> defer(std::in_place);
  try {
    outputs.add("stats.json", document.dump(1) + "\n");
    // Every output carries the resolved configuration (or, for the VCD, its hash and the file beside it).
    std::string commented_config;
    std::istringstream yaml(cfg->dump_yaml());
    for (std::string line; std::getline(yaml, line);)
      commented_config += "# " + line + "\n";
    outputs.add("stats.txt", "# numagpu " NUMAGPU_VERSION " statistics, config hash " + cfg->hash() +
                                 (complete ? std::string()
                                           : std::string(" (incomplete: ") + stop_reason + " at cycle " +
                                                 std::to_string(clock.now()) + ")") +
                                 "\n" + registry.text() + "# resolved configuration:\n" + commented_config);
    if (!system.links().empty()) {
      std::vector<NamedLink> named;
      const Topology& t = system.topology();
      for (std::size_t l = 0; l < system.links().size(); ++l) {
        const std::string a = t.node_name(t.links[l].a), b = t.node_name(t.links[l].b);
        named.push_back(NamedLink{"link_" + a + "_" + b, {"to_" + b, "to_" + a}, system.links()[l].get()});
      }
      outputs.add("lanes.vcd", lane_vcd(named, clock.period_ps(),
                                        "numagpu " NUMAGPU_VERSION ", config hash " + cfg->hash() +
                                            " (resolved configuration: config.yaml)"));
    }
    for (const auto& [file, text] : system.rtl_waves().files())
      outputs.add(file, text);
    outputs.add("config.yaml", "# numagpu " NUMAGPU_VERSION " resolved configuration, hash " + cfg->hash() +
                                   "\n" + cfg->dump_yaml());
    power = write_power_outputs(
        finish_activity(recorder, *cfg), *cfg,
        [&outputs](const std::string& name, std::string_view contents) { outputs.add(name, contents); });
    if (options.bench) outputs.add("bench.json", bench.to_json().dump(1) + "\n");
    outputs.commit();
  } catch (const std::exception& e) {
    outputs.abandon();
    err << "numagpu: error: " << e.what() << "; the run's outputs were not written\n";
    return kExitBadInput;
  }
  defer.reset();
  if (!options.quiet) print_summary(out, spec, facts, options.out_dir, power::power_summary(power));
  if (options.bench) bench.print(out);
  if (const int signal_number = interrupt::pending()) {
    err << "numagpu: interrupted by " << signal_name(signal_number) << " at cycle " << clock.now()
        << "; statistics so far written to " << options.out_dir
        << " (complete: " << (complete ? "true" : "false") << ")\n";
    return interrupt::exit_status(signal_number);
  }
  if (!system.dispatcher().cut_short().empty()) {
    err << "numagpu: run failed: " << system.dispatcher().cut_short() << "; statistics so far written to "
        << options.out_dir << " (complete: false)\n";
    return kExitRunFailed;
  }
  if (!health.ok()) {
    err << "numagpu: run failed: " << health.count(RunHealth::Kind::kProtocol) << " protocol violation(s), "
        << health.count(RunHealth::Kind::kAudit) << " audit error(s), watchdog "
        << (health.count(RunHealth::Kind::kWatchdog) ? "fired" : "quiet") << "\n";
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace numagpu
