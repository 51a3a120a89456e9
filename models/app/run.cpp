#include "app/run.hpp"

#include <cctype>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "app/embedded_configs.hpp"
#include "app/power_outputs.hpp"
#include "app/progress.hpp"
#include "app/summary.hpp"
#include "app/system_config.hpp"
#include "common/health.hpp"
#include "config/config.hpp"
#include "fabric/lane_vcd.hpp"
#include "power/activity_recorder.hpp"
#include "power/power_model.hpp"
#include "stats/atomic_write.hpp"
#include "stats/document.hpp"
#include "system/system.hpp"
#include "trace/trace.hpp"
#include "workload/program.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

// Creates the output directory, or says in one line why it cannot.
bool make_output_dir(const std::string& dir, std::ostream& err) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (!ec) return true;
  err << "numagpu: error: " << dir << ": cannot create output directory (" << ec.message() << ")\n";
  return false;
}

// Layers, lowest first: the default workload, the system (file or built-in), then an explicit workload file.
config::Config load_configuration(const RunOptions& o) {
  std::vector<config::Layer> layers;
  layers.push_back({"<built-in configs/workloads/default.yaml>", std::string(embedded::kDefaultWorkload)});
  if (o.config_file) {
    layers.push_back({*o.config_file, std::nullopt});
  } else {
    layers.push_back({"<built-in configs/paper_4socket.yaml>", std::string(embedded::kPaperSystem)});
  }
  if (o.workload_file) layers.push_back({*o.workload_file, std::nullopt});
  return config::load(system_schema(), layers, o.sets);
}

int config_dump_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  try {
    const config::Config cfg = load_configuration(options);
    (void)to_system_spec(cfg);  // cross-field checks too: a dump is a statement that the config is valid
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
  try {
    spec = to_system_spec(load_configuration(options));
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (!make_output_dir(options.out_dir, err)) return kExitBadInput;
  const std::filesystem::path dir(options.out_dir);
  std::string yaml = "# Written by numagpu workload dump: replays the dumped kernels.\nworkload:\n  name: " +
                     spec.workload_name + "\n  kernels:\n";
  try {
    for (std::size_t i = 0; i < spec.kernels.size(); ++i) {
      const KernelSpec& k = spec.kernels[i];
      std::unique_ptr<KernelProgram> program =
          k.trace_path.empty() ? std::make_unique<SyntheticProgram>(k, spec.facts.line_bytes)
                               : load_trace_program(k.trace_path, spec.facts.line_bytes, nullptr);
      std::string file = "kernel-" + std::to_string(i) + "-";
      for (char c : k.name)
        file += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
      file += ".ngt";
      dump_program(*program, static_cast<std::uint32_t>(i), spec.facts.line_bytes, (dir / file).string());
      yaml += "    - name: \"" + k.name + "\"\n      trace: " + file + "\n";
      out << "numagpu: wrote " << (dir / file).string() << "\n";
    }
    write_file_atomically((dir / "workload.yaml").string(), yaml);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  out << "numagpu: wrote " << (dir / "workload.yaml").string() << "\n";
  return kExitOk;
}

int config_reference_command(std::ostream& out) {
  out << system_schema().markdown_reference();
  return kExitOk;
}

int run_command(const RunOptions& options, std::ostream& out, std::ostream& err) {
  std::optional<config::Config> cfg;
  SystemSpec spec;
  try {
    cfg.emplace(load_configuration(options));
    spec = to_system_spec(*cfg);
  } catch (const config::ConfigError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;  // nothing written
  }
  if (!make_output_dir(options.out_dir, err)) return kExitBadInput;

  RunHealth::reset();
  RunHealth::set_echo(true);
  stats::Registry registry;
  std::unique_ptr<System> built;
  try {
    built = std::make_unique<System>("system", spec, registry, err);
  } catch (const trace::TraceError& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  System& system = *built;
  for (const std::string& w : system.trace_warnings())
    err << "numagpu: warning: " << w << "\n";
  std::unique_ptr<ProgressLine> progress;
  if (options.progress && !options.quiet) {
    ProgressLine::Probes probes{
        [&] { return system.requests_completed(); }, [&] { return system.runtime().kernels_done(); },
        [&] { return system.runtime().finished(); }, static_cast<std::uint32_t>(spec.kernels.size())};
    progress = std::make_unique<ProgressLine>("progress", probes, err);
    progress->start();
  }

  ActivityRecorder recorder("activity", system, static_cast<Cycles>(cfg->integer("stats.sample_cycles")));

  const auto wall_start = std::chrono::steady_clock::now();
  system.run();
  const double wall_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  if (progress) progress->finish();

  const RunFacts facts = collect_facts(system, registry, wall_seconds);
  nlohmann::json run_info = facts.to_json();
  const nlohmann::json document =
      stats::make_document(registry, NUMAGPU_VERSION, cfg->resolved(), cfg->hash(), run_info);
  const std::filesystem::path dir(options.out_dir);
  nlohmann::json power;
  try {
    write_file_atomically((dir / "stats.json").string(), document.dump(1) + "\n");
    // Every output carries the resolved configuration (or, for the VCD, its hash and the file beside it).
    std::string commented_config;
    std::istringstream yaml(cfg->dump_yaml());
    for (std::string line; std::getline(yaml, line);)
      commented_config += "# " + line + "\n";
    write_file_atomically((dir / "stats.txt").string(),
                          "# numagpu " NUMAGPU_VERSION " statistics, config hash " + cfg->hash() + "\n" +
                              registry.text() + "# resolved configuration:\n" + commented_config);
    if (!system.links().empty()) {
      std::vector<NamedLink> named;
      const Topology& t = system.topology();
      for (std::size_t l = 0; l < system.links().size(); ++l) {
        const std::string a = t.node_name(t.links[l].a), b = t.node_name(t.links[l].b);
        named.push_back(NamedLink{"link_" + a + "_" + b, {"to_" + b, "to_" + a}, system.links()[l].get()});
      }
      write_file_atomically((dir / "lanes.vcd").string(),
                            lane_vcd(named, GpuClock::period_ps(),
                                     "numagpu " NUMAGPU_VERSION ", config hash " + cfg->hash() +
                                         " (resolved configuration: config.yaml)"));
    }
    write_file_atomically((dir / "config.yaml").string(), "# numagpu " NUMAGPU_VERSION
                                                          " resolved configuration, hash " +
                                                              cfg->hash() + "\n" + cfg->dump_yaml());
    power = write_power_outputs(finish_activity(recorder, *cfg), *cfg, options.out_dir);
  } catch (const std::exception& e) {
    err << "numagpu: error: " << e.what() << "\n";
    return kExitBadInput;
  }
  if (!options.quiet) print_summary(out, spec, facts, options.out_dir, power::power_summary(power));
  if (!RunHealth::ok()) {
    err << "numagpu: run failed: " << RunHealth::count(RunHealth::Kind::kProtocol)
        << " protocol violation(s), " << RunHealth::count(RunHealth::Kind::kAudit)
        << " audit error(s), watchdog " << (RunHealth::count(RunHealth::Kind::kWatchdog) ? "fired" : "quiet")
        << "\n";
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace numagpu
