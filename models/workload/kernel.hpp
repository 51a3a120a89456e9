// A kernel of the synthetic workload and the instruction stream of each of its warps: a compute step, then
// the pattern's memory instructions for one access, repeated accesses_per_warp times (docs/workloads.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace numagpu {

struct KernelSpec {
  std::string name;
  std::string pattern = "stream";  // stream | random | strided | stream_triad | reduction_to_one | histogram
  std::uint32_t ctas = 1;
  std::uint32_t grid_x = 0;  // CTAs per grid row (2-D grids, for row/column binding); 0: one row
  std::uint32_t warps_per_cta = 1;
  std::uint32_t accesses_per_warp = 1;  // memory instructions each warp executes
  std::uint32_t compute_cycles = 0;     // compute before each memory instruction
  std::uint32_t write_percent = 0;      // share of memory instructions that are stores
  std::uint32_t atomic_percent = 0;     // share that are atomics (taken before stores)
  std::uint64_t footprint_bytes = 0;    // 0: the stream's natural footprint
  std::uint64_t base_address = 0;
  std::uint64_t seed = 1;
  std::string trace_path;           // non-empty: replay this kernel trace instead of the pattern
  std::uint64_t stride_x = 1;       // strided: lines between a warp's consecutive accesses
  std::uint64_t stride_y = 0;       // strided: lines between consecutive warps' first accesses (0: accesses)
  std::uint64_t bins_bytes = 4096;  // histogram: the bins' size
  std::uint64_t output_bytes = 4096;  // reduction_to_one: the output region's size
  std::uint64_t width_lines = 32;     // transpose, stencil2d/3d: lines per row of the 2-D/3-D grid
  std::uint64_t height_lines = 32;    // stencil3d: rows per plane

  std::uint64_t total_warps() const { return std::uint64_t(ctas) * warps_per_cta; }
  std::uint64_t footprint_lines(unsigned line_bytes) const;
};

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
