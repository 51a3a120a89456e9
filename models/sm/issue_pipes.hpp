// The SM's issue bandwidth and execution pipes, as throughput: how soon the warp instructions of a bundle can
// all have issued, and when the SM has an issue slot free again.
//
// A compute step of a C++ kernel bundles N warp instructions (kernels/simt.hpp). Without this model the
// bundle took one issue slot and its warp was busy for its cycles while other warps issued: an SM with 64
// warps computing could retire 64 instructions a cycle, where a Volta SM issues at most 4 (one per
// processing block). Here a bundle of N instructions takes N issue slots (issue_width a cycle, SM-wide), and
// the instructions of each class occupy that class's pipe: a pipe of L lanes accepts L/32 warp instructions
// a cycle (a Volta SM's 64 FP32 lanes: 2 a cycle; its 32 FP64 lanes: 1; its 16 SFU lanes: 1 every 2 cycles).
// The bundle has issued when the last of its instructions has had both its slot and its pipe.
//
// Three structures are held by passes rather than instructions: the shared pipe takes one more pass per
// bank-conflict replay of a shared access (one pass of a warp access a cycle per 32 shared lanes), the FP64
// pipe one more pass per conversion between float and double (half a DFMA's rate), and the SM's constant
// cache serves `constant_ports` distinct addresses a cycle, however many of its warps read constants (a
// warp's constant read takes one pass per distinct address it reads).
//
// Time is kept in ticks, kTicks to a cycle, so that 1/issue_width and 32/lanes of a cycle are whole numbers
// for every issue width and constant-cache port count 1..8 (840 = lcm(1..8)) and lane count dividing 32 x 840
// (2, 4, 8, 16, 32, 64, 128, 3, 5, 6, 7, ...); other lane counts round a warp instruction's time up to the
// next tick (under 2^-15 of a cycle). With one instruction per step (synthetic patterns, traces) and no lanes
// set, it issues exactly issue_width steps a cycle, as before.
//
// Plain C++, no SystemC.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "workload/program.hpp"

namespace numagpu {

class IssuePipes {
 public:
  using Cycle = std::uint64_t;
  static constexpr std::uint64_t kTicks = 840 * 32;

  // issue_width: warp instructions a cycle; lanes[c]: the lanes of class c's pipe (0: no limit);
  // constant_ports: constant-cache passes a cycle (0: no limit).
  IssuePipes(unsigned issue_width, const std::array<std::uint32_t, kInstrClasses>& lanes,
             unsigned constant_ports = 0)
      : issue_cost_(kTicks / std::max(1u, issue_width)),
        constant_cost_(constant_ports ? (kTicks + constant_ports - 1) / constant_ports : 0) {
    for (unsigned c = 0; c < kInstrClasses; ++c)
      pipe_cost_[c] = lanes[c] ? (32 * kTicks + lanes[c] - 1) / lanes[c] : 0;
  }

  // True when an instruction may issue in cycle `now` (a slot of that cycle is free).
  bool can_issue(Cycle now) const { return issue_free_ < (now + 1) * kTicks; }
  // The first cycle with a free issue slot, at or after `now`.
  Cycle next_free_cycle(Cycle now) const { return std::max(now, issue_free_ / kTicks); }

  // One instruction with no pipe of its own (memory, barrier, unclassified compute): one issue slot.
  void issue_one(Cycle now) { issue_free_ = std::max(issue_free_, now * kTicks) + issue_cost_; }

  // A bundle of `instructions` instructions, `classes[c]` of them of class c (the rest unclassified), issued
  // from cycle `now`, with `shared_replays` extra passes of the shared pipe, `fp64_passes` extra passes of
  // the FP64 pipe and `constant_passes` passes of the constant cache. Returns the cycle after its last
  // instruction issued (when its warp may go on, at the earliest).
  Cycle issue_bundle(Cycle now, std::uint32_t instructions,
                     const std::array<std::uint32_t, kInstrClasses>& classes,
                     std::uint32_t shared_replays = 0, std::uint32_t constant_passes = 0,
                     std::uint32_t fp64_passes = 0) {
    const std::uint64_t start = now * kTicks;
    issue_free_ = std::max(issue_free_, start) + std::uint64_t(instructions) * issue_cost_;
    std::uint64_t end = issue_free_;
    constexpr unsigned kShared = static_cast<unsigned>(InstrClass::kShared);
    constexpr unsigned kFp64 = static_cast<unsigned>(InstrClass::kFp64);
    for (unsigned c = 0; c < kInstrClasses; ++c) {
      const std::uint64_t passes =
          classes[c] + (c == kShared ? shared_replays : 0) + (c == kFp64 ? fp64_passes : 0);
      if (!pipe_cost_[c] || !passes) continue;
      pipe_free_[c] = std::max(pipe_free_[c], start) + passes * pipe_cost_[c];
      end = std::max(end, pipe_free_[c]);
    }
    if (constant_cost_ && constant_passes) {
      constant_free_ = std::max(constant_free_, start) + std::uint64_t(constant_passes) * constant_cost_;
      end = std::max(end, constant_free_);
    }
    return (end + kTicks - 1) / kTicks;
  }

  // The last cycle in which an issue slot is taken (for counting issue cycles).
  Cycle last_busy_cycle() const { return issue_free_ == 0 ? 0 : (issue_free_ - 1) / kTicks; }

 private:
  std::uint64_t issue_cost_;
  std::uint64_t constant_cost_;  // ticks a constant-cache pass takes (0: no limit)
  std::array<std::uint64_t, kInstrClasses> pipe_cost_{};
  std::uint64_t issue_free_ = 0;  // the first free issue slot, in ticks
  std::array<std::uint64_t, kInstrClasses> pipe_free_{};
  std::uint64_t constant_free_ = 0;  // the constant cache's first free pass, in ticks
};

}  // namespace numagpu
