// Walks every step of a library kernel on a cold cache and counts what the hand derivations of the kernel
// tests predict: distinct lines loaded and stored (per array by address range), barriers and memory steps
// per warp.
#pragma once

#include <cstdint>
#include <iterator>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"

namespace numagpu::kernels::testing {

struct Traffic {
  std::set<std::uint64_t> loaded, stored;
  std::vector<unsigned> barriers;      // per warp, CTA-major
  std::vector<unsigned> memory_steps;  // per warp: loads, stores and atomics
  std::uint64_t atomics = 0;           // atomic steps, all warps
  std::uint64_t load_requests = 0;     // line requests of all load steps (a line per step and warp)

  // Distinct lines of [base, base + bytes) in `lines`.
  static std::uint64_t within(const std::set<std::uint64_t>& lines, std::uint64_t base, std::uint64_t bytes) {
    return std::uint64_t(std::distance(lines.lower_bound(base), lines.lower_bound(base + bytes)));
  }
};

inline Traffic walk(const CppKernelProgram& p) {
  Traffic t;
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
      Step s;
      unsigned barriers = 0, memory = 0;
      for (std::uint32_t i = 0; p.step(cta, w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        if (s.kind == Step::Kind::kLoad || s.kind == Step::Kind::kStore || s.kind == Step::Kind::kAtomic)
          ++memory;
        if (s.kind == Step::Kind::kAtomic) ++t.atomics;
        if (s.kind == Step::Kind::kLoad) t.load_requests += s.line_count;
        for (unsigned l = 0; l < s.line_count; ++l) {
          if (s.kind == Step::Kind::kLoad || s.kind == Step::Kind::kAtomic) t.loaded.insert(s.lines[l]);
          if (s.kind == Step::Kind::kStore || s.kind == Step::Kind::kAtomic) t.stored.insert(s.lines[l]);
        }
      }
      t.barriers.push_back(barriers);
      t.memory_steps.push_back(memory);
    }
  }
  return t;
}

// A library kernel made at a fixed base, its allocations, its program and its walked traffic.
struct Run {
  std::vector<runtime::Allocation> arrays;
  CppKernelProgram program;
  Traffic traffic;
};

inline std::unique_ptr<Run> run(const std::string& kernel, const std::string& args,
                                unsigned line_bytes = 128) {
  std::unique_ptr<Kernel> k = make_kernel(kernel, args, std::uint64_t(1) << 32);
  std::vector<runtime::Allocation> arrays = k->allocations();
  auto r = std::unique_ptr<Run>(new Run{arrays, CppKernelProgram(kernel, std::move(k), line_bytes), {}});
  r->traffic = walk(r->program);
  return r;
}

// The allocation named `name` among a kernel's.
inline runtime::Allocation allocation(const std::vector<runtime::Allocation>& all, const std::string& name) {
  for (const runtime::Allocation& a : all)
    if (a.name == name) return a;
  throw std::out_of_range(name);
}

// Distinct lines of `lines` inside the allocation `name`.
inline std::uint64_t lines_in(const std::set<std::uint64_t>& lines,
                              const std::vector<runtime::Allocation>& all, const std::string& name) {
  const runtime::Allocation a = allocation(all, name);
  return Traffic::within(lines, a.base, a.bytes);
}

}  // namespace numagpu::kernels::testing
