#include "workload/kernel.hpp"

#include <stdexcept>

namespace numagpu {

std::uint64_t mix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t KernelSpec::footprint_lines(unsigned line_bytes) const {
  if (footprint_bytes) return (footprint_bytes + line_bytes - 1) / line_bytes;
  return total_warps() * accesses_per_warp;
}

WarpProgram::WarpProgram(const KernelSpec& kernel, unsigned line_bytes)
    : kernel_(kernel), line_bytes_(line_bytes), lines_(kernel.footprint_lines(line_bytes)) {
  if (lines_ == 0) throw std::invalid_argument("kernel footprint is empty");
}

WarpStep WarpProgram::step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index) const {
  if (index % 2 == 0) return {WarpStep::Kind::kCompute, kernel_.compute_cycles, 0};
  const std::uint64_t access = index / 2;
  const std::uint64_t global_warp = std::uint64_t(cta) * kernel_.warps_per_cta + warp;
  const std::uint64_t h = mix64(kernel_.seed ^ mix64(global_warp * 0x10001ULL + access));
  std::uint64_t line;
  if (kernel_.pattern == "random") {
    line = mix64(h) % lines_;
  } else {
    // Streaming: at each step every warp touches the next line after the previous warp's, so consecutive
    // warps sweep the footprint together (fully coalesced, no reuse within a pass).
    line = (access * kernel_.total_warps() + global_warp) % lines_;
  }
  const std::uint32_t pick = static_cast<std::uint32_t>(h % 100);
  WarpStep::Kind kind = WarpStep::Kind::kLoad;
  if (pick < kernel_.atomic_percent) {
    kind = WarpStep::Kind::kAtomic;
  } else if (pick < kernel_.atomic_percent + kernel_.write_percent) {
    kind = WarpStep::Kind::kStore;
  }
  return {kind, 0, kernel_.base_address + line * line_bytes_};
}

}  // namespace numagpu
