// Walking every step of a library kernel, for the tests' hand-counted traffic: the distinct lines loaded,
// stored and touched by atomics (all and per array), and the barriers of each warp.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels::testing {

constexpr unsigned kTrafficLine = 128;
constexpr std::uint64_t kTrafficBase = std::uint64_t(1) << 32;

struct Traffic {
  std::set<std::uint64_t> loaded, stored, atomic;
  std::uint64_t load_steps = 0, store_steps = 0, atomic_steps = 0;
  std::uint64_t load_line_visits = 0, store_line_visits = 0;  // the steps' lines summed
  std::set<unsigned> barriers_per_warp;  // the distinct counts seen (one element: every warp alike)
  std::uint64_t ctas = 0, warps_per_cta = 0;
  std::uint64_t shared_accesses = 0, shared_wavefronts = 0;
  std::array<std::uint64_t, static_cast<unsigned>(InstrClass::kCount)> instructions{};  // warp instructions
  std::uint64_t of(InstrClass c) const { return instructions[static_cast<unsigned>(c)]; }
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> arrays;  // name -> [first, end) byte

  // Distinct lines of `set` (line-aligned addresses) inside the array `name`.
  std::uint64_t in(const std::set<std::uint64_t>& set, const std::string& name) const {
    const auto& r = arrays.at(name);
    std::uint64_t n = 0;
    for (std::uint64_t l : set)
      if (l >= r.first / kTrafficLine * kTrafficLine && l < r.second) ++n;
    return n;
  }
};

// Walks every step of every warp of `p` into `t` (what walk() and the applications' walker count).
inline void walk_program(CppKernelProgram& p, Traffic& t) {
  t.ctas = p.ctas();
  t.warps_per_cta = p.warps_per_cta();
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
      Step s;
      unsigned barriers = 0;
      for (std::uint32_t i = 0; p.step(cta, w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind == Step::Kind::kLoad) ++t.load_steps, t.load_line_visits += s.line_count;
        if (s.kind == Step::Kind::kStore) ++t.store_steps, t.store_line_visits += s.line_count;
        if (s.kind == Step::Kind::kAtomic) ++t.atomic_steps;
        for (unsigned l = 0; l < s.line_count; ++l) {
          if (s.kind == Step::Kind::kLoad) t.loaded.insert(s.lines[l]);
          if (s.kind == Step::Kind::kStore) t.stored.insert(s.lines[l]);
          if (s.kind == Step::Kind::kAtomic) t.atomic.insert(s.lines[l]);
        }
      }
      t.barriers_per_warp.insert(barriers);
    }
  }
  t.shared_accesses = p.totals().shared_accesses;
  t.shared_wavefronts = p.totals().shared_wavefronts;
  t.instructions = p.totals().instructions;
}

// `after`, if given, sees the kernel once every CTA has run (its arrays' values, for data-dependent checks).
inline Traffic walk(const std::string& kernel, const std::string& args,
                    const std::function<void(const Kernel&)>& after = {}) {
  std::unique_ptr<Kernel> k = make_kernel(kernel, args, kTrafficBase);
  const Kernel* raw = k.get();
  Traffic t;
  for (const runtime::Allocation& a : k->allocations())
    t.arrays[a.name] = {a.base, a.base + a.bytes};
  CppKernelProgram p(kernel, std::move(k), kTrafficLine);
  walk_program(p, t);
  if (after) after(*raw);
  return t;
}

}  // namespace numagpu::kernels::testing
