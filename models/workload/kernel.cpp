#include "workload/kernel.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

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
  if (pattern == "stream_triad" || pattern == "random_gather" || pattern == "gemm_tiled" ||
      pattern == "bfs_frontier") {
    return 3;
  }
  if (pattern == "reduction_to_one" || pattern == "transpose") return 2;
  if (pattern == "spmv_csr") return 4;
  if (pattern == "stencil2d") return 6;
  if (pattern == "stencil3d") return 8;
  return 1;
}

WarpProgram::WarpProgram(const KernelSpec& kernel, unsigned line_bytes)
    : kernel_(kernel),
      line_bytes_(line_bytes),
      lines_(kernel.footprint_lines(line_bytes)),
      ops_(ops_per_access(kernel.pattern)),
      pattern_(pattern_of(kernel.pattern)) {
  if (lines_ == 0) throw std::invalid_argument("kernel footprint is empty");
}

WarpProgram::Pattern WarpProgram::pattern_of(const std::string& pattern) {
  static const std::pair<const char*, Pattern> kNames[] = {{"stream_triad", Pattern::kStreamTriad},
                                                           {"reduction_to_one", Pattern::kReductionToOne},
                                                           {"random_gather", Pattern::kRandomGather},
                                                           {"transpose", Pattern::kTranspose},
                                                           {"stencil2d", Pattern::kStencil},
                                                           {"stencil3d", Pattern::kStencil},
                                                           {"gemm_tiled", Pattern::kGemmTiled},
                                                           {"spmv_csr", Pattern::kSpmvCsr},
                                                           {"bfs_frontier", Pattern::kBfsFrontier},
                                                           {"histogram", Pattern::kHistogram},
                                                           {"random", Pattern::kRandom},
                                                           {"strided", Pattern::kStrided}};
  for (const auto& [name, p] : kNames) {
    if (pattern == name) return p;
  }
  return Pattern::kOther;
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
  if (pattern_ ==
      Pattern::kStreamTriad) {  // c[i] = a[i] + s * b[i]: arrays a, b, c of lines_ lines each, back to back
    const WarpStep::Kind kind = op < 2 ? WarpStep::Kind::kLoad : WarpStep::Kind::kStore;
    return {kind, 0, at(op * lines_ + streamed)};
  }
  if (pattern_ == Pattern::kReductionToOne) {
    if (op == 0) return {WarpStep::Kind::kLoad, 0, at(streamed)};
    // Every CTA adds into one small output region, at the first GiB boundary after the input: one page
    // under page-interleaved placement, so all of it is homed at one socket.
    const std::uint64_t giga = std::uint64_t(1) << 30;
    const std::uint64_t out_base = (kernel_.base_address + lines_ * line_bytes_ + giga - 1) / giga * giga;
    const std::uint64_t out_lines = std::max<std::uint64_t>(1, kernel_.output_bytes / line_bytes_);
    return {WarpStep::Kind::kStore, 0, out_base + (cta % out_lines) * line_bytes_};
  }
  // Arrays after the first start lines_ lines apart: array n of the pattern is at line n x lines_.
  auto array = [this, &at](unsigned n, std::uint64_t line) { return at(n * lines_ + line); };
  // A power-law-like choice of one of lines_ lines: low lines are far more popular (u^3, u uniform).
  auto popular = [this, h](std::uint64_t salt) {
    const double u = double(mix64(h ^ salt) >> 11) / double(std::uint64_t(1) << 53);
    return std::min<std::uint64_t>(lines_ - 1, static_cast<std::uint64_t>(double(lines_) * u * u * u));
  };
  if (pattern_ ==
      Pattern::kRandomGather) {  // out[i] = table[idx[i]]: idx and out streamed, table read at random
    if (op == 0) return {WarpStep::Kind::kLoad, 0, array(0, streamed)};
    if (op == 1) return {WarpStep::Kind::kLoad, 0, array(1, mix64(h) % lines_)};
    return {WarpStep::Kind::kStore, 0, array(2, streamed)};
  }
  if (pattern_ == Pattern::kTranspose) {  // out[c][r] = in[r][c] over a matrix of width_lines columns
    const std::uint64_t cols = std::max<std::uint64_t>(1, kernel_.width_lines);
    const std::uint64_t rows = std::max<std::uint64_t>(1, lines_ / cols);
    if (op == 0) return {WarpStep::Kind::kLoad, 0, array(0, streamed)};
    const std::uint64_t r = (streamed / cols) % rows, c = streamed % cols;
    return {WarpStep::Kind::kStore, 0, array(1, c * rows + r)};
  }
  if (pattern_ == Pattern::kStencil) {
    // Neighbours of point `streamed` on a grid of width_lines x height_lines (x planes): off-grid neighbours
    // read the point itself. Last op: the store of the result into the output grid.
    const unsigned last = ops_ - 1;
    if (op == last) return {WarpStep::Kind::kStore, 0, array(1, streamed)};
    const std::int64_t w = std::int64_t(std::max<std::uint64_t>(1, kernel_.width_lines));
    const std::int64_t plane = w * std::int64_t(std::max<std::uint64_t>(1, kernel_.height_lines));
    const std::int64_t offsets[7] = {0, -1, 1, -w, w, -plane, plane};
    const std::int64_t n = std::int64_t(streamed) + offsets[op];
    const bool inside = n >= 0 && n < std::int64_t(lines_) && (op > 2 || n / w == std::int64_t(streamed) / w);
    return {WarpStep::Kind::kLoad, 0, array(0, inside ? std::uint64_t(n) : streamed)};
  }
  if (pattern_ == Pattern::kGemmTiled) {
    // C[i][j] += A[i][k] B[k][j] with a tile per CTA: CTA (i, j) on a grid_x-wide grid of tiles reads row i
    // of A and column j of B (shared with its grid row and column), k stepping with the access and warp.
    const std::uint64_t gx = kernel_.grid_x ? kernel_.grid_x : 1;
    const std::uint64_t i = cta / gx, j = cta % gx;
    const std::uint64_t k = access * kernel_.warps_per_cta + warp;
    if (op == 0)
      return {WarpStep::Kind::kLoad, 0,
              array(0, (i * kernel_.accesses_per_warp * kernel_.warps_per_cta + k) % lines_)};
    if (op == 1) return {WarpStep::Kind::kLoad, 0, array(1, (k * gx + j) % lines_)};
    return {WarpStep::Kind::kStore, 0,
            array(2, (std::uint64_t(cta) * kernel_.warps_per_cta + warp) % lines_)};
  }
  if (pattern_ ==
      Pattern::kSpmvCsr) {  // y[r] = sum A[r][c] x[c]: row pointer, column index, x[c] (power-law), y[r]
    if (op == 0) return {WarpStep::Kind::kLoad, 0, array(0, streamed)};
    if (op == 1) return {WarpStep::Kind::kLoad, 0, array(1, streamed)};
    if (op == 2) return {WarpStep::Kind::kLoad, 0, array(2, popular(0x5eed))};
    return {WarpStep::Kind::kStore, 0, array(3, streamed)};
  }
  if (pattern_ ==
      Pattern::kBfsFrontier) {  // frontier vertex, one of its (power-law) neighbours, mark it visited
    if (op == 0) return {WarpStep::Kind::kLoad, 0, array(0, streamed)};
    const std::uint64_t v = popular(0xbf5);
    if (op == 1) return {WarpStep::Kind::kLoad, 0, array(1, v)};
    return {WarpStep::Kind::kAtomic, 0, array(2, v)};
  }
  if (pattern_ == Pattern::kHistogram) {  // atomic increments of random bins
    const std::uint64_t bins = std::max<std::uint64_t>(1, kernel_.bins_bytes / line_bytes_);
    return {WarpStep::Kind::kAtomic, 0, at(mix64(h) % bins)};
  }
  std::uint64_t line = streamed;
  if (pattern_ == Pattern::kRandom) {
    line = mix64(h) % lines_;
  } else if (pattern_ == Pattern::kStrided) {
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
