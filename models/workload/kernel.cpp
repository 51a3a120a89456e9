#include "workload/kernel.hpp"

#include <algorithm>
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
  return total_warps() * accesses_per_warp;  // for stream_triad: per array
}

unsigned WarpProgram::ops_per_access(const std::string& pattern) {
  if (pattern == "stream_triad") return 3;
  if (pattern == "reduction_to_one") return 2;
  return 1;
}

WarpProgram::WarpProgram(const KernelSpec& kernel, unsigned line_bytes)
    : kernel_(kernel),
      line_bytes_(line_bytes),
      lines_(kernel.footprint_lines(line_bytes)),
      ops_(ops_per_access(kernel.pattern)) {
  if (lines_ == 0) throw std::invalid_argument("kernel footprint is empty");
}

WarpStep WarpProgram::step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index) const {
  const std::uint32_t slot = index % (1 + ops_);
  if (slot == 0) return {WarpStep::Kind::kCompute, kernel_.compute_cycles, 0};
  const unsigned op = slot - 1;
  const std::uint64_t access = index / (1 + ops_);
  const std::uint64_t warps = kernel_.total_warps();
  const std::uint64_t global_warp = std::uint64_t(cta) * kernel_.warps_per_cta + warp;
  const std::uint64_t h = mix64(kernel_.seed ^ mix64(global_warp * 0x10001ULL + access));
  // Streaming order: at each access every warp touches the line after the previous warp's, so consecutive
  // warps sweep the footprint together (fully coalesced, no reuse within a pass).
  const std::uint64_t streamed = (access * warps + global_warp) % lines_;
  auto at = [this](std::uint64_t line) { return kernel_.base_address + line * line_bytes_; };
  const std::string& p = kernel_.pattern;
  if (p == "stream_triad") {  // c[i] = a[i] + s * b[i]: arrays a, b, c of lines_ lines each, back to back
    const WarpStep::Kind kind = op < 2 ? WarpStep::Kind::kLoad : WarpStep::Kind::kStore;
    return {kind, 0, at(op * lines_ + streamed)};
  }
  if (p == "reduction_to_one") {
    if (op == 0) return {WarpStep::Kind::kLoad, 0, at(streamed)};
    // Every CTA adds into one small output region, at the first GiB boundary after the input: one page
    // under page-interleaved placement, so all of it is homed at one socket.
    const std::uint64_t giga = std::uint64_t(1) << 30;
    const std::uint64_t out_base = (kernel_.base_address + lines_ * line_bytes_ + giga - 1) / giga * giga;
    const std::uint64_t out_lines = std::max<std::uint64_t>(1, kernel_.output_bytes / line_bytes_);
    return {WarpStep::Kind::kStore, 0, out_base + (cta % out_lines) * line_bytes_};
  }
  if (p == "histogram") {  // atomic increments of random bins
    const std::uint64_t bins = std::max<std::uint64_t>(1, kernel_.bins_bytes / line_bytes_);
    return {WarpStep::Kind::kAtomic, 0, at(mix64(h) % bins)};
  }
  std::uint64_t line = streamed;
  if (p == "random") {
    line = mix64(h) % lines_;
  } else if (p == "strided") {
    const std::uint64_t stride_y = kernel_.stride_y ? kernel_.stride_y : kernel_.accesses_per_warp;
    line = (global_warp * stride_y + access * kernel_.stride_x) % lines_;
  }
  const std::uint32_t pick = static_cast<std::uint32_t>(h % 100);
  WarpStep::Kind kind = WarpStep::Kind::kLoad;
  if (pick < kernel_.atomic_percent) {
    kind = WarpStep::Kind::kAtomic;
  } else if (pick < kernel_.atomic_percent + kernel_.write_percent) {
    kind = WarpStep::Kind::kStore;
  }
  return {kind, 0, at(line)};
}

}  // namespace numagpu
