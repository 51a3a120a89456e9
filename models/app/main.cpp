// numagpu: the command-line entry point. SystemC's library provides main() and calls sc_main().
#include <unistd.h>

#include <cstdlib>
#include <iostream>

#include <CLI/CLI.hpp>

#include "app/run.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace {
// SystemC prints its banner from its own main(), before sc_main() runs: silence it during static
// initialization instead (an explicit SYSTEMC_DISABLE_COPYRIGHT_MESSAGE in the environment still wins).
const bool kBannerSilenced = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;
}  // namespace

extern "C" int sc_main(int argc, char* argv[]) {
  (void)kBannerSilenced;

  CLI::App app{
      "numagpu " NUMAGPU_VERSION
      " - a SystemC/TLM-2.0 model of multi-socket NUMA GPUs.\n"
      "With no subcommand, `numagpu run` is implied: the paper's 4-socket system on the default workload."};
  app.set_version_flag("--version", "numagpu " NUMAGPU_VERSION);
  app.require_subcommand(0, 1);

  numagpu::RunOptions options;
  auto add_config_options = [&options](CLI::App* cmd) {
    cmd->add_option("-c,--config", options.config_file,
                    "System configuration YAML (default: built-in configs/paper_4socket.yaml)");
    cmd->add_option(
        "-w,--workload", options.workload_file,
        "Workload YAML, layered over the configuration (default: built-in configs/workloads/default.yaml)");
    cmd->add_option("-s,--set", options.sets,
                    "Override one parameter, KEY.PATH=VALUE (repeatable, applied last)")
        ->type_name("KEY=VALUE");
  };

  CLI::App* run =
      app.add_subcommand("run", "Simulate a workload and write stats.json, stats.txt, config.yaml");
  add_config_options(run);
  run->add_option("-o,--out", options.out_dir, "Output directory (created if missing)")
      ->capture_default_str();
  run->add_flag("-q,--quiet", options.quiet, "No summary on stdout and no progress line");

  CLI::App* config = app.add_subcommand("config", "Inspect configurations");
  config->require_subcommand(1);
  CLI::App* dump =
      config->add_subcommand("dump", "Print the resolved configuration (every parameter, with its meaning)");
  add_config_options(dump);
  CLI::App* reference = config->add_subcommand("reference", "Print the parameter reference in Markdown");

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "numagpu: error: " << e.what() << " (see numagpu --help)\n";
    return numagpu::kExitBadInput;
  }

  if (dump->parsed()) return numagpu::config_dump_command(options, std::cout, std::cerr);
  if (reference->parsed()) return numagpu::config_reference_command(std::cout);
  options.progress = isatty(STDERR_FILENO) != 0;
  return numagpu::run_command(options, std::cout, std::cerr);
}
