// IssuePipes: issue slots and execution pipes as throughput (sm/issue_pipes.hpp). Every expectation is
// derived by hand from the widths and lane counts.
#include "sm/issue_pipes.hpp"

#include <gtest/gtest.h>

namespace numagpu {
namespace {

std::array<std::uint32_t, kInstrClasses> no_lanes() {
  return {};
}
std::array<std::uint32_t, kInstrClasses> classes(InstrClass c, std::uint32_t n) {
  std::array<std::uint32_t, kInstrClasses> a{};
  a[static_cast<unsigned>(c)] = n;
  return a;
}

TEST(IssuePipes, SingleInstructionsIssueWidthPerCycle) {
  // Width 4: four single instructions fill cycle 10; the fifth has to wait for cycle 11.
  IssuePipes p(4, no_lanes());
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(p.can_issue(10));
    p.issue_one(10);
  }
  EXPECT_FALSE(p.can_issue(10));
  EXPECT_EQ(p.next_free_cycle(10), 11u);
  EXPECT_EQ(p.last_busy_cycle(), 10u);
  EXPECT_TRUE(p.can_issue(11));
}

TEST(IssuePipes, WidthThreeIsExact) {
  // Width 3 (1/3 cycle a slot is whole in ticks): exactly three a cycle, for many cycles.
  IssuePipes p(3, no_lanes());
  for (IssuePipes::Cycle c = 0; c < 1000; ++c) {
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(p.can_issue(c)) << c;
      p.issue_one(c);
    }
    ASSERT_FALSE(p.can_issue(c)) << c;
  }
}

TEST(IssuePipes, BundleTakesOneSlotPerInstruction) {
  // Width 4, a bundle of 10 unclassified instructions at cycle 0: slots 0..9, i.e. cycles 0, 0, 0, 0, 1, 1,
  // 1, 1, 2, 2: the last issues in cycle 2, so the warp may go on at cycle 3; cycle 2 has two slots left.
  IssuePipes p(4, no_lanes());
  EXPECT_EQ(p.issue_bundle(0, 10, no_lanes()), 3u);
  EXPECT_FALSE(p.can_issue(1));
  EXPECT_TRUE(p.can_issue(2));
  EXPECT_EQ(p.next_free_cycle(0), 2u);
  EXPECT_EQ(p.last_busy_cycle(), 2u);
  p.issue_one(2);
  p.issue_one(2);
  EXPECT_FALSE(p.can_issue(2));
}

TEST(IssuePipes, OneInstructionBundleIsASingleSlot) {
  // What synthetic patterns and traces issue: one instruction, as before the pipes existed.
  IssuePipes p(1, no_lanes());
  EXPECT_EQ(p.issue_bundle(5, 1, no_lanes()), 6u);
  EXPECT_FALSE(p.can_issue(5));
  EXPECT_TRUE(p.can_issue(6));
}

TEST(IssuePipes, PipeLanesLimitAClass) {
  // Volta-like: width 4, 64 FP32 lanes (2 warp instructions a cycle), 16 SFU lanes (1 every 2 cycles).
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kFp32)] = 64;
  lanes[static_cast<unsigned>(InstrClass::kSfu)] = 16;
  IssuePipes p(4, lanes);
  // 8 FP32 instructions: issue needs 2 cycles (8 / 4), the FP32 pipe 4 (8 / 2): done by cycle 4.
  EXPECT_EQ(p.issue_bundle(0, 8, classes(InstrClass::kFp32, 8)), 4u);
  // The issue slots were free from cycle 2: another warp's SFU bundle of 3 issues its slots in cycle 2 but
  // its pipe takes 3 x 2 = 6 cycles from cycle 2: done by cycle 8.
  EXPECT_TRUE(p.can_issue(2));
  EXPECT_EQ(p.issue_bundle(2, 3, classes(InstrClass::kSfu, 3)), 8u);
  // A third bundle of 2 FP32 at cycle 3 queues behind the first bundle's FP32 work (pipe free at 4): 4 + 1.
  EXPECT_EQ(p.issue_bundle(3, 2, classes(InstrClass::kFp32, 2)), 5u);
}

TEST(IssuePipes, UnlimitedClassesNeedOnlyIssue) {
  // No lanes for FP64: 6 FP64 instructions at width 2 take 3 cycles of issue.
  IssuePipes p(2, no_lanes());
  EXPECT_EQ(p.issue_bundle(100, 6, classes(InstrClass::kFp64, 6)), 103u);
}

TEST(IssuePipes, OddLaneCountsRoundUpWithinATick) {
  // 48 lanes: 2/3 of a cycle a warp instruction; 30 of them take exactly 20 cycles (ticks divide by 3).
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kInt)] = 48;
  IssuePipes p(8, lanes);
  EXPECT_EQ(p.issue_bundle(0, 30, classes(InstrClass::kInt, 30)), 20u);
}

TEST(IssuePipes, BankConflictReplaysHoldTheSharedPipe) {
  // 32 shared lanes: one pass a cycle. A shared load with a 4-way conflict is 1 instruction and 3 replays:
  // 4 passes, cycles 0..3, done by 4 (issue alone would be done by 1). A second warp's conflict-free shared
  // load at cycle 1 waits for the pipe: pass 4, done by 5.
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kShared)] = 32;
  IssuePipes p(4, lanes);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kShared, 1), 3), 4u);
  EXPECT_EQ(p.issue_bundle(1, 1, classes(InstrClass::kShared, 1)), 5u);
}

TEST(IssuePipes, BanksThatSustainSevenEighthsOfThePeakTakeEightCyclesForSevenPasses) {
  // 32 shared lanes, fraction 7/8 (0.875): a bank pass holds the pipe 8/7 of a cycle. Seven conflict-free
  // shared loads at cycle 0 take 7 x 8/7 = 8 cycles: done by 8 (at the peak: by 7). A 4-way conflict then
  // (1 instruction, 3 replays) at cycle 0: 4 more passes, 8 + 32/7 = 12.57, done by 13. A shuffle's pass
  // reads no bank and takes one cycle at the peak: 12.57 + 1 = 13.57, done by 14.
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kShared)] = 32;
  IssuePipes p(8, lanes, 0, 1, 0, 0.875);
  EXPECT_EQ(p.issue_bundle(0, 7, classes(InstrClass::kShared, 7)), 8u);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kShared, 1), 3), 13u);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 0, 0, 0, 0, 1), 14u);
  // At the peak (fraction 1) the same: 7, 11, 12.
  IssuePipes peak(8, lanes, 0, 1, 0, 1.0);
  EXPECT_EQ(peak.issue_bundle(0, 7, classes(InstrClass::kShared, 7)), 7u);
  EXPECT_EQ(peak.issue_bundle(0, 1, classes(InstrClass::kShared, 1), 3), 11u);
  EXPECT_EQ(peak.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 0, 0, 0, 0, 1), 12u);
}

TEST(IssuePipes, ConversionsToAndFromDoubleHoldTheFp64PipeTwice) {
  // 32 FP64 lanes: one pass a cycle. An F2F (one fp64 instruction and one extra pass) at cycle 0 holds the
  // pipe for cycles 0..1, done by 2 (a DFMA alone would be done by 1). Another warp's DFMA at cycle 1 waits
  // for the pipe: pass 2, done by 3.
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kFp64)] = 32;
  IssuePipes p(4, lanes);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kFp64, 1), 0, 0, 1), 2u);
  EXPECT_EQ(p.issue_bundle(1, 1, classes(InstrClass::kFp64, 1)), 3u);
}

TEST(IssuePipes, ConstantPortsLimitPassesAcrossWarps) {
  // One port: a warp's constant read of 8 distinct addresses (one int instruction, 8 passes) at cycle 0
  // holds the constant cache for cycles 0..7, done by 8; another warp's uniform read (1 pass) at cycle 2
  // gets pass 8, done by 9. Two ports halve that: 8 passes in 4 cycles, then the uniform read's in cycle 4,
  // done by 5 (ticks: half a cycle a pass, 4.5 rounds up to 5).
  for (const unsigned ports : {1u, 2u}) {
    IssuePipes p(4, no_lanes(), ports);
    EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 8), ports == 1 ? 8u : 4u);
    EXPECT_EQ(p.issue_bundle(2, 1, classes(InstrClass::kInt, 1), 0, 1), ports == 1 ? 9u : 5u);
  }
  // No ports (0): passes cost nothing beyond the instruction's issue slot.
  IssuePipes unlimited(4, no_lanes(), 0);
  EXPECT_EQ(unlimited.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 32), 1u);
}

TEST(IssuePipes, ProcessingBlocksHaveTheirOwnSlotsAndLanes) {
  // Width 4 in 4 blocks: one slot a cycle each. A single instruction in block 0 at cycle 10 fills block 0's
  // cycle; block 1 still has its slot, and block 0 has one again at 11.
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kFp32)] = 64;  // 16 a block: a warp instruction every 2 cycles
  lanes[static_cast<unsigned>(InstrClass::kSfu)] = 16;   // 4 a block: one every 8 cycles
  IssuePipes p(4, lanes, 0, 4);
  EXPECT_EQ(p.blocks(), 4u);
  p.issue_one(10, 0);
  EXPECT_FALSE(p.can_issue(10, 0));
  EXPECT_TRUE(p.can_issue(10, 1));
  EXPECT_EQ(p.next_free_cycle(10, 0), 11u);
  EXPECT_EQ(p.next_free_cycle_any(10), 10u);
  // Block 1: 4 FP32 at cycle 20 issue in cycles 20..23 (one slot a cycle) and hold its 16 lanes 4 x 2 = 8
  // cycles: done by 28. Block 2's 4 FP32 in the same cycle do not wait for block 1's: done by 28 too.
  EXPECT_EQ(p.issue_bundle(20, 4, classes(InstrClass::kFp32, 4), 0, 0, 0, 1), 28u);
  EXPECT_EQ(p.issue_bundle(20, 4, classes(InstrClass::kFp32, 4), 0, 0, 0, 2), 28u);
  EXPECT_EQ(p.last_busy_cycle(1), 23u);
  // Block 3: 2 SFU instructions at cycle 0: its 4 SFU lanes take 8 cycles each: done by 16.
  EXPECT_EQ(p.issue_bundle(0, 2, classes(InstrClass::kSfu, 2), 0, 0, 0, 3), 16u);
}

TEST(IssuePipes, TheSharedPipeAndConstantCacheStaySmWide) {
  // 4 blocks, 32 shared lanes (one warp access a cycle for the SM), one constant port. Block 0's 4 shared
  // accesses at cycle 0 hold the banks for cycles 0..3; block 1's 2 at cycle 0 queue behind them: done by 6.
  // Block 2's constant read of 3 addresses at 0 (3 passes, done by 3) delays block 3's of 1: done by 4.
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kShared)] = 32;
  IssuePipes p(4, lanes, 1, 4);
  EXPECT_EQ(p.issue_bundle(0, 4, classes(InstrClass::kShared, 4), 0, 0, 0, 0), 4u);
  EXPECT_EQ(p.issue_bundle(0, 2, classes(InstrClass::kShared, 2), 0, 0, 0, 1), 6u);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 3, 0, 2), 3u);
  EXPECT_EQ(p.issue_bundle(0, 1, classes(InstrClass::kInt, 1), 0, 1, 0, 3), 4u);
}

// Register-bank conflicts (sm.register_bank_conflict_cycles 2, the GV100's): a Volta-like SM of width 4 in 4
// blocks with 64 FP32 lanes (16 a block: a warp FFMA holds its block's pipe 2 cycles). Without a conflict, a
// block issues an FFMA every 2 cycles (the pipe): 10 FFMAs one at a time from cycle 0 are done issuing at
// cycle 20. With each of them conflicted, its slot (1 cycle) and the 2 cycles of reads beyond it hold the
// block 3 cycles: done at 30, 1.5 times as long. Block 1 is not held by block 0's conflicts. Without the key
// (0) a conflict costs nothing.
TEST(IssuePipes, ARegisterBankConflictHoldsItsBlockTwoCyclesMore) {
  std::array<std::uint32_t, kInstrClasses> lanes{};
  lanes[static_cast<unsigned>(InstrClass::kFp32)] = 64;
  const auto run = [&](unsigned cycles, std::uint32_t conflicts) {
    IssuePipes p(4, lanes, 0, 4, cycles);
    IssuePipes::Cycle done = 0;
    for (int i = 0; i < 10; ++i)
      done =
          p.issue_bundle(p.next_free_cycle(done, 0), 1, classes(InstrClass::kFp32, 1), 0, 0, 0, 0, conflicts);
    EXPECT_EQ(p.next_free_cycle(0, 1), 0u);  // block 1 is free
    return done;
  };
  EXPECT_EQ(run(2, 0), 20u);
  EXPECT_EQ(run(2, 1), 30u);
  EXPECT_EQ(run(0, 1), 20u);
}

}  // namespace
}  // namespace numagpu
