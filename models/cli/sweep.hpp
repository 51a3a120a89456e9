// `numagpu sweep SPEC`: runs a sweep's points as child `numagpu run` processes, in parallel, resumably, and
// collects one results table; `--slurm` writes an array job for the same grid instead (docs/studies.md).
//
// Output directory layout (the same for local and Slurm runs):
//   OUT/points/<id>/   a finished point: the outputs of numagpu run, run.log, point.json.
//                      Written as OUT/points/.tmp.<id>.<host>.<pid> and renamed into place when complete,
//                      so a point directory is either absent or whole. A point is finished when its
//                      directory exists, its point.json names the configuration hash and the input files'
//                      hash the spec resolves to now (a point whose configuration or inputs changed runs
//                      again) and its outputs are complete (sweep_results.hpp: incomplete_point; an empty
//                      or corrupt one makes the point run again). The temp directory
//                      holds .owner, flock-ed while the sweep or its child lives: only a temp directory
//                      whose lock is free is ever cleaned (it becomes the point's failure record).
//   OUT/failed/<id>/   the last failed attempt of a point (run.log says why); retried by the next sweep.
//   OUT/results.csv, OUT/results.json   the collected table (every point: ok, failed or missing).
//   OUT/slurm/         array.sbatch, collect.sbatch, submit.sh (with --slurm; the array holds the points
//                      still missing or failed, with the spec's slurm: resources).
// SIGINT/SIGTERM: forwarded to the running points, which are waited for (bounded) and recorded as failed
// with the reason; the table is written for what finished; exit 128 + the signal.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace numagpu {

struct SweepOptions {
  std::string spec_file;
  std::string out_dir;                     // default: numagpu-sweeps/<sweep name>
  unsigned jobs = 0;                       // parallel points; 0: the machine's cores
  std::vector<std::string> sets;           // extra overrides for every point, applied last
  std::vector<std::string> workloads;      // only the points of these workloads (a smaller study); empty: all
  bool collect_only = false;               // only (re)build the results table
  bool list = false;                       // print the points and exit
  std::string point;                       // run only this point (a Slurm array task)
  bool slurm = false;                      // write the Slurm array job instead of running
  std::vector<std::string> slurm_options;  // extra "#SBATCH" lines, e.g. --partition=gpu: one sbatch
                                           // argument each (no control bytes; quoted as sbatch reads it)
  bool quiet = false;                      // only failures and the final line
  bool progress = false;                   // draw the progress bar (the caller decides: a terminal)
  std::string executable;                  // numagpu binary the points run with (default: this process)
  std::vector<std::string> reuse;          // other sweeps' output directories whose finished points of the
                                           // same identity are linked in instead of run again
                                           // (cli/sweep_reuse.hpp), or results tables (*.json) whose rows
                                           // are (cli/sweep_tabled.hpp)
};

// The sweep spec's reference (Markdown), as docs/studies.md embeds it.
std::string sweep_spec_reference();

int sweep_command(const SweepOptions& options, std::ostream& out, std::ostream& err);

struct PlotOptions {
  std::string results;  // results.json of a sweep
  std::string out_dir;  // where the figures go (default: beside results.json)
  // results.json of the figure3 study of the same suite: its workloads at 99 % of theoretical are left out
  // of a second row of means (the paper's §3.1 method); empty: means over every workload only (a figure3
  // study is its own reference)
  std::string reference;
};

// Draws the figures of a sweep's study kind (scripts/plot_study.py, run with python3-matplotlib) from its
// results.json alone.
int plot_command(const PlotOptions& options, std::ostream& out, std::ostream& err);

struct PlotSweepOptions {
  std::string results;  // results.json of a sweep
  std::string x, y;     // columns of the results table (results.csv's names)
  std::string group;    // one line per value of this column; "" = one line
  std::string output;   // PNG (default: sweep-<y>-by-<x>.png beside results.json)
};

// Draws column y against column x of any sweep's results table (scripts/plot_sweep.py, python3-matplotlib).
int plot_sweep_command(const PlotSweepOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
