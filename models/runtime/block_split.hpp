// BlockSplit: the one rule every "contiguous chunks" policy of the runtime shares
// (docs/runtime-policies.md). `units` consecutive units (CTAs, grid rows, grid columns, elements, data rows)
// are cut into `parts` contiguous parts whose sizes differ by at most one: every part gets floor(units /
// parts) units and the first units % parts parts get one more. With fewer units than parts, unit u is part u
// and the last parts are empty.
//
// Keeping a single rule is what makes the schedules and the placements agree: contiguous CTA scheduling and
// kernel-wide placement, or row binding and row-based placement, cut the same way when their unit counts are
// proportional.
#pragma once

#include <cstdint>

namespace numagpu::runtime {

class BlockSplit {
 public:
  // parts must be >= 1 (callers validate; a partition into zero parts has no meaning).
  constexpr BlockSplit(std::uint64_t units, std::uint64_t parts)
      : units_(units), parts_(parts), small_(units / parts), extra_(units % parts) {}

  std::uint64_t units() const { return units_; }
  std::uint64_t parts() const { return parts_; }

  // The part holding unit u (u < units).
  constexpr std::uint64_t part_of(std::uint64_t u) const {
    // The first extra_ parts hold small_ + 1 units each; small_ >= 1 whenever u falls beyond them.
    const std::uint64_t big_span = extra_ * (small_ + 1);
    return u < big_span ? u / (small_ + 1) : extra_ + (u - big_span) / small_;
  }
  // First unit of part p, and its unit count (p < parts).
  constexpr std::uint64_t begin(std::uint64_t p) const { return p * small_ + (p < extra_ ? p : extra_); }
  constexpr std::uint64_t size(std::uint64_t p) const { return small_ + (p < extra_ ? 1 : 0); }

 private:
  std::uint64_t units_;
  std::uint64_t parts_;
  std::uint64_t small_;  // floor(units / parts)
  std::uint64_t extra_;  // parts that get one unit more
};

}  // namespace numagpu::runtime
