// Test helper for the Rodinia kernels' tests: runs every warp of a library kernel on a cold cache and
// gathers what the hand counts are checked against (distinct lines loaded and stored, per array too,
// barriers and memory steps per warp).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "kernels/cpp_program.hpp"

namespace numagpu::kernels::test {

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
  return w;
}

}  // namespace numagpu::kernels::test
