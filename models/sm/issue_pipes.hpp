// The SM's issue bandwidth and execution pipes, as throughput: how soon the warp instructions of a bundle can
// all have issued, and when the SM has an issue slot free again.
//
// A compute step of a C++ kernel bundles N warp instructions (kernels/simt.hpp). Without this model the
// bundle took one issue slot and its warp was busy for its cycles while other warps issued: an SM with 64
// warps computing could retire 64 instructions a cycle, where a Volta SM issues at most 4 (one per
// processing block). Here a bundle of N instructions takes N issue slots (issue_width a cycle, split over the
// processing blocks below), and the instructions of each class occupy that class's pipe: a pipe of L lanes
// accepts L/32 warp instructions a cycle (a Volta SM's 64 FP32 lanes: 2 a cycle; its 32 FP64 lanes: 1; its 16
// SFU lanes: 1 every 2 cycles).
// The bundle has issued when the last of its instructions has had both its slot and its pipe.
//
// Three structures are held by passes rather than instructions: the shared pipe takes one more pass per
// bank-conflict replay of a shared access (one pass of a warp access a cycle per 32 shared lanes; a warp
// shuffle also takes one pass, which reads no bank), the FP64
// pipe one more pass per conversion between float and double (half a DFMA's rate), and the SM's constant
// cache serves `constant_ports` distinct addresses a cycle, however many of its warps read constants (a
// warp's constant read takes one pass per distinct address it reads).
//
// Register-bank conflicts (sm.register_bank_conflict_cycles, C): an instruction whose three register
// sources lie in one bank of its block's register file reads them one a cycle, holding the block's operand
// reads, and so its issue, C cycles beyond its slot (Jia et al. 2018: two banks, a register's bank its number
// mod 2). One register a bank a cycle reads two sources in one bank in two cycles, within the two cycles a
// 16-lane block's FP32 pipe takes a warp instruction anyway, which is why only three in one bank show; the
// model charges those only. 0: not modelled.
//
// Processing blocks (sm.processing_blocks, P): a Volta SM is four processing blocks, each with its own warp
// scheduler, dispatch unit and execution lanes (16 FP32, 16 INT32, 8 FP64, its tensor cores and MUFU); a warp
// is bound to one block. With P blocks each block has issue_width / P issue slots a cycle and lanes / P of
// each pipe, and a bundle takes its block's slots and pipes only. The shared-memory pipe (the SM's banks,
// behind the MIO that the blocks share) and the constant cache stay SM-wide, taken by every block's bundles.
// P = 1: one block of the SM's whole width and lanes, the model before blocks existed.
//
// The shared-memory banks may sustain less than their peak (sm.shared_bandwidth_fraction, F): a pass that
// reads or writes the banks (a shared access and each of its replays) then holds the shared pipe 1 / F times
// as long, rounded up to a tick; a shuffle's pass, which moves registers and reads no bank, keeps the pipe's
// peak. F = 1: every pass at the peak, as before.
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
#include <cmath>
#include <cstdint>

#include "workload/program.hpp"

namespace numagpu {

class IssuePipes {
 public:
  using Cycle = std::uint64_t;
  static constexpr std::uint64_t kTicks = 840 * 32;

  static constexpr unsigned kMaxBlocks = 8;

  // issue_width: warp instructions a cycle (SM-wide); lanes[c]: the SM's lanes of class c's pipe (0: no
  // limit); constant_ports: constant-cache passes a cycle (0: no limit); blocks: processing blocks, each with
  // issue_width / blocks slots and lanes / blocks of each pipe but the shared one (1..kMaxBlocks; the
  // configuration checks that it divides issue_width); bank_conflict_cycles: sm.register_bank_conflict_cycles
  // (0: not modelled); shared_fraction: the share of the shared pipe's peak that bank passes sustain ((0,
  // 1]).
  IssuePipes(unsigned issue_width, const std::array<std::uint32_t, kInstrClasses>& lanes,
             unsigned constant_ports = 0, unsigned blocks = 1, unsigned bank_conflict_cycles = 0,
             double shared_fraction = 1.0)
      : blocks_(std::clamp(blocks, 1u, kMaxBlocks)),
        issue_cost_(kTicks * blocks_ / std::max(blocks_, issue_width)),
        constant_cost_(constant_ports ? (kTicks + constant_ports - 1) / constant_ports : 0),
        bank_conflict_cost_(std::uint64_t(bank_conflict_cycles) * kTicks) {
    for (unsigned c = 0; c < kInstrClasses; ++c) {
      // A block's share of the lanes: 32 lanes' time over lanes / blocks, rounded up to a tick. The
      // shared pipe is the SM's.
      const std::uint64_t share = c == kShared ? 1 : blocks_;
      pipe_cost_[c] = lanes[c] ? (32 * kTicks * share + lanes[c] - 1) / lanes[c] : 0;
    }
    bank_cost_ = shared_fraction >= 1.0
                     ? pipe_cost_[kShared]
                     : static_cast<std::uint64_t>(std::ceil(double(pipe_cost_[kShared]) / shared_fraction));
  }

  unsigned blocks() const { return blocks_; }

  // True when an instruction may issue in cycle `now` in `block` (a slot of that cycle is free).
  bool can_issue(Cycle now, unsigned block = 0) const {
    return block_[block].issue_free < (now + 1) * kTicks;
  }
  // The first cycle with a free issue slot in `block`, at or after `now`.
  Cycle next_free_cycle(Cycle now, unsigned block = 0) const {
    return std::max(now, block_[block].issue_free / kTicks);
  }
  // The first cycle with a free issue slot in any block, at or after `now`.
  Cycle next_free_cycle_any(Cycle now) const {
    std::uint64_t first = block_[0].issue_free;
    for (unsigned b = 1; b < blocks_; ++b)
      first = std::min(first, block_[b].issue_free);
    return std::max(now, first / kTicks);
  }

  // One instruction with no pipe of its own (memory, barrier, unclassified compute): one issue slot of
  // `block`.
  void issue_one(Cycle now, unsigned block = 0) {
    std::uint64_t& free = block_[block].issue_free;
    free = std::max(free, now * kTicks) + issue_cost_;
  }

  // A bundle of `instructions` instructions, `classes[c]` of them of class c (the rest unclassified), issued
  // from cycle `now`, with `shared_replays` extra bank passes of the shared pipe, `fp64_passes` extra passes
  // of the FP64 pipe, `constant_passes` passes of the constant cache, in processing block `block`,
  // `bank_conflicts` instructions with their three sources in one register bank and `shuffle_passes` passes
  // of the shared pipe that read no bank. Returns the cycle after its last instruction issued (when its warp
  // may go on, at the earliest).
  Cycle issue_bundle(Cycle now, std::uint32_t instructions,
                     const std::array<std::uint32_t, kInstrClasses>& classes,
                     std::uint32_t shared_replays = 0, std::uint32_t constant_passes = 0,
                     std::uint32_t fp64_passes = 0, unsigned block = 0, std::uint32_t bank_conflicts = 0,
                     std::uint32_t shuffle_passes = 0) {
    const std::uint64_t start = now * kTicks;
    Block& blk = block_[block];
    blk.issue_free = std::max(blk.issue_free, start) + std::uint64_t(instructions) * issue_cost_ +
                     std::uint64_t(bank_conflicts) * bank_conflict_cost_;
    std::uint64_t end = blk.issue_free;
    constexpr unsigned kFp64 = static_cast<unsigned>(InstrClass::kFp64);
    for (unsigned c = 0; c < kInstrClasses; ++c) {
      if (c == kShared) continue;  // below
      const std::uint64_t passes = classes[c] + (c == kFp64 ? fp64_passes : 0);
      if (!pipe_cost_[c] || !passes) continue;
      std::uint64_t& free = blk.pipe_free[c];
      free = std::max(free, start) + passes * pipe_cost_[c];
      end = std::max(end, free);
    }
    const std::uint64_t bank_passes = std::uint64_t(classes[kShared]) + shared_replays;
    if (pipe_cost_[kShared] && (bank_passes || shuffle_passes)) {
      shared_free_ = std::max(shared_free_, start) + bank_passes * bank_cost_ +
                     std::uint64_t(shuffle_passes) * pipe_cost_[kShared];
      end = std::max(end, shared_free_);
    }
    if (constant_cost_ && constant_passes) {
      constant_free_ = std::max(constant_free_, start) + std::uint64_t(constant_passes) * constant_cost_;
      end = std::max(end, constant_free_);
    }
    return (end + kTicks - 1) / kTicks;
  }

  // The last cycle in which an issue slot of `block` is taken (for counting issue cycles).
  Cycle last_busy_cycle(unsigned block = 0) const {
    const std::uint64_t free = block_[block].issue_free;
    return free == 0 ? 0 : (free - 1) / kTicks;
  }

 private:
  static constexpr unsigned kShared = static_cast<unsigned>(InstrClass::kShared);
  struct Block {
    std::uint64_t issue_free = 0;                          // the first free issue slot, in ticks
    std::array<std::uint64_t, kInstrClasses> pipe_free{};  // per pipe (the shared pipe's is shared_free_)
  };
  unsigned blocks_;
  std::uint64_t issue_cost_;                              // ticks a block's issue slot takes
  std::uint64_t constant_cost_;                           // ticks a constant-cache pass takes (0: no limit)
  std::uint64_t bank_conflict_cost_;                      // ticks a register-bank conflict holds its block
  std::array<std::uint64_t, kInstrClasses> pipe_cost_{};  // ticks a warp instruction holds its block's pipe
  std::uint64_t bank_cost_ = 0;  // ticks a bank pass holds the shared pipe (pipe_cost_[kShared] / fraction)
  std::array<Block, kMaxBlocks> block_{};
  std::uint64_t shared_free_ = 0;    // the SM's shared pipe's first free pass, in ticks
  std::uint64_t constant_free_ = 0;  // the constant cache's first free pass, in ticks
};

}  // namespace numagpu
