// The block-linear layout of a 2-D CUDA array (cudaMallocArray): where texel (x, y) lies in the array's
// memory. The CUDA C Programming Guide calls a CUDA array's layout opaque ("optimized for texture
// fetching"); NVIDIA's own description of it is the "block linear" surface format of the Tegra X1 Technical
// Reference Manual, the format of every NVIDIA GPU since Fermi that the open drivers (Mesa's nouveau
// nil, the Tegra texture tools) read and write:
// - a GOB ("group of bytes") is 512 B holding a 64 B x 8 row tile of the surface;
// - inside a GOB the bytes are packed in 32 B sectors of 16 B x 2 rows: two sectors side by side make
//   32 B x 2 rows (64 B), four of those stacked make the GOB's left 32 B x 8 rows (256 B), and its right half
//   follows;
// - a block is `block_height` GOBs stacked vertically (1 GOB wide), and the blocks follow one another row by
//   row across the surface.
// So a warp reading an aligned 8 x 4 tile of floats touches 4 sectors of one 128 B line, where a row-major
// array would need 4 lines; and a texel's neighbours below it are mostly in its own sector.
#pragma once

#include <cstdint>

namespace numagpu::kernels {

struct BlockLinear {
  static constexpr std::uint64_t kGobBytes = 512, kGobWidth = 64, kGobRows = 8;

  std::uint64_t width_bytes;        // a row's bytes (texels x bytes per texel)
  std::uint64_t block_height = 16;  // GOBs a block stacks (a power of two)

  std::uint64_t gobs_per_row() const { return (width_bytes + kGobWidth - 1) / kGobWidth; }
  // Bytes of a surface of `rows` rows: whole blocks in both directions.
  std::uint64_t bytes(std::uint64_t rows) const {
    const std::uint64_t block_rows = kGobRows * block_height;
    return (rows + block_rows - 1) / block_rows * gobs_per_row() * block_height * kGobBytes;
  }
  // The byte offset of byte `x` of row `y`.
  std::uint64_t offset(std::uint64_t x, std::uint64_t y) const {
    const std::uint64_t block_rows = kGobRows * block_height;
    const std::uint64_t block = (y / block_rows) * gobs_per_row() + x / kGobWidth;
    const std::uint64_t gob_in_block = (y % block_rows) / kGobRows;
    const std::uint64_t gx = x % kGobWidth, gy = y % kGobRows;
    const std::uint64_t in_gob =
        (gx / 32) * 256 + (gy / 2) * 64 + ((gx % 32) / 16) * 32 + (gy % 2) * 16 + gx % 16;
    return (block * block_height + gob_in_block) * kGobBytes + in_gob;
  }
};

}  // namespace numagpu::kernels
