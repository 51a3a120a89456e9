// Walking every step of a library kernel on a cold cache, for the kernel tests' hand-counted traffic: the
// distinct lines loaded, stored and touched by atomics (all and per array), the memory steps and barriers of
// each warp, and the program's instruction and shared-memory totals. The one walker of the kernel tests:
// every test of tests/unit/kernels counts through it (two `Traffic` structs of one name once broke the
// one-definition rule; the test odr_test_kernels, cmake/OdrCheck.cmake, now fails on such a clash).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels::testing {

constexpr unsigned kTrafficLine = 128;                          // the line size the tests coalesce to
constexpr std::uint64_t kTrafficBase = std::uint64_t(1) << 32;  // where the kernels' arrays start

// The expected value of Traffic::steps(): {CTAs, load steps, store steps}.
using Steps = std::array<std::uint64_t, 3>;

struct Traffic {
  std::set<std::uint64_t> loaded, stored, atomic;  // distinct lines (line-aligned addresses) per step kind
  std::uint64_t load_steps = 0, store_steps = 0, atomic_steps = 0;
  std::uint64_t load_line_visits = 0, store_line_visits = 0;  // the steps' lines summed
  std::uint64_t load_sector_visits = 0;  // the load steps' 32 B sectors summed (Step::sectors; 0: all 4)
  std::vector<unsigned> barriers;        // per warp, CTA-major
  std::vector<unsigned> memory_steps;    // per warp, CTA-major: loads, stores and atomics
  std::uint64_t ctas = 0, warps_per_cta = 0;
  std::uint64_t shared_accesses = 0, shared_wavefronts = 0;
  std::array<std::uint64_t, static_cast<unsigned>(InstrClass::kCount)> instructions{};  // warp instructions
  double generation_seconds = 0;  // host time spent running the CTAs' bodies
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> arrays;  // name -> [first, end) byte

  std::uint64_t of(InstrClass c) const { return instructions[static_cast<unsigned>(c)]; }
  // CTAs, load steps and store steps: the three counts most tests derive by hand, compared in one assertion.
  std::array<std::uint64_t, 3> steps() const { return {ctas, load_steps, store_steps}; }
  // The distinct barrier counts of the warps (one element: every warp alike).
  std::set<unsigned> barrier_counts() const { return {barriers.begin(), barriers.end()}; }
  // Distinct lines of `set` (line-aligned addresses) inside the array `name`.
  std::uint64_t in(const std::set<std::uint64_t>& set, const std::string& name) const {
    const auto& r = arrays.at(name);
    std::uint64_t n = 0;
    for (std::uint64_t l : set)
      if (l >= r.first / kTrafficLine * kTrafficLine && l < r.second) ++n;
    return n;
  }
};

// Walks every step of every warp of `p`; `arrays` (the kernel's allocations) name the ranges in() counts.
inline Traffic walk(const CppKernelProgram& p, const std::vector<runtime::Allocation>& arrays) {
  Traffic t;
  for (const runtime::Allocation& a : arrays)
    t.arrays[a.name] = {a.base, a.base + a.bytes};
  t.ctas = p.ctas();
  t.warps_per_cta = p.warps_per_cta();
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
      Step s;
      unsigned barriers = 0, memory = 0;
      for (std::uint32_t i = 0; p.step(cta, w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind == Step::Kind::kLoad) ++t.load_steps, ++memory, t.load_line_visits += s.line_count;
        if (s.kind == Step::Kind::kStore) ++t.store_steps, ++memory, t.store_line_visits += s.line_count;
        if (s.kind == Step::Kind::kAtomic) ++t.atomic_steps, ++memory;
        for (unsigned l = 0; l < s.line_count; ++l) {
          if (s.kind == Step::Kind::kLoad) {
            t.loaded.insert(s.lines[l]);
            t.load_sector_visits +=
                s.sectors[l] ? unsigned(__builtin_popcount(s.sectors[l])) : kTrafficLine / 32;
          }
          if (s.kind == Step::Kind::kStore) t.stored.insert(s.lines[l]);
          if (s.kind == Step::Kind::kAtomic) t.atomic.insert(s.lines[l]);
        }
      }
      t.barriers.push_back(barriers);
      t.memory_steps.push_back(memory);
    }
  }
  t.shared_accesses = p.totals().shared_accesses;
  t.shared_wavefronts = p.totals().shared_wavefronts;
  t.instructions = p.totals().instructions;
  t.generation_seconds = p.totals().generation_seconds;
  return t;
}

// Library kernel `kernel` with `args`, its arrays from kTrafficBase on, walked on a cold cache. `after`, if
// given, sees the kernel once every CTA has run (its arrays' values, for data-dependent checks).
inline Traffic walk(const std::string& kernel, const std::string& args,
                    const std::function<void(const Kernel&)>& after = {}) {
  std::unique_ptr<Kernel> k = make_kernel(kernel, args, kTrafficBase);
  const Kernel* raw = k.get();
  const std::vector<runtime::Allocation> arrays = k->allocations();
  const CppKernelProgram p(kernel, std::move(k), kTrafficLine);
  Traffic t = walk(p, arrays);
  if (after) after(*raw);
  return t;
}

}  // namespace numagpu::kernels::testing
