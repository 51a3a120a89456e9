// Test helper for the Rodinia kernels' tests: runs every warp of a library kernel on a cold cache and
// gathers what the hand counts are checked against (distinct lines loaded and stored, per array too,
// barriers and memory steps per warp).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels::test {

constexpr unsigned kLine = 128;                          // the line size the tests coalesce to
constexpr std::uint64_t kBase = std::uint64_t(1) << 32;  // where the kernels' arrays start

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
    lines.insert(byte / kLine);
  lines.insert(std::uint64_t(4 + 4 * j) / kLine);
  for (std::uint64_t byte = kKnodeBytes * leaf + 1032; byte <= kKnodeBytes * leaf + 2055; byte += 4)
    lines.insert(byte / kLine);
  lines.insert((kKnodeBytes * leaf + 4 + 4 * std::uint64_t(t)) / kLine);
  return {j, t};
}

struct Walk {
  std::set<std::uint64_t> loaded, stored;
  std::vector<unsigned> barriers;      // per (cta, warp), cta-major
  std::vector<unsigned> memory_steps;  // loads, stores and atomics per (cta, warp)
  // Distinct lines of `lines` inside the allocation named `array`.
  std::uint64_t in(const std::set<std::uint64_t>& lines, const std::string& array) const {
    const auto it = ranges.find(array);
    if (it == ranges.end()) return ~std::uint64_t(0);
    std::uint64_t n = 0;
    for (std::uint64_t l : lines)
      if (l + 128 > it->second.first && l < it->second.second) ++n;
    return n;
  }
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> ranges;  // name -> [base, end)
  std::uint32_t ctas = 0, warps_per_cta = 0;
  double generation_seconds = 0;  // host time spent running the CTAs' bodies
};

// `allocations`: the kernel's arrays (those of a second instance made with the same arguments and base).
inline Walk walk(const CppKernelProgram& p, const std::vector<runtime::Allocation>& allocations) {
  Walk w;
  for (const runtime::Allocation& a : allocations)
    w.ranges[a.name] = {a.base, a.base + a.bytes};
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t warp = 0; warp < p.warps_per_cta(); ++warp) {
      Step s;
      unsigned barriers = 0, memory = 0;
      for (std::uint32_t i = 0; p.step(cta, warp, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind == Step::Kind::kLoad || s.kind == Step::Kind::kStore || s.kind == Step::Kind::kAtomic)
          ++memory;
        for (unsigned l = 0; l < s.line_count; ++l) {
          if (s.kind == Step::Kind::kLoad) w.loaded.insert(s.lines[l]);
          if (s.kind == Step::Kind::kStore) w.stored.insert(s.lines[l]);
        }
      }
      w.barriers.push_back(barriers);
      w.memory_steps.push_back(memory);
    }
  }
  w.ctas = p.ctas();
  w.warps_per_cta = p.warps_per_cta();
  w.generation_seconds = p.totals().generation_seconds;
  return w;
}

// Library kernel `name` with `args`, its arrays from kBase on, walked on a cold cache.
inline Walk walk(const std::string& name, const std::string& args) {
  const CppKernelProgram p(name, make_kernel(name, args, kBase), kLine);
  return walk(p, make_kernel(name, args, kBase)->allocations());
}

}  // namespace numagpu::kernels::test
