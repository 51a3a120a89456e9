// The b+tree kernels' tests' small tree (rodinia_btree_findK_test.cpp, rodinia_btree_findRangeK_test.cpp):
// the lines one search for a key reads, derived by hand from the tree's layout.
#pragma once

#include <cstdint>
#include <set>
#include <utility>

#include "traffic.hpp"

namespace numagpu::kernels::testing {

// The b+tree tests' small tree: keys 0 .. 9,999 inserted ascending, so leaf i (knode 1 + i) holds 128 i ..
// 128 i + 127 (the last, knode 78, 9,856 .. 9,999) and the root (knode 0) keys[i] = 128 i, i = 1 .. 77;
// knodes of 2,068 B with indices[] at byte 4 and keys[] at byte 1,032. A search for `key` reads the root's
// keys[0..255] (bytes 1,032 .. 2,055) and its indices[j] (byte 4 + 4 j) for the root slot j = min(key /
// 128, 77), then leaf n = 1 + j's keys (bytes 2,068 n + 1,032 .. 2,068 n + 2,055) and its indices[t]
// (byte 2,068 n + 4 + 4 t) for the leaf slot t = key - 128 j + 1. Adds those lines (relative to the knodes
// array) to `lines`; returns {j, t}.
inline std::pair<std::int64_t, std::int64_t> small_tree_search(std::int64_t key,
                                                               std::set<std::uint64_t>& lines) {
  constexpr std::uint64_t kKnodeBytes = 2068;
  const std::int64_t j = key / 128 < 77 ? key / 128 : 77, t = key - 128 * j + 1;
  const std::uint64_t leaf = std::uint64_t(1 + j);
  for (std::uint64_t byte = 1032; byte <= 2055; byte += 4)
    lines.insert(byte / kTrafficLine);
  lines.insert(std::uint64_t(4 + 4 * j) / kTrafficLine);
  for (std::uint64_t byte = kKnodeBytes * leaf + 1032; byte <= kKnodeBytes * leaf + 2055; byte += 4)
    lines.insert(byte / kTrafficLine);
  lines.insert((kKnodeBytes * leaf + 4 + 4 * std::uint64_t(t)) / kTrafficLine);
  return {j, t};
}

}  // namespace numagpu::kernels::testing
