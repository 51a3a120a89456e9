// A kernel of the synthetic workload and the instruction stream of each of its warps: a compute step, then
// the pattern's memory instructions for one access, repeated accesses_per_warp times (docs/workloads.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numagpu {

// A kernel of workload.kernels: each key declared once beside its field, with its default and documentation
// (config/keys.hpp).
struct KernelSpec {
  std::string name;
  std::string trace_path;  // non-empty: replay this kernel trace instead of the pattern
  std::string kernel;      // non-empty: run this kernel of the library (models/kernels/) with `args`
  std::string args;        // "name=value ..." for `kernel` or `app`
  std::string app;         // non-empty: run this application (models/apps/): its host program's launches
  std::string input;       // the file `app` reads ("": its reference input)
  std::string cuda;        // non-empty: a CUDA program's launches, handed in by the program (docs/cuda.md)
  std::string pattern = "stream";
  std::uint64_t width_lines = 32;   // transpose, stencil2d/3d: lines per row of the 2-D/3-D grid
  std::uint64_t height_lines = 32;  // stencil3d: rows per plane
  std::uint64_t stride_x = 1;       // strided: lines between a warp's consecutive accesses
  std::uint64_t stride_y = 0;       // strided: lines between consecutive warps' first accesses (0: accesses)
  std::uint64_t bins_bytes = 4096;  // histogram: the bins' size
  std::uint64_t output_bytes = 4096;  // reduction_to_one: the output region's size
  std::uint32_t ctas = 0;
  std::uint32_t warps_per_cta = 4;
  std::uint32_t grid_x = 0;             // CTAs per grid row (2-D grids, for row/column binding); 0: one row
  std::uint32_t accesses_per_warp = 8;  // memory instructions each warp executes
  std::uint32_t compute_cycles = 4;     // compute before each memory instruction
  std::uint32_t write_percent = 0;      // share of memory instructions that are stores
  std::uint32_t atomic_percent = 0;     // share that are atomics (taken before stores)
  std::uint64_t footprint_bytes = 0;    // 0: the stream's natural footprint
  std::uint64_t base_address = 0;
  std::uint64_t seed = 1;

  template <class Keys>
  void keys(Keys& k);

  // An item whose kernels a host program launches as the run goes (an application or a CUDA program).
  bool host_program() const { return !app.empty() || !cuda.empty(); }
  std::uint64_t total_warps() const { return std::uint64_t(ctas) * warps_per_cta; }
  std::uint64_t footprint_lines(unsigned line_bytes) const;
};

template <class Keys>
void KernelSpec::keys(Keys& k) {
  k.string("name", name, "Kernel name").required();
  k.string(
      "trace", trace_path,
      "Replay this kernel trace (Accel-Sim .traceg, optionally .gz/.xz, or numagpu .ngt) instead of a "
      "pattern; the grid and warps come from the trace. A relative path is taken from the file that sets "
      "it");
  k.string("kernel", kernel,
           "Run this kernel of the C++ kernel library instead of a pattern (numagpu kernels lists them, with "
           "their arguments; docs/kernels.md); its grid and block come from the kernel");
  k.string("args", args,
           "Arguments of `kernel` or `app`, as name=value separated by spaces; unnamed ones keep defaults");
  k.string(
      "app", app,
      "Run this application instead of a kernel: a host program that owns its arrays and launches kernels "
      "in a loop, deciding on the data they computed (numagpu kernels lists the applications with their "
      "arguments; docs/kernels.md, Applications)");
  k.string("cuda", cuda,
           "The name of a CUDA program whose kernel launches this item runs: set by the CUDA runtime "
           "(numagpu run --cuda PROG, or PROG run with NUMAGPU_CONFIG; docs/cuda.md), which hands the "
           "launches in as the program makes them; a configuration file cannot run one by itself");
  k.string(
      "input", input,
      "The file `app` reads (a METIS graph for the graph and mesh applications); empty: the application's "
      "reference input. A relative path is taken from the file that sets it");
  k.choice("pattern", pattern,
           {{"stream", "stream"},
            {"random", "random"},
            {"strided", "strided"},
            {"stream_triad", "stream_triad"},
            {"reduction_to_one", "reduction_to_one"},
            {"histogram", "histogram"},
            {"random_gather", "random_gather"},
            {"transpose", "transpose"},
            {"stencil2d", "stencil2d"},
            {"stencil3d", "stencil3d"},
            {"gemm_tiled", "gemm_tiled"},
            {"spmv_csr", "spmv_csr"},
            {"bfs_frontier", "bfs_frontier"}},
           "The access pattern of a synthetic kernel (docs/workloads.md lists each with its locality class)");
  k.integer("width_lines", width_lines, "transpose, stencil2d/3d: lines per row of the grid")
      .range(1, std::int64_t(1) << 30);
  k.integer("height_lines", height_lines, "stencil3d: rows per plane").range(1, std::int64_t(1) << 30);
  k.integer("stride_x", stride_x, "strided: lines between a warp's consecutive accesses")
      .range(0, std::int64_t(1) << 40);
  k.integer("stride_y", stride_y,
            "strided: lines between consecutive warps' first accesses; 0: accesses_per_warp")
      .range(0, std::int64_t(1) << 40);
  k.integer("bins_bytes", bins_bytes, "histogram: size of the bins")
      .range(128, std::int64_t(1) << 40)
      .unit("B");
  k.integer("output_bytes", output_bytes, "reduction_to_one: size of the output region")
      .range(128, std::int64_t(1) << 30)
      .unit("B");
  k.integer("ctas", ctas,
            "CTAs in the grid (patterns; required unless `trace` is set); CTA i runs on socket i mod sockets")
      .range(0, 1 << 24);
  k.integer("warps_per_cta", warps_per_cta, "Warps per CTA").range(1, 64);
  k.integer("grid_x", grid_x, "CTAs per grid row, for a 2-D grid (row/column binding); 0: one row")
      .range(0, 1 << 24);
  k.integer("accesses_per_warp", accesses_per_warp, "Memory instructions per warp").range(1, 1 << 20);
  k.integer("compute_cycles", compute_cycles, "Compute cycles before each memory instruction")
      .range(0, 1 << 20)
      .unit("cycles");
  k.integer("write_percent", write_percent, "Share of memory instructions that are stores")
      .range(0, 100)
      .unit("%");
  k.integer("atomic_percent", atomic_percent, "Share of memory instructions that are atomics")
      .range(0, 100)
      .unit("%");
  k.integer("footprint_bytes", footprint_bytes,
            "Bytes the kernel touches; 0: warps x accesses lines (stream's natural size)")
      .range(0, std::int64_t(1) << 40)
      .unit("B");
  k.integer("base_address", base_address, "First byte of the kernel's data")
      .range(0, std::int64_t(1) << 48)
      .unit("B");
  k.integer("seed", seed, "Seed of the pattern's pseudo-random choices").range(0, std::int64_t(1) << 62);
}

struct WarpStep {
  enum class Kind : std::uint8_t { kCompute, kLoad, kStore, kAtomic };
  Kind kind;
  std::uint32_t cycles;   // compute only
  std::uint64_t address;  // memory only: one coalesced 128 B line
};

// Deterministic: the same (kernel, cta, warp, step) always gives the same step, whatever the timing.
class WarpProgram {
 public:
  WarpProgram(const KernelSpec& kernel, unsigned line_bytes);
  std::uint32_t steps() const { return (1 + ops_) * kernel_.accesses_per_warp; }
  // Memory instructions per access: 3 for stream_triad (two loads, a store), 2 for reduction_to_one (a load
  // and a store into the output), 1 otherwise.
  static unsigned ops_per_access(const std::string& pattern);
  WarpStep step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index) const;

 private:
  // The pattern, named once: step() runs for every instruction, and comparing the pattern's name there was
  // 2 % of the default run's instructions (docs/performance.md). kOther: the plain streaming pattern.
  enum class Pattern {
    kStreamTriad,
    kReductionToOne,
    kRandomGather,
    kTranspose,
    kStencil,  // stencil2d and stencil3d (ops_ tells them apart)
    kGemmTiled,
    kSpmvCsr,
    kBfsFrontier,
    kHistogram,
    kRandom,
    kStrided,
    kOther,
  };
  static Pattern pattern_of(const std::string& pattern);

  const KernelSpec& kernel_;
  unsigned line_bytes_;
  std::uint64_t lines_;
  unsigned ops_;
  Pattern pattern_;
};

// SplitMix64: a small, well-mixed hash for reproducible pseudo-random choices.
std::uint64_t mix64(std::uint64_t x);

}  // namespace numagpu
