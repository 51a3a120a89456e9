// The state the CUDA samples' mergeSort leaves before a merge stage, built on the host for the library's
// mergeSort kernels (cuda-samples/mergeSort_*.cpp): keys uniform in [0, 65,536) (the sample's rand() %
// 65,536; here std::mt19937 seeded with `seed`), values their index, sorted stably in runs of `stride`
// (what mergeSortShared and the earlier stages produce); and the sample ranks and limits that
// generateSampleRanksKernel and mergeRanksAndIndicesKernel compute from them (ascending sort, full runs).
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "kernels/library.hpp"

namespace numagpu::kernels::merge_sort {

constexpr std::uint64_t kSample = 128;  // SAMPLE_STRIDE

inline void sorted_runs(std::uint64_t n, std::uint64_t stride, std::uint32_t seed,
                        std::vector<std::uint32_t>& keys, std::vector<std::uint32_t>& vals) {
  std::mt19937 rng(seed);
  std::vector<std::uint32_t> raw;
  resize_interruptibly(raw, n);
  for (std::uint32_t& k : raw) {
    interrupt_point();
    k = rng() % 65536u;
  }
  resize_interruptibly(keys, n);
  resize_interruptibly(vals, n);
  std::vector<std::uint32_t> order;
  resize_interruptibly(order, stride);
  for (std::uint64_t run = 0; run < n; run += stride) {
    std::iota(order.begin(), order.end(), std::uint32_t(run));
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t x, std::uint32_t y) {
      interrupt_point();  // a run of 2^27 keys takes seconds to sort
      return raw[x] < raw[y];
    });
    for (std::uint64_t i = 0; i < stride; ++i) {
      keys[run + i] = raw[order[i]];
      vals[run + i] = order[i];
    }
  }
}

// generateSampleRanksKernel's output: per segment of two runs (sample index base / 128), A's samples'
// positions in A and ranks in B (keys < them), then B's samples' ranks in A (keys <= them) and positions.
inline void sample_ranks(const std::vector<std::uint32_t>& keys, std::uint64_t stride,
                         std::vector<std::uint32_t>& ranks_a, std::vector<std::uint32_t>& ranks_b) {
  const std::uint64_t n = keys.size(), samples = stride / kSample;
  ranks_a.assign(n / kSample, 0);
  ranks_b.assign(n / kSample, 0);
  for (std::uint64_t base = 0; base < n; base += 2 * stride) {
    const auto a = keys.begin() + std::int64_t(base), b = a + std::int64_t(stride);
    const std::uint64_t at = base / kSample;
    for (std::uint64_t i = 0; i < samples; ++i) {
      ranks_a[at + i] = std::uint32_t(i * kSample);
      ranks_b[at + i] =
          std::uint32_t(std::lower_bound(b, b + std::int64_t(stride), a[std::int64_t(i * kSample)]) - b);
      ranks_b[at + samples + i] = std::uint32_t(i * kSample);
      ranks_a[at + samples + i] =
          std::uint32_t(std::upper_bound(a, a + std::int64_t(stride), b[std::int64_t(i * kSample)]) - a);
    }
  }
}

// mergeRanksAndIndicesKernel's output for one ranks array: per segment, A's ranks placed after the B ranks
// below them (exclusive), B's after the A ranks at or below them (inclusive).
inline void limits(const std::vector<std::uint32_t>& ranks, std::uint64_t stride,
                   std::vector<std::uint32_t>& out) {
  const std::uint64_t samples = stride / kSample;
  out.assign(ranks.size(), 0);
  for (std::uint64_t at = 0; at < ranks.size(); at += 2 * samples) {
    const auto a = ranks.begin() + std::int64_t(at), b = a + std::int64_t(samples);
    for (std::uint64_t i = 0; i < samples; ++i) {
      out[at + std::uint64_t(std::lower_bound(b, b + std::int64_t(samples), a[std::int64_t(i)]) - b) + i] =
          a[std::int64_t(i)];
      out[at + std::uint64_t(std::upper_bound(a, a + std::int64_t(samples), b[std::int64_t(i)]) - a) + i] =
          b[std::int64_t(i)];
    }
  }
}

}  // namespace numagpu::kernels::merge_sort
