// calculate_temp, the kernel of hotspot.cu and hotspot_app.cu, and its CPU reference: the CUDA version of the
// C++ library kernel rodinia/hotspot (models/kernels/rodinia/hotspot.cpp). A CTA of 16 x 16 threads loads a
// tile of the temperature and power grids (with a halo of `pyramid` cells) into shared memory and advances
// `pyramid` time steps in it, each step shrinking the valid region by one cell a side; the inner
// (16 - 2 pyramid)^2 cells are written. As the library kernel: the update is computed in double (Rodinia's
// literal 2.0), neighbours are clamped to the cells inside the grid.
#pragma once

#include <vector>

#include "common.h"

constexpr int kHotspotBlock = 16;

struct HotspotChip {  // the kernel's physical arguments (their values steer nothing)
  float cap, rx, ry, rz, step, ambient;
};

__global__ void calculate_temp(int pyramid, const float* power, const float* temp_src, float* temp_dst,
                               int cols, int rows, HotspotChip chip) {
  __shared__ float temp[kHotspotBlock][kHotspotBlock];
  __shared__ float power_tile[kHotspotBlock][kHotspotBlock];
  __shared__ float next[kHotspotBlock][kHotspotBlock];

  const int small = kHotspotBlock - 2 * pyramid;  // the cells a CTA computes, per side
  const int blk_y = small * (int)blockIdx.y - pyramid, blk_x = small * (int)blockIdx.x - pyramid;
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int y = blk_y + ty, x = blk_x + tx;
  const long long index = (long long)y * cols + x;

  const float step_div_cap = chip.step / chip.cap;
  const float rx_1 = 1.0f / chip.rx, ry_1 = 1.0f / chip.ry, rz_1 = 1.0f / chip.rz;

  if (y >= 0 && y <= rows - 1 && x >= 0 && x <= cols - 1) {
    temp[ty][tx] = temp_src[index];
    power_tile[ty][tx] = power[index];
  }
  __syncthreads();

  // The tile's cells inside the grid, and each thread's neighbours clamped to them.
  const int valid_y0 = blk_y < 0 ? -blk_y : 0, valid_x0 = blk_x < 0 ? -blk_x : 0;
  const int blk_y1 = blk_y + kHotspotBlock - 1, blk_x1 = blk_x + kHotspotBlock - 1;
  const int valid_y1 = blk_y1 > rows - 1 ? kHotspotBlock - 1 - (blk_y1 - rows + 1) : kHotspotBlock - 1;
  const int valid_x1 = blk_x1 > cols - 1 ? kHotspotBlock - 1 - (blk_x1 - cols + 1) : kHotspotBlock - 1;
  const int north = max(ty - 1, valid_y0), south = min(ty + 1, valid_y1);
  const int west = max(tx - 1, valid_x0), east = min(tx + 1, valid_x1);

  bool computed = false;
  for (int i = 0; i < pyramid; ++i) {
    computed = false;
    if (tx >= i + 1 && tx <= kHotspotBlock - i - 2 && ty >= i + 1 && ty <= kHotspotBlock - i - 2 &&
        tx >= valid_x0 && tx <= valid_x1 && ty >= valid_y0 && ty <= valid_y1) {
      computed = true;
      const float t = temp[ty][tx];
      next[ty][tx] =
          t + step_div_cap * (power_tile[ty][tx] + (temp[south][tx] + temp[north][tx] - 2.0 * t) * ry_1 +
                              (temp[ty][east] + temp[ty][west] - 2.0 * t) * rx_1 + (chip.ambient - t) * rz_1);
    }
    __syncthreads();
    if (i == pyramid - 1) break;
    if (computed) temp[ty][tx] = next[ty][tx];
    __syncthreads();
  }
  if (computed) temp_dst[index] = next[ty][tx];
}

// The grid that `steps` time steps of the same update give on the CPU (neighbours clamped at the edges).
inline std::vector<float> hotspot_reference(std::vector<float> temp, const std::vector<float>& power,
                                            int rows, int cols, int steps, const HotspotChip& chip) {
  const float step_div_cap = chip.step / chip.cap;
  const float rx_1 = 1.0f / chip.rx, ry_1 = 1.0f / chip.ry, rz_1 = 1.0f / chip.rz;
  std::vector<float> next(temp.size());
  for (int s = 0; s < steps; ++s) {
    for (int y = 0; y < rows; ++y) {
      for (int x = 0; x < cols; ++x) {
        const int n = y > 0 ? y - 1 : 0, so = y < rows - 1 ? y + 1 : rows - 1;
        const int w = x > 0 ? x - 1 : 0, e = x < cols - 1 ? x + 1 : cols - 1;
        const float t = temp[(size_t)y * cols + x];
        next[(size_t)y * cols + x] =
            t + step_div_cap * (power[(size_t)y * cols + x] +
                                (temp[(size_t)so * cols + x] + temp[(size_t)n * cols + x] - 2.0 * t) * ry_1 +
                                (temp[(size_t)y * cols + e] + temp[(size_t)y * cols + w] - 2.0 * t) * rx_1 +
                                (chip.ambient - t) * rz_1);
      }
    }
    temp.swap(next);
  }
  return temp;
}

// One launch of `pyramid` steps over the whole grid.
inline void launch_calculate_temp(int pyramid, const float* power, const float* src, float* dst, int rows,
                                  int cols, const HotspotChip& chip) {
  const int small = kHotspotBlock - 2 * pyramid;
  dim3 grid((cols + small - 1) / small, (rows + small - 1) / small);
  calculate_temp<<<grid, dim3(kHotspotBlock, kHotspotBlock)>>>(pyramid, power, src, dst, cols, rows, chip);
}

// Stable constants (step / Cap * 5 < 1).
inline HotspotChip hotspot_chip() {
  return {1.0f, 1.0f, 1.0f, 1.0f, 0.05f, 80.0f};
}

// The input: temperatures of 300 .. 340 K, a little power per cell, from the LCG seeded with `seed`.
inline void hotspot_input(unsigned seed, std::vector<float>& power, std::vector<float>& temp) {
  Lcg rng(seed);
  for (size_t i = 0; i < power.size(); ++i) {
    power[i] = 0.5f * rng.uniform();
    temp[i] = 300.0f + 40.0f * rng.uniform();
  }
}
