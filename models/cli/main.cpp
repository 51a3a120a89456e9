// numagpu: the command-line entry point. SystemC's library provides main() and calls sc_main().
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <new>

#include <CLI/CLI.hpp>

#include "cli/bench_fabric.hpp"
#include "cli/bench_sm.hpp"
#include "cli/correlate.hpp"
#include "cli/cuda_run.hpp"
#include "cli/export_activity.hpp"
#include "cli/huge_pages.hpp"
#include "cli/interrupt.hpp"
#include "cli/kernels_command.hpp"
#include "cli/power_outputs.hpp"
#include "cli/run.hpp"
#include "cli/sweep.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace {
// SystemC prints its banner from its own main(), before sc_main() runs: silence it during static
// initialization instead (an explicit SYSTEMC_DISABLE_COPYRIGHT_MESSAGE in the environment still wins).
const bool kBannerSilenced = setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0) == 0;

int numagpu_main(int argc, char* argv[]);
}  // namespace

// An allocation that fails anywhere (a configuration or an input too large for the host, a run past its
// memory) is one line and exit 2, whatever the command: the commands write nothing until their outputs
// are complete, so nothing was written.
extern "C" int sc_main(int argc, char* argv[]) {
  try {
    return numagpu_main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::cerr << "numagpu: error: out of memory: an allocation failed (host memory, or a ulimit -v); nothing "
                 "written\n";
    return numagpu::kExitBadInput;
  }
}

namespace {
int numagpu_main(int argc, char* argv[]) {
  (void)kBannerSilenced;
  numagpu::restart_with_huge_pages(argv);  // returns at once when there is nothing to do

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

  CLI::App* run = app.add_subcommand(
      "run", "Simulate a workload and write stats.json, stats.txt, config.yaml, activity.json, power.json");
  add_config_options(run);
  run->add_option("-o,--out", options.out_dir, "Output directory (created if missing)")
      ->capture_default_str();
  run->add_flag("-q,--quiet", options.quiet, "No summary on stdout and no progress line");
  run->add_flag(
      "--bench", options.bench,
      "Report the host cost: SM requests and cycles per host-second, deliveries and activations per "
      "request, start-up time, peak RSS (printed, even with -q, and written to bench.json)");
  std::string cuda_program;
  std::vector<std::string> cuda_args;
  run->add_option(
         "--cuda", cuda_program,
         "Run this CUDA program (built by numagpu-cc, docs/cuda.md) on the system: its kernel launches "
         "are the workload; its own arguments follow `--`")
      ->type_name("PROGRAM");
  run->add_option("program_args", cuda_args, "The CUDA program's arguments (after --)");
  unsigned scale = 0;
  run->add_option("--scale", scale, "Multiply every synthetic kernel's CTAs (same as --set workload.scale=N)")
      ->check(CLI::Range(1, 65536));

  numagpu::BenchFabricOptions bench;
  CLI::App* fabric = app.add_subcommand(
      "bench-fabric",
      "Copy bandwidth and latency between GPU pairs on the modelled topology (Comm|Scope style)");
  fabric->add_option("-c,--config", bench.base.config_file,
                     "System configuration YAML (default: the paper's system)");
  fabric->add_option("-s,--set", bench.base.sets, "Override one parameter, KEY.PATH=VALUE (repeatable)")
      ->type_name("KEY=VALUE");
  fabric->add_option("-o,--out", bench.base.out_dir, "Output directory for bench_fabric.csv and plots")
      ->capture_default_str();
  fabric->add_flag("-q,--quiet", bench.base.quiet, "No table on stdout");
  fabric->add_option("--pairs", bench.pairs, "Ordered GPU pairs: all, or SRC-DST[,SRC-DST...]")
      ->capture_default_str();
  fabric->add_option("--min-size", bench.min_log2, "Smallest transfer, log2 bytes (8 = 256 B)")
      ->capture_default_str();
  fabric->add_option("--max-size", bench.max_log2, "Largest transfer, log2 bytes (at most 30 = 1 GiB)")
      ->capture_default_str();
  fabric->add_option("--direction", bench.direction, "uni, bi or both")->capture_default_str();
  fabric->add_option("--op", bench.op, "write: the source pushes; read: the source pulls")
      ->capture_default_str();
  fabric->add_option("--outstanding", bench.outstanding, "Requests a copy engine keeps in flight")
      ->capture_default_str();
  fabric->add_option("--startup-cycles", bench.startup_cycles, "Fixed cost before a copy's first request")
      ->capture_default_str();
  fabric->add_flag("--plot", bench.plot,
                   "Also write PNG curves and a pair-by-pair heat map (python3-matplotlib)");

  numagpu::BenchSmOptions bench_sm;
  CLI::App* bench_sm_cmd = app.add_subcommand(
      "bench-sm",
      "Run the Volta microbenchmark suite on a configuration and compare it with published measurements "
      "(bench_sm.csv, bench_sm.md, bench_sm.png; docs/microbenchmarks.md)");
  bench_sm_cmd
      ->add_option("-c,--config", bench_sm.config, "System configuration YAML (configs/gpus/qv100.yaml)")
      ->required();
  bench_sm_cmd->add_option("-s,--set", bench_sm.sets, "Override one parameter, KEY.PATH=VALUE (repeatable)")
      ->type_name("KEY=VALUE");
  bench_sm_cmd->add_option("-o,--out", bench_sm.out_dir, "Output directory")->required();
  bench_sm_cmd
      ->add_option("--only", bench_sm.only, "Only the benchmarks whose id matches this regular expression")
      ->type_name("REGEX");
  bench_sm_cmd->add_option(
      "--published", bench_sm.published,
      "Published values (default: the built-in configs/published/volta_microbenchmarks.yaml)");
  bench_sm_cmd->add_flag("-q,--quiet", bench_sm.quiet, "No table on stdout");

  CLI::App* config = app.add_subcommand("config", "Inspect configurations");
  config->require_subcommand(1);
  CLI::App* dump =
      config->add_subcommand("dump", "Print the resolved configuration (every parameter, with its meaning)");
  add_config_options(dump);
  CLI::App* reference = config->add_subcommand("reference", "Print the parameter reference in Markdown");

  CLI::App* workload = app.add_subcommand("workload", "Work with workloads");
  workload->require_subcommand(1);
  CLI::App* wdump = workload->add_subcommand(
      "dump", "Write the resolved workload's kernels as .ngt traces plus a workload.yaml that replays them");
  add_config_options(wdump);
  wdump->add_option("-o,--out", options.out_dir, "Output directory")->required();

  CLI::App* kernels_cmd =
      app.add_subcommand("kernels", "List the C++ kernel library: each kernel, its source and its arguments");

  numagpu::CorrelateOptions correlate;
  CLI::App* correlate_cmd = app.add_subcommand(
      "correlate",
      "Run the library kernels of a hardware counter table (Nsight Compute metrics, the schema of "
      "hw_perf_train.csv) and compare simulated with measured counters (docs/correlation.md)");
  correlate_cmd->add_option("--hw", correlate.hw_csv, "Hardware counter CSV");
  correlate_cmd->add_option("--power", correlate.power_csv,
                            "Measured average power CSV (rows <app>_k<N>, column 'mean HW_power')");
  correlate_cmd->add_option("-c,--config", correlate.config,
                            "System configuration (default: the built-in system)");
  correlate_cmd->add_option("-j,--jobs", correlate.jobs, "Simulations run at once")
      ->check(CLI::Range(1, 4096));
  correlate_cmd->add_option("-o,--out", correlate.out_dir, "Output directory")->required();
  correlate_cmd->add_flag("-q,--quiet", correlate.quiet, "Only the final line");
  correlate_cmd->add_flag(
      "--cuda", correlate.cuda,
      "Counter rows run their kernels' CUDA versions (examples/cuda/, the map's cuda entries)");

  numagpu::PowerOptions power;
  CLI::App* power_cmd = app.add_subcommand(
      "power", "Recompute power.json from a run's activity.json with an energy table, without simulating");
  power_cmd->add_option("--activity", power.activity_file, "activity.json of a run")->required();
  power_cmd->add_option("--energy", power.energy_file,
                        "Energy table YAML: an `energy:` section (docs/power.md); defaults where absent");
  power_cmd
      ->add_option("-s,--set", power.sets, "Override one energy parameter, energy.KEY=VALUE (repeatable)")
      ->type_name("KEY=VALUE");
  power_cmd->add_option("-o,--out", power.out_dir, "Output directory for power.json")->capture_default_str();
  power_cmd->add_flag("-q,--quiet", power.quiet, "No table on stdout");

  numagpu::ExportOptions export_options;
  CLI::App* export_cmd = app.add_subcommand(
      "export",
      "Write a run's activity.json as an energy tool's action counts (docs/power.md, \"Exporting\")");
  export_cmd
      ->add_option(
          "--format", export_options.format,
          "accelergy (action counts YAML), accelergy-arch (architecture and compound components YAML) "
          "or mcpat (McPAT input XML)")
      ->required();
  export_cmd
      ->add_option(
          "--technology-nm", export_options.technology_nm,
          "Process node of the accelergy-arch and mcpat descriptions (McPAT: 22, 32, 45, 65, 90, 180)")
      ->capture_default_str();
  export_cmd->add_option("--activity", export_options.activity_file, "activity.json of a run")->required();
  export_cmd->add_option("-o,--out", export_options.out_file, "File to write")->required();
  export_cmd->add_flag("-q,--quiet", export_options.quiet, "Nothing on stdout");

  numagpu::PlotPowerOptions plot_power;
  CLI::App* plot = app.add_subcommand("plot", "Draw a run's outputs (python3-matplotlib)");
  plot->require_subcommand(1);
  CLI::App* plot_power_cmd =
      plot->add_subcommand("power", "Power per sample window from power.json, by component and per socket");
  plot_power_cmd->add_option("input", plot_power.input, "power.json, or the output directory of a run")
      ->capture_default_str();
  plot_power_cmd->add_option("-o,--out", plot_power.output,
                             "PNG to write (default: power.png beside the input)");
  numagpu::PlotOptions plot_options;
  CLI::App* plot_study_cmd =
      plot->add_subcommand("study", "A sweep's figures from its results.json alone (docs/studies.md)");
  plot_study_cmd->add_option("results", plot_options.results, "results.json written by numagpu sweep")
      ->required();
  plot_study_cmd->add_option("-o,--out", plot_options.out_dir,
                             "Directory for the figures (default: beside results.json)");
  plot_study_cmd->add_option(
      "--reference", plot_options.reference,
      "results.json of the figure3 study of the same workloads: the means are also given "
      "without its workloads at 99 % of theoretical (the paper's §3.1; docs/studies.md)");

  numagpu::PlotSweepOptions plot_sweep;
  CLI::App* plot_sweep_cmd = plot->add_subcommand(
      "sweep", "One column of any sweep's results table against another (docs/studies.md)");
  plot_sweep_cmd->add_option("results", plot_sweep.results, "results.json written by numagpu sweep")
      ->required();
  plot_sweep_cmd
      ->add_option("--x", plot_sweep.x, "Column on the x axis (an axis, a statistic, point, workload)")
      ->required();
  plot_sweep_cmd->add_option("--y", plot_sweep.y, "Column on the y axis (a statistic)")->required();
  plot_sweep_cmd->add_option("--group", plot_sweep.group, "One line per value of this column");
  plot_sweep_cmd->add_option("-o,--out", plot_sweep.output,
                             "PNG to write (default: sweep-Y-by-X.png beside results.json)");

  numagpu::SweepOptions sweep_options;
  CLI::App* sweep = app.add_subcommand(
      "sweep",
      "Run a grid of design points (a sweep spec, docs/studies.md) in parallel and collect a results table");
  sweep->add_option("spec", sweep_options.spec_file, "Sweep spec YAML (required unless --reference)");
  bool sweep_reference = false;
  sweep->add_flag("--reference", sweep_reference, "Print the sweep spec reference (Markdown) and exit");
  sweep->add_option("-o,--out", sweep_options.out_dir, "Output directory (default: numagpu-sweeps/NAME)");
  sweep->add_option("-j,--jobs", sweep_options.jobs, "Points run at once (default: the machine's cores)")
      ->check(CLI::Range(1, 4096));
  sweep
      ->add_option("-s,--set", sweep_options.sets,
                   "Override one parameter of every point (repeatable, applied last)")
      ->type_name("KEY=VALUE")
      ->allow_extra_args(false);  // one value per --set, so a spec file after it stays the spec
  sweep->add_option("--workloads", sweep_options.workloads, "Only the points of these workloads (repeatable)")
      ->delimiter(',')
      ->type_name("NAME[,NAME...]")
      ->allow_extra_args(false);
  sweep->add_flag("--collect", sweep_options.collect_only,
                  "Only collect the results table of the points run so far");
  sweep->add_flag("--list", sweep_options.list,
                  "Print the points (index, id, configuration hash, overrides)");
  sweep->add_option("--point", sweep_options.point, "Run this one point only (what a Slurm array task does)");
  sweep->add_flag(
      "--slurm", sweep_options.slurm,
      "Write a Slurm array job of the points still missing or failed (OUT/slurm: array.sbatch, "
      "collect.sbatch, submit.sh; resources from the spec's slurm: section) instead of running them");
  sweep
      ->add_option("--slurm-option", sweep_options.slurm_options,
                   "Extra #SBATCH line for the Slurm scripts, after the spec's, e.g. --qos=long (repeatable)")
      ->allow_extra_args(false);
  sweep
      ->add_option("--reuse", sweep_options.reuse,
                   "Another sweep's output directory: its finished points of exactly this configuration "
                   "(the same configuration hash) are linked in instead of simulated again; or an earlier "
                   "sweep's results table (a .json file): its rows of this configuration that hold every "
                   "requested statistic are taken as finished points (repeatable)")
      ->type_name("DIR|RESULTS.json")
      ->allow_extra_args(false);
  sweep->add_flag("-q,--quiet", sweep_options.quiet, "Only failures and the final line");

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

  if (sweep->parsed()) {
    if (sweep_reference) {
      std::cout << numagpu::sweep_spec_reference();
      return numagpu::kExitOk;
    }
    if (sweep_options.spec_file.empty()) {
      std::cerr << "numagpu: error: sweep: a spec file is required\n";
      return numagpu::kExitBadInput;
    }
    sweep_options.progress = isatty(STDERR_FILENO) != 0;
    return numagpu::sweep_command(sweep_options, std::cout, std::cerr);
  }
  if (plot_sweep_cmd->parsed()) return numagpu::plot_sweep_command(plot_sweep, std::cout, std::cerr);
  if (plot_study_cmd->parsed()) return numagpu::plot_command(plot_options, std::cout, std::cerr);
  if (fabric->parsed()) return numagpu::bench_fabric_command(bench, std::cout, std::cerr);
  if (bench_sm_cmd->parsed()) return numagpu::bench_sm_command(bench_sm, std::cout, std::cerr);
  if (export_cmd->parsed()) return numagpu::export_command(export_options, std::cout, std::cerr);
  if (power_cmd->parsed()) return numagpu::power_command(power, std::cout, std::cerr);
  if (plot_power_cmd->parsed()) return numagpu::plot_power_command(plot_power, std::cout, std::cerr);
  if (kernels_cmd->parsed()) return numagpu::kernels_command(std::cout);
  if (correlate_cmd->parsed()) return numagpu::correlate_command(correlate, std::cout, std::cerr);
  if (wdump->parsed()) return numagpu::workload_dump_command(options, std::cout, std::cerr);
  if (dump->parsed()) return numagpu::config_dump_command(options, std::cout, std::cerr);
  if (reference->parsed()) return numagpu::config_reference_command(std::cout);
  if (!cuda_args.empty() && cuda_program.empty()) {
    std::cerr << "numagpu: error: run: unexpected argument '" << cuda_args.front()
              << "' (a program's arguments follow --cuda PROGRAM --)\n";
    return numagpu::kExitBadInput;
  }
  if (!cuda_program.empty()) return numagpu::cuda_run_command(options, cuda_program, cuda_args, std::cerr);
  if (scale) options.sets.insert(options.sets.begin(), "workload.scale=" + std::to_string(scale));
  options.progress = isatty(STDERR_FILENO) != 0;
  numagpu::interrupt::install_handlers();  // Ctrl-C / SIGTERM: stop, keep the statistics so far
  return numagpu::run_command(options, std::cout, std::cerr);
}
}  // namespace
