// kernels/: executing C++ kernels for their addresses. Every expected number is derived by hand in the
// comment beside it.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <set>
#include <vector>

#include "kernels/cpp_program.hpp"
#include "kernels/library.hpp"
#include "kernels/simt.hpp"
#include "system/derive_spec.hpp"

namespace numagpu::kernels {
namespace {

constexpr unsigned kLine = 128;

std::uint64_t count_of(const WarpRecord& w, InstrClass c) {
  return w.instructions[static_cast<unsigned>(c)];
}

// The worked example of docs/kernels.md: 64 threads (two warps); `if (tid < 16) a else b` diverges warp 0
// only. Warp 0 executes the comparison, the branch, the then-path (one fp32 add) and the else-path (one fp32
// multiply), each masked; warp 1 (threads 32..63, all >= 16) executes the comparison, the branch and the
// else-path only. After the construct both warps run the final add with all their threads again.
TEST(Simt, DivergentWarpRunsBothPathsAndReconverges) {
  Cta c({1, 1, 1}, {64, 1, 1}, {0, 0, 0}, kLine);
  V<float> x(c, 1.0f);
  const V<bool> low = c.threadIdx_x() < 16;  // 1 int instruction per warp
  c.if_else(
      low, [&] { x = x + 1.0f; }, [&] { x = x * 3.0f; });  // 1 branch; fp32 on the paths taken
  const V<float> y = x + 0.5f;                             // 1 fp32 per warp, reconverged
  std::vector<WarpRecord>& w = c.records();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 1u);
  EXPECT_EQ(count_of(w[0], InstrClass::kBranch), 1u);
  EXPECT_EQ(count_of(w[0], InstrClass::kFp32), 3u);  // then + else + the add after
  EXPECT_EQ(count_of(w[1], InstrClass::kFp32), 2u);  // else + the add after
  // Values: threads 0..15 took the then-path (1 + 1), the others the else-path (1 x 3); then + 0.5.
  EXPECT_FLOAT_EQ(y[0], 2.5f);
  EXPECT_FLOAT_EQ(y[15], 2.5f);
  EXPECT_FLOAT_EQ(y[16], 3.5f);
  EXPECT_FLOAT_EQ(y[63], 3.5f);
  // No memory step in between: each warp's instructions form one compute step, of 5 instructions for warp
  // 0 (compare, branch, then, else, add) and 4 for warp 1 (compare, branch, else, add).
  ASSERT_EQ(w[0].steps.size(), 1u);
  EXPECT_EQ(w[0].steps[0].instructions, 5u);
  EXPECT_EQ(w[1].steps[0].instructions, 4u);
}

// A loop whose trip count differs per thread: thread t of one warp iterates t % 4 times. The warp runs
// the body as long as any thread does: 3 times (threads with t % 4 == 3), with the condition evaluated 4
// times (the 4th finds no thread left), each evaluation a compare and a branch.
TEST(Simt, LoopRunsUntilTheLastThreadLeaves) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  V<std::int64_t> left = map(c.threadIdx_x(), InstrClass::kInt, [](std::int64_t t) { return t % 4; });
  V<std::int64_t> trips(c, 0);
  c.while_([&] { return left > 0; },
           [&] {
             left = left - 1;
             trips = trips + 1;
           });
  const WarpRecord& w = c.records()[0];
  EXPECT_EQ(count_of(w, InstrClass::kBranch), 4u);
  // int: the modulo (1), 4 compares, 3 x (decrement + increment) = 1 + 4 + 6.
  EXPECT_EQ(count_of(w, InstrClass::kInt), 11u);
  EXPECT_EQ(trips[0], 0);
  EXPECT_EQ(trips[3], 3);
  EXPECT_EQ(trips[6], 2);
}

// Shared memory: 32 banks of 4 bytes. Consecutive floats: one pass. A stride of 32 floats puts every thread
// of the warp in bank 0 on a different word: 32 passes. Every thread reading one word: a broadcast, 1 pass.
TEST(Simt, SharedMemoryBankConflicts) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Cta::Shared<float> s(c, 32 * 32);
  const V<std::int64_t> t = c.threadIdx_x();
  const std::uint64_t before = c.records()[0].instructions[static_cast<unsigned>(InstrClass::kInt)];
  (void)s.load(t);
  EXPECT_EQ(c.counters().shared_wavefronts, 1u);
  const V<std::int64_t> strided = t * 32;
  (void)s.load(strided);
  EXPECT_EQ(c.counters().shared_wavefronts, 1u + 32u);
  (void)s.load(c.uniform(5));
  EXPECT_EQ(c.counters().shared_wavefronts, 1u + 32u + 1u);
  EXPECT_EQ(c.counters().shared_accesses, 3u);
  EXPECT_EQ(c.records()[0].instructions[static_cast<unsigned>(InstrClass::kInt)], before + 1);  // t * 32
  // The SM sees the strided load's 31 replays as passes of its shared pipe, not as instructions: one
  // compute step of 4 instructions (the three shared loads and t * 32) with 31 replays.
  Step step;
  c.records()[0].unpack(0, step);
  EXPECT_EQ(step.instructions, 4u);
  EXPECT_EQ(step.classes[static_cast<unsigned>(InstrClass::kShared)], 3u);
  EXPECT_EQ(step.shared_replays, 31u);  // 32 passes - the instruction's own 1
  EXPECT_EQ(step.constant_passes, 0u);
}

// A uniform shared read (load_uniform) is a broadcast: one access and one pass per warp with an active
// thread, as load(uniform(i)) counts it; 64 threads with the second warp masked off: one access.
TEST(Simt, SharedUniformLoadIsOneBroadcastPerActiveWarp) {
  Cta c({1, 1, 1}, {64, 1, 1}, {0, 0, 0}, kLine);
  Cta::Shared<float> s(c, 16);
  s.store(c.threadIdx_x() / 4, V<float>(c, 2.0f));  // 2 warps x 1 access (4 threads per word: 1 pass)
  float got = 0;
  c.if_(c.threadIdx_x() < 32, [&] { got = s.load_uniform(3); });
  EXPECT_FLOAT_EQ(got, 2.0f);
  EXPECT_EQ(c.counters().shared_accesses, 2u + 1u);
  EXPECT_EQ(c.counters().shared_wavefronts, 2u + 1u);
  EXPECT_EQ(c.records()[0].instructions[static_cast<unsigned>(InstrClass::kShared)], 2u);
  EXPECT_EQ(c.records()[1].instructions[static_cast<unsigned>(InstrClass::kShared)], 1u);
}

// Wide shared accesses: 32 lanes of 16 bytes at consecutive addresses cover 128 words, 4 in each bank: 4
// passes. Two lanes reading the same 16 bytes share them; lanes 0..15 and 16..31 reading the same 256
// bytes cover 64 words, 2 per bank: 2 passes.
TEST(Simt, WideSharedAccessesCountWordsPerBank) {
  struct Quad {
    std::uint32_t v[4];
  };
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Cta::Shared<Quad> s(c, 64);
  const V<std::int64_t> t = c.threadIdx_x();
  (void)s.load(t);
  EXPECT_EQ(c.counters().shared_wavefronts, 4u);
  (void)s.load(map(t, InstrClass::kInt, [](std::int64_t x) { return x % 16; }));
  EXPECT_EQ(c.counters().shared_wavefronts, 4u + 2u);
}

// Memory steps: a warp loading 32 consecutive floats from a 128 B-aligned array touches one line; with an
// offset of one float it touches two; a store by the 16 active threads of a masked warp touches one.
TEST(Simt, LoadsAndStoresAreCoalescedPerWarp) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Array<float> a{"a", 4096, 1024, nullptr};
  const V<std::int64_t> t = c.threadIdx_x();
  (void)c.load(a, t);
  (void)c.load(a, t + 1);
  c.if_(t < 16, [&] { c.store(a, t, V<float>(c, 0.0f)); });
  const std::vector<PackedStep>& steps = c.records()[0].steps;
  std::vector<unsigned> lines;
  for (const PackedStep& s : steps)
    if (s.kind != Step::Kind::kCompute) lines.push_back(s.line_count);
  EXPECT_EQ(lines, (std::vector<unsigned>{1, 2, 1}));
}

// An immediate offset is part of the address, not an instruction (LDG/STG/LDS/STS [R + imm]). One warp over
// floats at byte 4,096 (line 32 of 128 B): load(a, t, 1) reads elements 1..32 = bytes 4,100..4,231, lines
// 32 and 33, as load(a, t + 1) does, but charges no int instruction where t + 1 charges one; store(a, t, v,
// 32) writes elements 32..63 = bytes 4,224..4,351, line 33 alone. In shared memory store(t, v, 32) and
// load(t, 32) address elements 32..63: lane t reads back what it wrote, with no int instruction.
TEST(Simt, ImmediateOffsetsAreAddressesNotInstructions) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Array<float> a{"a", 4096, 1024, nullptr};
  const V<std::int64_t> t = c.threadIdx_x();
  const std::uint64_t ints = count_of(c.records()[0], InstrClass::kInt);
  (void)c.load(a, t, 1);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kInt), ints);
  (void)c.load(a, t + 1);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kInt), ints + 1);
  c.store(a, t, V<float>(c, 0.0f), 32);
  std::vector<unsigned> lines;
  for (const PackedStep& step : c.records()[0].steps)
    if (step.kind != Step::Kind::kCompute) lines.push_back(step.line_count);
  EXPECT_EQ(lines, (std::vector<unsigned>{2, 2, 1}));
  Cta::Shared<float> s(c, 64);
  s.store(t, convert<float>(t), 32);  // the I2F is an sfu instruction
  const std::uint64_t before = count_of(c.records()[0], InstrClass::kInt);
  const V<float> back = s.load(t, 32);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kInt), before);
  EXPECT_FLOAT_EQ(back[0], 0.0f);
  EXPECT_FLOAT_EQ(back[31], 31.0f);
}

// load_wide<2> (LDS.64): 32 lanes reading floats 2 t, 2 t + 1 cover words 0..63, 2 in each bank: 2 passes,
// one instruction. The alignment is checked on index + offset: an 8-byte read at element 1, or a 16-byte one
// at 0 + 2, is refused.
TEST(Simt, WideSharedLoadOfEightBytesAndTheOffsetsAlignment) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Cta::Shared<float> s(c, 128);
  const V<std::int64_t> t2 = c.threadIdx_x() * std::int64_t(2);
  const std::array<V<float>, 2> pair = s.load_wide<2>(t2);
  EXPECT_EQ(c.counters().shared_accesses, 1u);
  EXPECT_EQ(c.counters().shared_wavefronts, 2u);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kShared), 1u);
  EXPECT_FLOAT_EQ(pair[1][5], 0.0f);
  EXPECT_THROW((void)s.load_wide<2>(t2, 1), std::logic_error);
  EXPECT_THROW((void)s.load_wide<4>(c.uniform(0), 2), std::logic_error);
  EXPECT_NO_THROW((void)s.load_wide<4>(c.uniform(2), 2));
}

// Active threads per instruction, for the energy model's per-lane power: one warp of 32 charges an int
// instruction with all 32 threads, computes `t < 8` (an int instruction, 32 threads) and branches on it (32),
// then, under it, two fp32 instructions with 8 threads and a load with 8. The compute step before the load
// holds 5 instructions and 32 + 32 + 32 + 2 x 8 = 112 thread instructions (runs split where the class or
// the threads change), the load 8; the barrier counts the 32 threads that reach it.
TEST(Simt, StepsCountTheirActiveThreads) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  Array<float> a{"a", 4096, 1024, nullptr};
  const V<std::int64_t> t = c.threadIdx_x();
  c.charge(InstrClass::kInt, 1);
  c.if_(t < 8, [&] {
    c.charge(InstrClass::kFp32, 2);
    (void)c.load(a, t);
  });
  c.syncthreads();
  const WarpRecord& r = c.records()[0];
  std::vector<std::uint32_t> threads, instructions;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    Step step;
    r.unpack(i, step);
    if (step.kind == Step::Kind::kCompute && step.instructions == 0) continue;  // a stall, no instruction
    threads.push_back(step.thread_instructions);
    instructions.push_back(step.instructions);
  }
  EXPECT_EQ(instructions, (std::vector<std::uint32_t>{5, 1, 1}));
  EXPECT_EQ(threads, (std::vector<std::uint32_t>{112, 8, 32}));
}

// Kernel::contents<T>: an array with data is visible by name with its element type; an array without data,
// an unknown name or another element type give null.
// Dependent latencies (Cta::issue): fp32 4 cycles, int 4, shared 20; the rest 0.
Latencies volta_like() {
  Latencies l{};
  l[static_cast<unsigned>(InstrClass::kFp32)] = 4;
  l[static_cast<unsigned>(InstrClass::kInt)] = 4;
  l[static_cast<unsigned>(InstrClass::kShared)] = 20;
  return l;
}

// Divisions take their own latencies (kDivLatency + 0 int by a run-time value, + 1 fp32, + 2 fp64) on top of
// volta_like(): here 145, 39 and 330, the GV100 file's. One warp, by hand: q = x / y (fp32) issues at 0,
// ready 39, and the rest of its sequence (MUFU.RCP, FCHK, 4 FFMAs, the branch) takes cycles 1..7; r = q + 1
// waits for q: issues at 39, ready 43. d = 1.0 / z (fp64) issues at 40, ready 370, and the rest of its
// sequence (MUFU.RCP64H, a move, 5 DFMA/DMUL, FFMA, FSETP, the branch) takes cycles 41..50. i = idiv(t, 7)
// issues at 51, ready 196, and the rest of its sequence (3 sfu, 20 int) takes cycles 52..74; j = irem(t, 7),
// a remainder alone, is the same sequence: issues at 75, ready 220, its rest 76..98. A constant integer
// divisor keeps the int latency: k = t / 4 issues at 99, ready 103. m, the remainder of i's quotient (one
// IMAD), waits for i: issues at 196, ready 200. With the division latencies unset (0), a division takes its
// class's: q ready 4, but r still waits for the sequence's 7 instructions: issues at 8, ready 12.
// Counts: fp32 q, its FCHK, its 4 FFMAs, r and d's FFMA and FSETP = 9; fp64 d and its 5 = 6; sfu 1
// (MUFU.RCP) + 1 (MUFU.RCP64H) + 2 x 3 = 8; int d's move, idiv and irem 2 x 21, t / 4 and m = 45; branch
// 2.
TEST(Simt, DivisionsTakeTheirOwnLatencies) {
  Latencies l = volta_like();
  l[static_cast<unsigned>(InstrClass::kFp64)] = 8;
  for (const bool own : {true, false}) {
    if (own) {
      l[kDivLatency + 0] = 145;
      l[kDivLatency + 1] = 39;
      l[kDivLatency + 2] = 330;
    } else {
      l[kDivLatency + 0] = l[kDivLatency + 1] = l[kDivLatency + 2] = 0;
    }
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, l);
    const V<float> x(c, 6.0f), y(c, 3.0f);
    const V<double> z(c, 4.0);
    const V<std::int64_t> t = c.threadIdx_x();
    const V<float> q = x / y;
    const V<float> r = q + 1.0f;
    const V<double> d = 1.0 / z;
    const V<std::int64_t> i = idiv(t, 7), j = irem(t, 7), k = t / 4;
    const V<std::int64_t> m = remainder_of_quotient(t, i, 7);
    EXPECT_FLOAT_EQ(r[0], 3.0f);
    EXPECT_DOUBLE_EQ(d[0], 0.25);
    EXPECT_EQ(i[30], 4);
    EXPECT_EQ(j[30], 2);
    EXPECT_EQ(k[30], 7);
    EXPECT_EQ(m[30], 2);
    if (own) {
      EXPECT_EQ(q.ready(0), 39u);
      EXPECT_EQ(r.ready(0), 43u);
      EXPECT_EQ(d.ready(0), 370u);
      EXPECT_EQ(i.ready(0), 196u);
      EXPECT_EQ(j.ready(0), 220u);
      EXPECT_EQ(k.ready(0), 103u);
      EXPECT_EQ(m.ready(0), 200u);
    } else {
      EXPECT_EQ(q.ready(0), 4u);
      EXPECT_EQ(r.ready(0), 12u);  // r waits for the clock past q's sequence: issues at 8
    }
    const WarpRecord& w = c.records()[0];
    EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kFp32)], 9u);
    EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kFp64)], 6u);
    EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kInt)], 45u);
    EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kSfu)], 8u);
    EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kBranch)], 2u);
  }
}

// Without dependent latencies (the paper system) an integer division is one instruction and so is a
// remainder: no sequence. And whatever the latencies, a conversion between an integer and a float is one XU
// (sfu) instruction, one between float and double an fp64 instruction, an integer one an int instruction:
// int64 -> float is 1 sfu; float -> double and double -> float are 2 fp64; int -> int64 is 1 int; plus idiv
// and the remainder of its quotient, 2 int.
TEST(Simt, IntFloatConversionsRunOnTheXuAndIntegerDivisionsAloneAreOneInstruction) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, Latencies{});
  const V<std::int64_t> t = c.threadIdx_x();
  const V<float> f(c, 1.5f);
  const V<double> wide = convert<double>(f);
  const V<float> narrow = convert<float>(wide);
  const V<float> from_int = convert<float>(t);
  const V<std::int64_t> widened = convert<std::int64_t>(V<int>(c, 3));
  const V<std::int64_t> i = idiv(t, 7);
  const V<std::int64_t> m = remainder_of_quotient(t, i, 7);
  EXPECT_DOUBLE_EQ(wide[0], 1.5);
  EXPECT_FLOAT_EQ(narrow[0], 1.5f);
  EXPECT_FLOAT_EQ(from_int[31], 31.0f);
  EXPECT_EQ(widened[0], 3);
  EXPECT_EQ(m[31], 3);
  const WarpRecord& w = c.records()[0];
  EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kSfu)], 1u);
  EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kInt)], 3u);
  EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kFp32)], 0u);
  EXPECT_EQ(w.instructions[static_cast<unsigned>(InstrClass::kFp64)], 2u);
  // The two F2F hold the FP64 pipe a second pass each (half a DFMA's rate), the I2F nothing more: one
  // compute step of 6 instructions with 2 FP64 passes.
  Step step;
  w.unpack(0, step);
  EXPECT_EQ(step.instructions, 6u);
  EXPECT_EQ(step.fp64_passes, 2u);
  EXPECT_EQ(step.shared_replays, 0u);
}

// A chain of three dependent fp32 adds, then an independent one. Issue cycles by hand: a = x + 1 at 0
// (ready 4), b = a + 1 at 4 (ready 8), d = b + 1 at 8 (ready 12), e = x * 2 at 9 (x is ready from the start;
// the clock is past d's issue). The compute step lasts from 0 to after e's issue: 10 cycles for 4
// instructions. Without latencies the same four instructions take 4 cycles, one each.
TEST(Simt, DependentInstructionsWaitForTheirOperands) {
  for (const bool dependent : {false, true}) {
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, dependent ? volta_like() : Latencies{});
    const V<float> x(c, 1.0f);
    const V<float> a = x + 1.0f;
    const V<float> b = a + 1.0f;
    const V<float> d = b + 1.0f;
    const V<float> e = x * 2.0f;
    EXPECT_FLOAT_EQ(d[0], 4.0f);
    EXPECT_FLOAT_EQ(e[0], 2.0f);
    const std::vector<WarpRecord>& w = c.records();
    ASSERT_EQ(w[0].steps.size(), 1u);
    EXPECT_EQ(w[0].steps[0].instructions, 4u);
    EXPECT_EQ(w[0].steps[0].cycles, dependent ? 10u : 4u) << (dependent ? "with latencies" : "without");
    if (dependent) {
      EXPECT_EQ(d.ready(0), 12u);
      EXPECT_EQ(e.ready(0), 13u);  // issued at 9, ready 4 later
    }
  }
}

// A store waits for the value it stores and for its address: v = (tid + 1) issues at 0 (ready 4); out[tid]'s
// address (one int instruction, Cta::form_address) issues at 1 (ready 5); the store may issue at 5, so the
// compute step before it lasts 5 cycles (2 issues + 3 stalled). A load hides what is in flight: v * 3
// issues at 5 (ready 9); the load of out[tid] reuses the store's address (ready at 5: no instruction, no
// wait) and, after it, every value computed before it is ready (the warp waited for its data): its clock
// settles to 9, and the loaded value is ready then too, so their sum issues at once, at 9 (ready 13), one
// cycle after the load's step.
TEST(Simt, MemoryInstructionsWaitForTheirOperandsAndLoadsSettleTheRest) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  Array<std::int64_t> out{"out", 1 << 20, 64, nullptr};
  const V<std::int64_t> v = c.threadIdx_x() + std::int64_t(1);  // int: issue 0, ready 4
  c.store(out, c.threadIdx_x(), v);                             // address: issue 1, ready 5
  const V<std::int64_t> slow = v * std::int64_t(3);             // issue 5, ready 9
  const V<std::int64_t> loaded = c.load(out, c.threadIdx_x());  // address reused; settles to 9
  const V<std::int64_t> sum = loaded + slow;                    // both ready at 9: issue 9, no stall
  EXPECT_EQ(sum.ready(0), 13u);
  const std::vector<WarpRecord>& w = c.records();
  // Steps: compute (the add and the address: 5 cycles with the stall), store, compute (the multiply: 1),
  // load, compute (1).
  ASSERT_EQ(w[0].steps.size(), 5u);
  EXPECT_EQ(w[0].steps[0].instructions, 2u);
  EXPECT_EQ(w[0].steps[0].cycles, 5u);
  EXPECT_EQ(w[0].steps[1].kind, Step::Kind::kStore);
  EXPECT_EQ(w[0].steps[2].instructions, 1u);
  EXPECT_EQ(w[0].steps[2].cycles, 1u);
  EXPECT_EQ(w[0].steps[3].kind, Step::Kind::kLoad);
  EXPECT_EQ(w[0].steps[4].cycles, 1u);
}

// With sm.nonblocking_loads (kNonblockingLoads) a warp goes past a load; its value's first reader is preceded
// by a wait step naming the last load it needs. By hand, one warp of 32, int latency 4, a[i] = 10 i and
// b[i] = -i:
//   x = a[tid]     address 1 issues at 0 (ready 4), the load waits for it: a compute step of 1 instruction
//                  and 4 cycles, then the load (scoreboarded), x pending on load 1
//   y = b[tid]     address 2 issues at 4 (ready 8): 1 instruction, 4 cycles; the load, y pending on load 2
//   k = tid + 1    reads no load: issues at 8 (ready 12), a compute step of 1 cycle
//   s = x + y      needs load 2 (and so load 1): a wait step through load 2, which settles what is in flight
//                  (k: the clock goes to 12); s issues at 12, ready 16
//   t = x * 2      load 1 was waited through: no wait; issues at 13, ready 17, in s's step (2 instructions, 2
//                  cycles)
// Without the flag the same loads are waited at: no wait step, no scoreboarded load.
TEST(Simt, ALoadTheWarpGoesPastIsWaitedForByItsFirstReader) {
  std::vector<std::int32_t> a_data(64), b_data(64);
  for (std::int32_t i = 0; i < 64; ++i) {
    a_data[std::size_t(i)] = 10 * i;
    b_data[std::size_t(i)] = -i;
  }
  Array<std::int32_t> a{"a", 1 << 20, 64, &a_data}, b{"b", 2 << 20, 64, &b_data};
  Latencies l = volta_like();
  l[kNonblockingLoads] = 1;
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, l);
  ASSERT_TRUE(c.nonblocking_loads());
  const V<std::int64_t> tid = c.threadIdx_x();
  const V<std::int32_t> x = c.load(a, tid);
  const V<std::int32_t> y = c.load(b, tid);
  const V<std::int64_t> k = tid + std::int64_t(1);
  const V<std::int32_t> sum = x + y;
  const V<std::int32_t> t = x * 2;
  EXPECT_EQ(sum[5], 45);
  EXPECT_EQ(t[5], 100);
  EXPECT_EQ(k.ready(0), 12u);
  EXPECT_EQ(sum.ready(0), 16u);
  EXPECT_EQ(t.ready(0), 17u);
  const std::vector<PackedStep>& steps = c.records()[0].steps;
  ASSERT_EQ(steps.size(), 7u);
  const Step::Kind kinds[] = {Step::Kind::kCompute, Step::Kind::kLoad,    Step::Kind::kCompute,
                              Step::Kind::kLoad,    Step::Kind::kCompute, Step::Kind::kWait,
                              Step::Kind::kCompute};
  const std::uint32_t instructions[] = {1, 1, 1, 1, 1, 2, 2};  // loads: scoreboarded; the wait: its load
  const std::uint32_t cycles[] = {4, 0, 4, 0, 1, 0, 2};
  for (std::size_t i = 0; i < 7; ++i) {
    EXPECT_EQ(steps[i].kind, kinds[i]) << i;
    EXPECT_EQ(steps[i].instructions, instructions[i]) << i;
    EXPECT_EQ(steps[i].cycles, cycles[i]) << i;
  }
  Step s;
  c.records()[0].unpack(1, s);
  EXPECT_TRUE(s.scoreboarded);
  c.records()[0].unpack(5, s);
  EXPECT_EQ(s.kind, Step::Kind::kWait);
  EXPECT_EQ(s.wait_through, 2u);

  Cta blocking({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  EXPECT_FALSE(blocking.nonblocking_loads());
  const V<std::int32_t> z = blocking.load(a, blocking.threadIdx_x());
  const V<std::int32_t> w = z + z;
  for (const PackedStep& p : blocking.records()[0].steps) {
    EXPECT_NE(p.kind, Step::Kind::kWait);
    if (p.kind == Step::Kind::kLoad) {
      EXPECT_EQ(p.instructions, 0u);
    }
  }
}

// A warp shuffle (Cta::shuffle_xor): thread t gets x of lane (t's lane ^ mask) of its own warp, or its own x
// past the CTA's threads. By hand, 40 threads (warp 1 has lanes 0..7), x = tid, mask 1: y[0] = 1, y[1] = 0,
// y[38] = 39, y[39] = 38. Timing, int latency 4 and sm.shfl_latency 21: y issues at 0 in each warp, one int
// instruction and one pass of the shared pipe that reads no bank (Step::shuffle_passes, not a bank
// replay), ready at 0 + 21; z = y + 1 waits for it, issues at 21 (ready 25): the step is 2 instructions over
// 22 cycles. With the shuffle latency 0, the int latency: y ready at 4, z issues at 4: 5 cycles.
TEST(Simt, AShuffleReadsItsWarpsLanesAndTakesTheSharedPipe) {
  for (const std::uint16_t latency : {std::uint16_t(21), std::uint16_t(0)}) {
    Latencies l = volta_like();
    l[kShuffleLatency] = latency;
    Cta c({1, 1, 1}, {40, 1, 1}, {0, 0, 0}, kLine, l);
    const V<std::int64_t> x = c.threadIdx_x();
    const V<std::int64_t> y = c.shuffle_xor(x, 1);
    const V<std::int64_t> z = y + std::int64_t(1);
    EXPECT_EQ(y[0], 1);
    EXPECT_EQ(y[1], 0);
    EXPECT_EQ(y[38], 39);
    EXPECT_EQ(y[39], 38);
    const std::uint32_t ready = latency ? 21u : 4u;
    EXPECT_EQ(y.ready(0), ready);
    EXPECT_EQ(z.ready(1), ready + 4);
    for (unsigned w = 0; w < 2; ++w) {
      Step s;
      c.records()[w].unpack(0, s);
      EXPECT_EQ(s.instructions, 2u) << w;
      EXPECT_EQ(s.classes[static_cast<unsigned>(InstrClass::kInt)], 2u) << w;
      EXPECT_EQ(s.shuffle_passes, 1u) << w;
      EXPECT_EQ(s.shared_replays, 0u) << w;
      EXPECT_EQ(s.cycles, ready + 1) << w;
    }
  }
}

// A global access's address, base + index x element size, is one integer instruction per warp (sm_70's
// IMAD.WIDE) with dependent latencies, and a warp reuses an address it formed before (the compiler keeps
// it in a register), a constant offset being an immediate on top of it (LDG [R + imm]). By hand, one warp
// of 32 threads, int latency 4, a[i] = 10 i and b[i] = -i:
//   x = a[tid]          address 1: issues at 0, ready 4; the load waits for it (3 stalled cycles)
//   y = a[tid + 1]      the same address and an immediate: no instruction
//   z = b[tid]          another array: address 2
//   a[tid] = x          address 1 again: no instruction
//   if (tid < 16)       a compare (int) and a branch
//     u = a[tid]        address 1, held by all 32 lanes already: no instruction
//   t = texture b[tid]  a texture fetch: the same value as a load, no address instruction
// Int instructions: 2 addresses + the compare = 3; without dependent latencies only the compare, as the
// paper system's SM (no latencies) counted before. Values are unaffected either way.
TEST(Simt, GlobalAddressesAreOneIntegerInstructionAndReused) {
  for (const bool dependent : {false, true}) {
    std::vector<std::int32_t> a_data(64), b_data(64);
    for (std::int32_t i = 0; i < 64; ++i) {
      a_data[std::size_t(i)] = 10 * i;
      b_data[std::size_t(i)] = -i;
    }
    Array<std::int32_t> a{"a", 1 << 20, 64, &a_data}, b{"b", 2 << 20, 64, &b_data};
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, dependent ? volta_like() : Latencies{});
    const V<std::int64_t> tid = c.threadIdx_x();
    const V<std::int32_t> x = c.load(a, tid);
    const V<std::int32_t> y = c.load(a, tid, 1);
    const V<std::int32_t> z = c.load(b, tid);
    c.store(a, tid, x);
    V<std::int32_t> u(c, -1);
    c.if_(tid < 16, [&] { u = c.load(a, tid); });
    const V<std::int32_t> t = c.texture_load(b, tid);
    EXPECT_EQ(t[7], -7);
    EXPECT_EQ(x[5], 50);
    EXPECT_EQ(y[5], 60);
    EXPECT_EQ(z[5], -5);
    EXPECT_EQ(u[15], 150);
    EXPECT_EQ(u[16], -1);
    const std::vector<WarpRecord>& w = c.records();
    EXPECT_EQ(count_of(w[0], InstrClass::kInt), dependent ? 3u : 1u)
        << (dependent ? "with latencies" : "without");
    if (dependent) {
      // The first step: address 1 alone, its issue and the 3 cycles the load waits for it.
      EXPECT_EQ(w[0].steps[0].kind, Step::Kind::kCompute);
      EXPECT_EQ(w[0].steps[0].instructions, 1u);
      EXPECT_EQ(w[0].steps[0].cycles, 4u);
      EXPECT_EQ(w[0].steps[1].kind, Step::Kind::kLoad);
    }
  }
}

// The load steps of a warp's record, unpacked.
std::vector<Step> load_steps(const WarpRecord& r) {
  std::vector<Step> loads;
  for (std::size_t i = 0; i < r.steps.size(); ++i) {
    Step s;
    r.unpack(i, s);
    if (s.kind == Step::Kind::kLoad) loads.push_back(s);
  }
  return loads;
}

// A texture fetch is recorded as a load marked texture (Step::texture: the SM's texture pipeline), a global
// load is not; the scoreboard's mark (Step::scoreboarded) stands beside it. One warp: a global load, then a
// texture fetch, each read by nothing; with the scoreboard both are scoreboarded, without it neither.
TEST(Simt, ATextureFetchIsALoadMarkedTexture) {
  for (const bool nonblocking : {false, true}) {
    Array<std::int32_t> a{"a", 1 << 20, 64, nullptr};
    Latencies l = volta_like();
    l[kNonblockingLoads] = nonblocking ? 1 : 0;
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, l);
    const V<std::int64_t> tid = c.threadIdx_x();
    c.load(a, tid);
    c.texture_load(a, tid);
    const std::vector<Step> loads = load_steps(c.records()[0]);
    ASSERT_EQ(loads.size(), 2u);
    EXPECT_FALSE(loads[0].texture);
    EXPECT_TRUE(loads[1].texture);
    EXPECT_EQ(loads[0].scoreboarded, nonblocking);
    EXPECT_EQ(loads[1].scoreboarded, nonblocking);
  }
}

// A filtered texture fetch (texture_load_taps) is one load step marked texture whose lines are those of
// every tap of every active lane, and whose value is the first tap's. One warp of 32 threads, 4-byte
// elements from a 128 B line boundary, taps tid and tid + 64: lanes 0..31 read elements 0..31 (line 0) and
// 64..95 (line 2): one step of 2 lines, no address instruction. Lanes 0..15 alone (tid < 16): elements
// 0..15 and 64..79, the first half of lines 0 and 2: still 2 lines, each 2 sectors (bytes 0..63).
TEST(Simt, AFilteredTextureFetchIsOneStepOverAllItsTaps) {
  std::vector<std::int32_t> data(128);
  for (std::int32_t i = 0; i < 128; ++i)
    data[std::size_t(i)] = 3 * i;
  Array<std::int32_t> a{"a", 1 << 20, 128, &data};
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tid = c.threadIdx_x(), far = tid + 64;
  const V<std::int32_t> v = c.texture_load_taps(a, {tid, far});
  EXPECT_EQ(v[9], 27);  // the first tap's value: element 9
  c.if_(tid < 16, [&] { c.texture_load_taps(a, {tid, far}); });
  const WarpRecord& r = c.records()[0];
  const std::vector<Step> loads = load_steps(r);
  ASSERT_EQ(loads.size(), 2u);
  for (const Step& s : loads) {
    EXPECT_TRUE(s.texture);
    ASSERT_EQ(s.line_count, 2u);
    EXPECT_EQ(s.lines[0], (1u << 20));
    EXPECT_EQ(s.lines[1], (1u << 20) + 256u);
  }
  EXPECT_EQ(loads[0].sectors[0], 0b1111);
  EXPECT_EQ(loads[1].sectors[0], 0b0011);
  EXPECT_EQ(loads[1].sectors[1], 0b0011);
  // tid + 64 is the kernel's own integer instruction; the fetches form no address.
  EXPECT_EQ(count_of(r, InstrClass::kInt), 2u);  // tid + 64 and the compare tid < 16
}

// Which lanes hold an address, per warp, by hand (two warps of 32 threads, int latency 4). Warp 0:
//   if (tid < 16) a[tid]       a compare, a branch, and address 1 for lanes 0..15
//   a[tid]                     lanes 16..31 lack it: address 1 again, for them (one instruction)
//   if (tid < 8) b[3]          a compare, a branch, and address 2: its index is the same in every lane (a
//                              loop-invariant product the compiler hoists), so it is formed for all 32
//   if (tid >= 24) b[3]        a compare and a branch; lanes 24..31 hold address 2: no instruction
//   texture a[tid]             a texture fetch: no address instruction
// Int instructions: 3 compares + 3 addresses = 6. Warp 1 (threads 32..63) has its own registers: it
// compares three times, loads a[tid] with all its lanes (address 1, its own) and b[3] under tid >= 24 (all
// its lanes: address 2, its own, not warp 0's): 3 compares + 2 addresses = 5.
TEST(Simt, AnAddressIsFormedForTheLanesThatLackIt) {
  Array<std::int32_t> a{"a", 1 << 20, 64, nullptr}, b{"b", 2 << 20, 64, nullptr};
  Cta c({1, 1, 1}, {64, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tid = c.threadIdx_x();
  c.if_(tid < 16, [&] { c.load(a, tid); });
  c.load(a, tid);
  c.if_(tid < 8, [&] { c.load(b, c.uniform(3)); });
  c.if_(tid >= 24, [&] { c.load(b, c.uniform(3)); });
  c.texture_load(a, tid);
  const std::vector<WarpRecord>& w = c.records();
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 6u);
  EXPECT_EQ(count_of(w[0], InstrClass::kBranch), 3u);
  EXPECT_EQ(count_of(w[1], InstrClass::kInt), 5u);
}

// Every warp forms its own addresses, even where its lanes' indices, mixed with the warp's number, could
// look like another warp's: 2 warps of 32 (threadIdx.y is the warp), idx = 0 in every lane, then
// `if (threadIdx.x == 0) { idx = threadIdx.y; out[idx] = ...; }`: warp 0's index is 0 in every lane, warp
// 1's is 1 in lane 0 and 0 elsewhere. Each warp: the compare (int) and its address (int) = 2; the masked
// move is no instruction.
TEST(Simt, EveryWarpFormsItsOwnAddresses) {
  Array<std::int64_t> out{"out", 1 << 20, 64, nullptr};
  Cta c({1, 1, 1}, {32, 2, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tx = c.threadIdx_x(), ty = c.threadIdx_y();
  V<std::int64_t> idx(c, 0);
  c.if_(tx == 0, [&] {
    idx = ty;
    c.store(out, idx, ty);
  });
  const std::vector<WarpRecord>& w = c.records();
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 2u);
  EXPECT_EQ(count_of(w[1], InstrClass::kInt), 2u);
}

// Atomics form their addresses too, and reuse them. One warp, int latency 4: atomicAdd(&acc[tid], 1)
// forms address 1 (issue 0, ready 4; the atomic waits until 4: step 0 is 1 instruction and 4 cycles);
// atomicAdd(&acc[tid], 1) again and atomicMin(&acc[tid], 1) reuse it: 1 int instruction in all. Each
// element ends at min(0 + 1 + 1, 1) = 1.
TEST(Simt, AtomicsFormAndReuseTheirAddresses) {
  std::vector<std::int32_t> acc_data(32, 0);
  Array<std::int32_t> acc{"acc", 1 << 20, 32, &acc_data};
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tid = c.threadIdx_x();
  const V<std::int32_t> one(c, 1);
  c.atomic_add(acc, tid, one);
  c.atomic_add(acc, tid, one);
  c.atomic_min(acc, tid, one);
  EXPECT_EQ(acc_data[0], 1);
  EXPECT_EQ(acc_data[31], 1);
  const std::vector<WarpRecord>& w = c.records();
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 1u);
  EXPECT_EQ(w[0].steps[0].instructions, 1u);
  EXPECT_EQ(w[0].steps[0].cycles, 4u);
  EXPECT_EQ(w[0].steps[1].kind, Step::Kind::kAtomic);
}

// A partial last warp: 40 threads, warp 1 has lanes 0..7 (threads 32..39). By hand:
//   a[tid]                  each warp forms address 1 (int)
//   if (tid < 36) a[tid]    a compare; both warps hold address 1 in their active lanes: no instruction
//   if (tid >= 36) b[3]     a compare; warp 1 (threads 36..39 active) forms address 2, a uniform index,
//                           for its 8 lanes
//   b[3]                    warp 0 forms address 2; warp 1 holds it in all 8 lanes
// Int instructions: warp 0: 1 + 2 compares + 1 = 4; warp 1: 1 + 2 compares + 1 = 4.
TEST(Simt, APartialWarpFormsItsAddressesForItsLanes) {
  Array<std::int32_t> a{"a", 1 << 20, 64, nullptr}, b{"b", 2 << 20, 64, nullptr};
  Cta c({1, 1, 1}, {40, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tid = c.threadIdx_x();
  c.load(a, tid);
  c.if_(tid < 36, [&] { c.load(a, tid); });
  c.if_(tid >= 36, [&] { c.load(b, c.uniform(3)); });
  c.load(b, c.uniform(3));
  const std::vector<WarpRecord>& w = c.records();
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 4u);
  EXPECT_EQ(count_of(w[1], InstrClass::kInt), 4u);
}

// A reused address still waits for its index: an index recomputed with the same values may be in flight.
// By hand, one warp, int latency 4: out[tid] = tid forms its address at 0 (ready 4), the store waits
// until 4 (step 0: 1 instruction, 4 cycles); j = tid * 1 issues at 4 (ready 8); out[j] = tid finds the
// address formed (j equals tid in every lane) and issues no instruction, but waits for j until 8 (step 2:
// the multiply and 3 stalled cycles).
TEST(Simt, AReusedAddressWaitsForItsIndex) {
  Array<std::int64_t> out{"out", 1 << 20, 64, nullptr};
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int64_t> tid = c.threadIdx_x();
  c.store(out, tid, tid);
  const V<std::int64_t> j = tid * std::int64_t(1);
  c.store(out, j, tid);
  const std::vector<WarpRecord>& w = c.records();
  ASSERT_EQ(w[0].steps.size(), 4u);
  EXPECT_EQ(w[0].steps[0].instructions, 1u);
  EXPECT_EQ(w[0].steps[0].cycles, 4u);
  EXPECT_EQ(w[0].steps[1].kind, Step::Kind::kStore);
  EXPECT_EQ(w[0].steps[2].instructions, 1u);
  EXPECT_EQ(w[0].steps[2].cycles, 4u);
  EXPECT_EQ(w[0].steps[3].kind, Step::Kind::kStore);
  EXPECT_EQ(count_of(w[0], InstrClass::kInt), 2u);  // the address once and the multiply
}

// A shared-memory load and the branch that reads it: the load issues at 0 (one pass), its value is ready at
// 20; the compare waits for it (issue 20, ready 24) and the branch for the compare (issue 24). Step: 25
// cycles for 3 instructions.
TEST(Simt, BranchesWaitForTheirCondition) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  Cta::Shared<std::int32_t> tile(c, 32);
  const V<std::int32_t> t = tile.load(c.threadIdx_x());
  c.if_(t > 0, [] {});
  const std::vector<WarpRecord>& w = c.records();
  ASSERT_EQ(w[0].steps.size(), 1u);
  EXPECT_EQ(w[0].steps[0].instructions, 3u);
  EXPECT_EQ(w[0].steps[0].cycles, 25u);
}

// A constant-memory read (Cta::constant_load) is one int instruction whose issue takes a pass per distinct
// address of the warp, its result ready the int latency (4) after its last pass. By hand, one warp:
//   idx = tid / 4                  int, issue 0 (clock 1), ready 0 + 4 = 4
//   a = table[3] (uniform index)   1 pass: issue 1 (clock 2), ready 1 + 1 - 1 + 4 = 5
//   b = table[idx]                 idx holds 8 distinct values: waits for idx until 4 (2 stalled cycles),
//                                  8 passes (clock 12), ready 4 + 8 - 1 + 4 = 15
//   s = a + b                      fp32, waits for b: issue 15 (clock 16), ready 19
// One compute step of 4 instructions and 16 cycles. Without latencies: 4 instructions, 4 cycles (the read
// issues in one cycle, as the charged instruction it replaces). Values: table[i] = 10 i.
TEST(Simt, ConstantReadsTakeAPassPerDistinctAddress) {
  std::vector<float> table(32);
  for (unsigned i = 0; i < table.size(); ++i)
    table[i] = 10.0f * i;
  for (const bool dependent : {false, true}) {
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, dependent ? volta_like() : Latencies{});
    const V<std::int64_t> idx = c.threadIdx_x() / 4;
    const V<float> a = c.constant_load(table, c.uniform(3));
    const V<float> b = c.constant_load(table, idx);
    const V<float> s = a + b;
    EXPECT_FLOAT_EQ(s[0], 30.0f);
    EXPECT_FLOAT_EQ(s[31], 30.0f + 70.0f);  // thread 31 reads table[7]
    const std::vector<WarpRecord>& w = c.records();
    EXPECT_EQ(count_of(w[0], InstrClass::kInt), 3u);  // the divide and the two reads
    EXPECT_EQ(count_of(w[0], InstrClass::kFp32), 1u);
    ASSERT_EQ(w[0].steps.size(), 1u);
    EXPECT_EQ(w[0].steps[0].instructions, 4u);
    EXPECT_EQ(w[0].steps[0].cycles, dependent ? 16u : 4u) << (dependent ? "with latencies" : "without");
    // The passes also go to the SM's constant cache (sm.constant_cache_ports): 1 + 8 with latencies; none
    // without (the paper system's one-cycle read). Instructions stay 4.
    Step step;
    w[0].unpack(0, step);
    EXPECT_EQ(step.instructions, 4u);
    EXPECT_EQ(step.constant_passes, dependent ? 9u : 0u);
    EXPECT_EQ(step.shared_replays, 0u);
    if (dependent) {
      EXPECT_EQ(a.ready(0), 5u);
      EXPECT_EQ(b.ready(0), 15u);
      EXPECT_EQ(s.ready(0), 19u);
    }
  }
}

// Only the active threads' addresses count, per warp. 64 threads, `if (tid < 40) v = table[tid]`: the
// compare issues at 0 (ready 4), the branch waits for it (issue 4, clock 5); then warp 0 reads 32 distinct
// addresses (issue 5, 32 passes: clock 37), warp 1 the 8 of its threads 32..39 (issue 5, 8 passes: clock
// 13). Past the table's end a read gives 0 (T{}).
TEST(Simt, ConstantReadsCountTheActiveThreadsAddresses) {
  std::vector<std::int32_t> table(36);
  for (unsigned i = 0; i < table.size(); ++i)
    table[i] = static_cast<std::int32_t>(i) + 1;
  Cta c({1, 1, 1}, {64, 1, 1}, {0, 0, 0}, kLine, volta_like());
  V<std::int32_t> v(c, -1);
  c.if_(c.threadIdx_x() < 40, [&] { v = c.constant_load(table, c.threadIdx_x()); });
  EXPECT_EQ(v[0], 1);
  EXPECT_EQ(v[35], 36);
  EXPECT_EQ(v[36], 0);   // past the table
  EXPECT_EQ(v[40], -1);  // inactive: kept
  const std::vector<WarpRecord>& w = c.records();
  ASSERT_EQ(w[0].steps.size(), 1u);
  ASSERT_EQ(w[1].steps.size(), 1u);
  EXPECT_EQ(w[0].steps[0].instructions, 3u);  // compare, branch, read
  EXPECT_EQ(w[1].steps[0].instructions, 3u);
  EXPECT_EQ(w[0].steps[0].cycles, 37u);
  EXPECT_EQ(w[1].steps[0].cycles, 13u);
  Step step;
  w[0].unpack(0, step);
  EXPECT_EQ(step.constant_passes, 32u);
  w[1].unpack(0, step);
  EXPECT_EQ(step.constant_passes, 8u);
}

// The offset is an immediate of the read's address: table[tid + 2] is one int instruction (no add), 32
// distinct addresses: issue 0, 32 passes, ready 0 + 32 - 1 + 4 = 35.
TEST(Simt, ConstantReadOffsetIsNoInstruction) {
  std::vector<std::int32_t> table(40);
  for (unsigned i = 0; i < table.size(); ++i)
    table[i] = static_cast<std::int32_t>(i);
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  const V<std::int32_t> v = c.constant_load(table, c.threadIdx_x(), 2);
  EXPECT_EQ(v[0], 2);
  EXPECT_EQ(v[31], 33);
  EXPECT_EQ(v.ready(0), 35u);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kInt), 1u);
}

// Shared::broadcast is load_uniform as a value the dependency model tracks: one pass, its result ready the
// shared latency (20) after its issue. x = s.broadcast(2) issues at 0 (ready 20); y = x + 1 waits for it
// (issue 20, clock 21). Counted as load_uniform counts: one shared access, one pass.
TEST(Simt, SharedBroadcastIsAValueReadyAfterTheSharedLatency) {
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, volta_like());
  Cta::Shared<float> s(c, 4);
  const V<float> x = s.broadcast(2);
  const V<float> y = x + 1.0f;
  EXPECT_EQ(x.ready(0), 20u);
  EXPECT_EQ(y.ready(0), 24u);
  EXPECT_EQ(c.counters().shared_accesses, 1u);
  EXPECT_EQ(c.counters().shared_wavefronts, 1u);
  ASSERT_EQ(c.records()[0].steps.size(), 1u);
  EXPECT_EQ(c.records()[0].steps[0].cycles, 21u);
}

// load_wide<4> (LDS.128): one shared instruction per warp for four floats a thread. dct 1DCT's pattern, a
// warp of 4 rows x 8 lanes where lane (ty, tx) reads row ty's floats 8 ty .. 8 ty + 3: 4 distinct 16-byte
// groups at words 0, 8, 16, 24 (+ 0..3), banks 0-3, 8-11, 16-19, 24-27, no bank twice: one pass. All four
// values are ready when the one instruction's result is. 32 lanes reading 32 different groups (t * 4) cover
// 128 words, 4 a bank: 4 passes. A start that is not 16-byte aligned (element 2) is refused, as the
// hardware faults on a misaligned vector access.
TEST(Simt, WideSharedLoadIsOneInstructionForFourFloats) {
  Cta c({1, 1, 1}, {8, 4, 1}, {0, 0, 0}, kLine, volta_like());
  Cta::Shared<float> s(c, 128);
  std::array<V<float>, 4> row = s.load_wide<4>(c.threadIdx_y() * std::int64_t(8));  // 1 int (ty * 8)
  EXPECT_EQ(c.counters().shared_accesses, 1u);
  EXPECT_EQ(c.counters().shared_wavefronts, 1u);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kShared), 1u);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_FLOAT_EQ(row[k][0], 0.0f);  // no data stored: T{}
  }
  // The int (ty * 8) issues at 0, ready at 4 (int latency); the wide load waits for it: issue 4, ready 24.
  for (const V<float>& v : row)
    EXPECT_EQ(v.ready(0), 24u);
  (void)s.load_wide<4>(map(c.threadIdx_y() * std::int64_t(8) + c.threadIdx_x(), InstrClass::kInt,
                           [](std::int64_t t) { return t * 4; }));
  EXPECT_EQ(c.counters().shared_wavefronts, 1u + 4u);
  EXPECT_THROW((void)s.load_wide<4>(c.uniform(2)), std::logic_error);
  // An immediate offset is part of the address, not an instruction: row ty's second half (8 ty + 4) reads
  // the stored s[k] = k back as 8 ty + 4 .. 8 ty + 7, with no int instruction added. The store itself: one
  // shared instruction (lane t writes t).
  s.store(c.threadIdx_y() * std::int64_t(8) + c.threadIdx_x(),
          map(c.threadIdx_y() * std::int64_t(8) + c.threadIdx_x(), InstrClass::kInt,
              [](std::int64_t t) { return static_cast<float>(t); }));
  const std::uint64_t ints = count_of(c.records()[0], InstrClass::kInt);
  const V<std::int64_t> base = c.threadIdx_y() * std::int64_t(8);  // 1 int
  const std::array<V<float>, 4> high = s.load_wide<4>(base, 4);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kInt), ints + 1);
  for (std::size_t k = 0; k < 4; ++k) {
    EXPECT_FLOAT_EQ(high[k][0], 4.0f + float(k));           // lane 0: ty 0
    EXPECT_FLOAT_EQ(high[k][31], 3 * 8 + 4.0f + float(k));  // lane 31: ty 3
  }
  EXPECT_FLOAT_EQ(s.load(c.threadIdx_x(), 8)[0], 8.0f);  // s[0 + 8]
}

// sm.shared_access_phases (kSharedPhases): the warp in phases of 128 B, each its own bank passes; a load
// whose lanes pair up (n and n ^ 1, or n and n ^ 2, on one address) packs two lanes a phase. By hand, one
// warp of 32 lanes, 32 banks of 4 B:
// - LDS (4 B) consecutive: one phase of 32, words 0..31: 1 pass; stride 32 words: 32 (one phase, as without).
// - LDS.64 consecutive (floats 2 t, 2 t + 1): 2 phases of 16 lanes, each words 32 p .. 32 p + 31: 1 + 1.
// - LDS.128 consecutive (floats 4 t ..): 4 phases of 8 lanes, each 128 B: 4 passes.
// - LDS.128 with lane t on bytes 16 (t % 4) (NVIDIA's forum thread 77228, CC 7.5: 4 requests measured where
//   one was expected): lanes 0 and 1 differ, 0 and 2 differ: no pairs; 4 phases of 8, each 4 groups on
//   words 0..15, no bank twice: 4 passes. Counted over the whole warp it would be 1.
// - LDS.128 with lanes t and t + 16 on bytes 32 (t % 16) (forum thread 373160's first pattern, measured 8
//   wavefronts on CC 8.6 and 9.0): no pairs; phase 0 (lanes 0-7) reads words 0-3, 8-11, .., 56-59, so
//   banks 0-3 hold words 0 and 32: 2 passes, 4 phases: 8. Whole warp: banks 0-3 hold 0, 32, 64, 96: 4.
// - LDS.128 with lanes 0-15 on bytes 0, lanes 16-31 on bytes 32 (its second pattern, measured 2): lane n
//   and n ^ 1 alike: phases of 16, each one address: 1 + 1.
// - broadcast_wide<4> (LDS.128, one address): every lane pairs up, 2 phases of 16: 2; broadcast_wide<2>
//   (LDS.64): one phase of 32: 1; broadcast (LDS): 1; broadcast(i, 4), the same LDS.128 as one value: 2
//   (a misaligned or 12-byte one is refused). With only lanes 0-7 active, broadcast_wide<4> fills one
//   phase: 1.
// - a 16-byte store to one address (STS.128): a store does not pair up: 4 phases of 8, each one word per
//   bank: 4.
TEST(Simt, SharedPhasesServeWideAccessesByHalfAndQuarterWarps) {
  struct Quad {
    std::uint32_t v[4];
  };
  Latencies phases{};
  phases[kSharedPhases] = 1;
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, phases);
  Cta::Shared<float> s(c, 32 * 32);
  const V<std::int64_t> t = c.threadIdx_x();
  const auto passes_of = [&c](const std::function<void()>& access) {
    const std::uint64_t before = c.counters().shared_wavefronts;
    access();
    return c.counters().shared_wavefronts - before;
  };
  const auto ix = [&t](std::int64_t (*f)(std::int64_t)) { return map(t, InstrClass::kInt, f); };
  EXPECT_EQ(passes_of([&] { (void)s.load(t); }), 1u);
  EXPECT_EQ(passes_of([&] { (void)s.load(ix([](std::int64_t x) { return x * 32; })); }), 32u);
  EXPECT_EQ(passes_of([&] { (void)s.load_wide<2>(ix([](std::int64_t x) { return x * 2; })); }), 2u);
  EXPECT_EQ(passes_of([&] { (void)s.load_wide<4>(ix([](std::int64_t x) { return x * 4; })); }), 4u);
  EXPECT_EQ(passes_of([&] { (void)s.load_wide<4>(ix([](std::int64_t x) { return x % 4 * 4; })); }), 4u);
  EXPECT_EQ(passes_of([&] { (void)s.load_wide<4>(ix([](std::int64_t x) { return x % 16 * 8; })); }), 8u);
  EXPECT_EQ(passes_of([&] { (void)s.load_wide<4>(ix([](std::int64_t x) { return x / 16 * 8; })); }), 2u);
  EXPECT_EQ(passes_of([&] { (void)s.broadcast_wide<4>(8); }), 2u);
  EXPECT_EQ(passes_of([&] { (void)s.broadcast_wide<2>(8); }), 1u);
  EXPECT_EQ(passes_of([&] { (void)s.broadcast(8); }), 1u);
  EXPECT_EQ(passes_of([&] { (void)s.broadcast(8, 4); }), 2u);  // broadcast_wide<4>'s passes, one value
  EXPECT_THROW((void)s.broadcast(2, 4), std::logic_error);
  EXPECT_THROW((void)s.broadcast(0, 3), std::logic_error);
  c.if_(t < 8, [&] { EXPECT_EQ(passes_of([&] { (void)s.broadcast_wide<4>(8); }), 1u); });
  Cta::Shared<Quad> quads(c, 4);
  EXPECT_EQ(passes_of([&] { quads.store(c.uniform(1), V<Quad>(c, Quad{})); }), 4u);
}

// Without phases (the default) the same accesses count the whole warp's banks: the forum's patterns 1 and 4
// (above), a broadcast LDS.128 1. With phases and dependent latencies, a broadcast LDS.128's two passes are
// two issue cycles of its warp and one replay of the shared pipe: x issues at 0 for 2 cycles, ready 0 + 2 -
// 1 + 20 = 21; x[3] + 1 waits for it: issue 21, ready 25.
TEST(Simt, WithoutPhasesAWideBroadcastIsOnePassWithThemTwo) {
  {
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
    Cta::Shared<float> s(c, 64);
    (void)s.load_wide<4>(map(c.threadIdx_x(), InstrClass::kInt, [](std::int64_t x) { return x % 4 * 4; }));
    (void)s.broadcast_wide<4>(8);
    EXPECT_EQ(c.counters().shared_wavefronts, 1u + 1u);
  }
  Latencies l = volta_like();
  l[kSharedPhases] = 1;
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, l);
  Cta::Shared<float> s(c, 64);
  const std::array<V<float>, 4> x = s.broadcast_wide<4>(8);
  const V<float> y = x[3] + 1.0f;
  for (const V<float>& v : x)
    EXPECT_EQ(v.ready(0), 21u);
  EXPECT_EQ(y.ready(0), 25u);
  Step step;
  c.records()[0].unpack(0, step);
  EXPECT_EQ(step.classes[static_cast<unsigned>(InstrClass::kShared)], 1u);
  EXPECT_EQ(step.shared_replays, 1u);
  // A second one after the add: its replay joins the step's replay word (the SM sums a step's passes), so
  // the step's runs are LDS, replays (2), FADD, LDS: 4 words, not 5.
  (void)s.broadcast_wide<4>(12);
  c.records()[0].unpack(0, step);
  EXPECT_EQ(step.classes[static_cast<unsigned>(InstrClass::kShared)], 2u);
  EXPECT_EQ(step.shared_replays, 2u);
  EXPECT_EQ(c.records()[0].steps[0].line_count, 4u);
  EXPECT_THROW((void)s.broadcast_wide<4>(2), std::logic_error);
}

// fragment_op: n independent instructions reading the same inputs, one value ready when the last is. By
// hand (fp32 latency 4): x = tid + 1 (int) issues at 0, ready 4; three fp32 instructions reading x wait
// until 4 and issue at 4, 5, 6 (ready 8, 9, 10): the value is ready at 10, the step lasts 7 cycles (4 + 3).
// Counted as charge(kFp32, 3). Without latencies: 4 instructions, 4 cycles.
TEST(Simt, FragmentOpIsIndependentInstructionsReadyWhenTheLastIs) {
  for (const bool dependent : {false, true}) {
    Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine, dependent ? volta_like() : Latencies{});
    const V<std::int64_t> x = c.threadIdx_x() + std::int64_t(1);
    const V<float> f = fragment_op<float>(c, InstrClass::kFp32, 3, x);
    const std::vector<WarpRecord>& w = c.records();
    EXPECT_EQ(count_of(w[0], InstrClass::kFp32), 3u);
    ASSERT_EQ(w[0].steps.size(), 1u);
    EXPECT_EQ(w[0].steps[0].cycles, dependent ? 7u : 4u);
    if (dependent) {
      EXPECT_EQ(f.ready(0), 10u);
    }
  }
}

TEST(KernelLibrary, ContentsOfArraysWithData) {
  class K : public Kernel {
   public:
    explicit K(const Args& a) : Kernel(a) {
      values_ = {1, 2, 3};
      (void)array<int>("with", 3, 0, 0, &values_);
      (void)array<int>("without", 3);
    }
    Launch launch() override { return {}; }
    std::vector<int> values_;
  };
  const K k(Args({}, "", 0));
  ASSERT_NE(k.contents<int>("with"), nullptr);
  EXPECT_EQ((*k.contents<int>("with"))[2], 3);
  EXPECT_EQ(k.contents<int>("without"), nullptr);
  EXPECT_EQ(k.contents<int>("nope"), nullptr);
  EXPECT_EQ(k.contents<double>("with"), nullptr);
}

// rodinia/hotspot at the GV100 study's size: a 1024 x 1024 grid, pyramid 2. Small blocks of 16 - 2 x 2 = 12
// cells: ceil(1024 / 12) = 86 CTAs per side, 7,396 CTAs of 256 threads (8 warps). On a cold cache the loads
// touch every line of the two input arrays once: 2 x 1024 x 1024 floats x 4 B / 128 B = 65,536 lines
// (262,144 sectors of 32 B), the stores every line of the output: 32,768 lines. Each warp waits at 4
// barriers: after the load, after step 0's compute and its copy, after step 1's compute (then the loop
// breaks).
TEST(KernelLibrary, HotspotTouchesEachInputLineAndWritesEachOutputLine) {
  CppKernelProgram p("calculate_temp", make_kernel("rodinia/hotspot", "", std::uint64_t(1) << 32), kLine);
  ASSERT_EQ(p.ctas(), 86u * 86u);
  ASSERT_EQ(p.warps_per_cta(), 8u);
  std::set<std::uint64_t> loaded, stored;
  for (std::uint32_t cta = 0; cta < p.ctas(); ++cta) {
    for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
      Step s;
      unsigned barriers = 0;
      std::uint32_t i = 0;
      for (; p.step(cta, w, i, s); ++i) {
        if (s.kind == Step::Kind::kBarrier) ++barriers;
        for (unsigned l = 0; l < s.line_count; ++l) {
          if (s.kind == Step::Kind::kLoad) loaded.insert(s.lines[l]);
          if (s.kind == Step::Kind::kStore) stored.insert(s.lines[l]);
        }
      }
      ASSERT_EQ(barriers, 4u) << "cta " << cta << " warp " << w;
    }
  }
  EXPECT_EQ(loaded.size(), 65536u);
  EXPECT_EQ(stored.size(), 32768u);
  // Lazy: each CTA's steps were made when its first warp asked and dropped when its last warp ended.
  EXPECT_EQ(p.totals().ctas_executed, 86u * 86u);
  EXPECT_EQ(p.totals().max_resident_ctas, 1u);
}

// hotspot computes as its source types it: four fp32 divisions per thread (step / Cap, 1 / Rx, 1 / Ry,
// 1 / Rz; with dependent latencies each is the 6 fp32 instructions of its sequence (FCHK, 5 FFMAs), with an
// sfu and a branch: 24 fp32; without them one fp32 instruction each: 4), three conversions to double of the
// factors the update reads (F2F: fp64), and per update (the 2.0 literal makes it double) 12 fp64 (the
// conversions of t, S + N, E + W, the power and the ambient term to double and of the result back to float;
// DFMAs for S + N - 2.0 t, E + W - 2.0 t, + vertical Ry_1, + horizontal Rx_1 and t + step_div_Cap sum; a
// DADD of the ambient term) and 4 fp32 (the sums S + N and E + W, amb_temp - t and its product with Rz_1).
// An interior CTA (bx = by = 1 of 86 x 86): step 0 updates rows 1..14, which every warp (rows 2w, 2w + 1)
// has; step 1 rows 2..13, which warps 0 and 7 lack.
//   warp 0: fp64 3 + 12 = 15, fp32 4 + 4 = 8 (with latencies 24 + 4 = 28), sfu 0 (with latencies 4);
//   warp 3: fp64 3 + 2 x 12 = 27, fp32 4 + 2 x 4 = 12 (with latencies 24 + 8 = 32), sfu as warp 0.
TEST(KernelLibrary, HotspotUpdatesInDoubleAsItsSourceTypesIt) {
  for (const bool dependent : {false, true}) {
    CppKernelProgram p("calculate_temp", make_kernel("rodinia/hotspot", "", std::uint64_t(1) << 32), kLine,
                       dependent ? volta_like() : Latencies{});
    const std::uint32_t cta = 1 * 86 + 1;
    auto count = [&](std::uint32_t warp, InstrClass cls) {
      std::uint64_t n = 0;
      Step s;
      for (std::uint32_t i = 0; p.step(cta, warp, i, s); ++i)
        if (s.kind == Step::Kind::kCompute) n += s.classes[static_cast<unsigned>(cls)];
      return n;
    };
    const std::uint64_t divisions_fp32 = dependent ? 4 * 6 : 4;
    const std::uint64_t divisions_sfu = dependent ? 4 : 0;  // the divisions' MUFU.RCP
    EXPECT_EQ(count(0, InstrClass::kFp64), 15u);
    EXPECT_EQ(count(0, InstrClass::kFp32), divisions_fp32 + 4);
    EXPECT_EQ(count(0, InstrClass::kSfu), divisions_sfu);
    EXPECT_EQ(count(3, InstrClass::kFp64), 27u);
    EXPECT_EQ(count(3, InstrClass::kFp32), divisions_fp32 + 2 * 4);
    EXPECT_EQ(count(3, InstrClass::kSfu), divisions_sfu);
  }
}

// Configuration errors name the key: an unknown kernel at `kernel`, a bad argument at `args`.
TEST(KernelLibrary, BadNamesAndArgumentsBlameTheirKey) {
  SystemParams p;
  KernelSpec k;
  k.name = "k";
  k.kernel = "rodinia/nope";
  p.workload.kernels = {k};
  try {
    derive_system_spec(p);
    FAIL() << "accepted an unknown kernel";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "workload.kernels.0.kernel");
  }
  for (const char* bad : {"rows=12", "rows=x", "depth=3", "rows"}) {
    p.workload.kernels[0].kernel = "rodinia/hotspot";
    p.workload.kernels[0].args = bad;
    try {
      derive_system_spec(p);
      FAIL() << "accepted args " << bad;
    } catch (const SpecError& e) {
      EXPECT_EQ(e.key(), "workload.kernels.0.args") << bad;
    }
  }
  // Arguments whose arrays would take more than 1 TiB are refused at `args`: cudaTensorCoreGemm with all
  // tile counts at 65536 multiplies M = N = K = 16 x 65536 = 2^20: A and B are 2^40 halves (2 TiB each),
  // C and D 2^40 floats (4 TiB each).
  p.workload.kernels[0].kernel = "cuda-samples/cudaTensorCoreGemm";
  p.workload.kernels[0].args = "m_tiles=65536 n_tiles=65536 k_tiles=65536";
  try {
    derive_system_spec(p);
    FAIL() << "accepted 12 TiB of arrays";
  } catch (const SpecError& e) {
    EXPECT_EQ(e.key(), "workload.kernels.0.args");
    EXPECT_NE(std::string(e.what()).find("more than 1099511627776 B (1 TiB)"), std::string::npos) << e.what();
  }
  // One at its maximum fits: M = 2^20, N = K = 16 x 256 = 4096: A 2^32 halves (8 GiB), B 2^24 halves,
  // C and D 2^32 floats (16 GiB each), about 40 GiB.
  p.workload.kernels[0].args = "m_tiles=65536";
  EXPECT_NO_THROW(derive_system_spec(p));
  p.workload.kernels[0].kernel = "rodinia/hotspot";
  // A good one: the grid and the warps come from the kernel, its arrays join the allocations.
  p.workload.kernels[0].args = "rows=64 cols=64";
  const SystemSpec s = derive_system_spec(p);
  EXPECT_EQ(s.kernels[0].ctas, 36u);  // ceil(64 / 12) = 6 per side
  EXPECT_EQ(s.kernels[0].warps_per_cta, 8u);
  ASSERT_EQ(s.allocations.size(), 3u);
  EXPECT_EQ(s.allocations[0].name, "k.power");
  EXPECT_EQ(s.allocations[0].bytes, 64u * 64 * 4);
}

// The coalescer (workload/program.cpp) looks lines up in a hashed index; it must give what a plain scan of
// the step's lines gives: the distinct lines in first-touch order with the union of their sectors, appended
// after what the step already holds, at most Step::kMaxLines. Compared here with that scan on random warps
// (addresses within a few lines or spread over many, accesses of 1 to 16 bytes that may straddle a line,
// line sizes 32, 64, 128 and a non-power-of-two 96, steps that start empty or not).
TEST(Coalesce, MatchesAPlainScanOfTheLines) {
  auto reference = [](const std::vector<std::uint64_t>& addresses, unsigned bytes, unsigned line_bytes,
                      Step& step) {
    const bool sectored = line_bytes > 32 && line_bytes <= 256;
    auto add = [&](std::uint64_t line, std::uint64_t from, std::uint64_t to) {
      std::uint8_t m = 0;
      if (sectored) {
        const std::uint64_t lo = (std::max(from, line) - line) / 32,
                            hi = (std::min(to, line + line_bytes - 1) - line) / 32;
        m = static_cast<std::uint8_t>(((2u << hi) - 1) & ~((1u << lo) - 1));
      }
      for (unsigned i = 0; i < step.line_count; ++i)
        if (step.lines[i] == line) {
          step.sectors[i] |= m;
          return;
        }
      if (step.line_count < Step::kMaxLines) {
        step.sectors[step.line_count] = m;
        step.lines[step.line_count++] = line;
      }
    };
    for (std::uint64_t a : addresses) {
      const std::uint64_t end = a + std::max(1u, bytes) - 1;
      add(a / line_bytes * line_bytes, a, end);
      if (end / line_bytes != a / line_bytes) add(end / line_bytes * line_bytes, a, end);
    }
  };
  std::uint64_t seed = 12345;
  auto next = [&seed] {
    seed = seed * 6364136223846793005ull + 1442695040888963407ull;
    return seed >> 33;
  };
  for (int trial = 0; trial < 4000; ++trial) {
    const unsigned line_bytes = std::array<unsigned, 4>{32, 64, 96, 128}[trial % 4];
    const unsigned bytes = 1 + next() % 16;
    const std::uint64_t spread = std::array<std::uint64_t, 3>{256, 8192, 1 << 24}[next() % 3];
    std::vector<std::uint64_t> addresses;
    for (unsigned lane = 0, n = 1 + next() % 32; lane < n; ++lane)
      addresses.push_back((std::uint64_t(1) << 32) + next() % spread);
    Step expected, got;
    for (unsigned i = 0, prior = (trial % 7 == 0) ? 1 + next() % 8 : 0; i < prior; ++i) {
      const std::uint64_t line = ((std::uint64_t(1) << 32) + next() % spread) / line_bytes * line_bytes;
      bool seen = false;
      for (unsigned j = 0; j < expected.line_count; ++j)
        seen |= expected.lines[j] == line;
      if (seen) continue;
      expected.lines[expected.line_count] = got.lines[got.line_count] = line;
      expected.sectors[expected.line_count++] = got.sectors[got.line_count++] = 1;
    }
    reference(addresses, bytes, line_bytes, expected);
    coalesce(addresses, bytes, line_bytes, got);
    ASSERT_EQ(got.line_count, expected.line_count) << "trial " << trial;
    for (unsigned i = 0; i < got.line_count; ++i) {
      ASSERT_EQ(got.lines[i], expected.lines[i]) << "trial " << trial << " line " << i;
      ASSERT_EQ(got.sectors[i], expected.sectors[i]) << "trial " << trial << " line " << i;
    }
  }
}

// checks.max_record_bytes (RecordBounds): one warp alternating int and fp32 instructions records one run
// word per instruction (9 B: the word and its sector byte; no merge, the class changes every time) and one
// compute step per 65,535 runs. The recording looks at its bounds every kLookEvery = 4096 recorded
// instructions: the first look that finds the records' capacity past the limit (here 1 MiB, with 64 KiB
// held by CTAs resident beside it) throws. The records' vectors at most double past what they hold, and
// hold at most 4096 x 9 B past the limit at that look: what is reported lies between the limit and
// 2 x (limit + 4096 x 9 B + steps) - well under 3 MiB.
TEST(Simt, RecordingPastTheLimitThrowsAtTheNextLook) {
  RecordBounds bounds;
  bounds.limit = std::uint64_t(1) << 20;
  bounds.held = std::uint64_t(64) << 10;
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  c.bound_by(&bounds);
  std::uint64_t issued = 0;
  try {
    for (; issued < 10000000; ++issued)
      c.charge(issued % 2 ? InstrClass::kFp32 : InstrClass::kInt);
    FAIL() << "no RecordLimitExceeded after " << issued << " instructions";
  } catch (const RecordLimitExceeded& e) {
    EXPECT_EQ(e.limit, std::uint64_t(1) << 20);
    EXPECT_EQ(e.held, std::uint64_t(64) << 10);
    EXPECT_GT(e.bytes + e.held, e.limit);
    EXPECT_LT(e.bytes, std::uint64_t(3) << 20);
    EXPECT_EQ(e.bytes, c.records_bytes());
    // It threw at a look: after a multiple of 4096 instructions (the throwing one, `issued`, counted).
    EXPECT_EQ((issued + 1) % kLookEvery, 0u);
  }
  // Without a limit, or below it, nothing is thrown: 4096 x 3 instructions, 3 looks.
  RecordBounds unlimited;
  Cta d({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  d.bound_by(&unlimited);
  for (unsigned i = 0; i < 3 * kLookEvery; ++i)
    d.charge(i % 2 ? InstrClass::kFp32 : InstrClass::kInt);
  EXPECT_EQ(count_of(d.records()[0], InstrClass::kInt) + count_of(d.records()[0], InstrClass::kFp32),
            3u * kLookEvery);
}

// An interrupt during a CTA's recording: stop_requested is asked at every look, every 4096 recorded
// instructions, and the first true ends the recording there. One warp of one instruction per charge: the
// stop asked for at the 3rd look leaves exactly 3 x 4096 = 12,288 instructions recorded.
TEST(Simt, StopRequestEndsTheRecordingAtTheNextLook) {
  RecordBounds bounds;
  unsigned looks = 0;
  bounds.stop_requested = [&looks] { return ++looks == 3; };
  Cta c({1, 1, 1}, {32, 1, 1}, {0, 0, 0}, kLine);
  c.bound_by(&bounds);
  EXPECT_THROW(
      {
        for (;;)
          c.charge(InstrClass::kFp32);
      },
      RecordingStopped);
  EXPECT_EQ(looks, 3u);
  EXPECT_EQ(count_of(c.records()[0], InstrClass::kFp32), 3u * kLookEvery);
}

// Through a program: parboil/sgemm's CTA at its default k = 992 records far more than 4096 instructions
// (124 iterations of 8 x 16 FMAs a warp alone), so a stop asked once CTA 0 has started (the program asks
// once before it builds a CTA: that first answer is no) cuts it at its first look; its warps end after what
// they recorded, the run goes on, nothing is kept as a fault. While the CTA is resident, its records count in
// the bounds' `held`; when its last warp has ended, they no longer do. A CTA started after the stop is
// handed out with its warps and nothing recorded, without being built.
TEST(KernelLibrary, AStoppedCtaKeepsWhatItRecordedAndLeavesHeldAsItFoundIt) {
  auto bounds = std::make_shared<RecordBounds>();
  bounds->stop_requested = [asked = 0]() mutable { return ++asked > 1; };
  CppKernelProgram p("sgemm", make_kernel("parboil/sgemm_mysgemmNT", "", std::uint64_t(1) << 32), kLine);
  p.bound_by(bounds);
  std::uint64_t instructions = 0;
  for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
    Step s;
    for (std::uint32_t i = 0; p.step(0, w, i, s); ++i) {
      instructions += s.instructions;
      if (w == 0 && i == 0) {
        EXPECT_GT(bounds->held, 0u);  // CTA 0 is resident
      }
    }
  }
  EXPECT_GT(instructions, 0u);
  EXPECT_LT(instructions, 124u * 8 * 16);
  EXPECT_EQ(bounds->held, 0u);
  EXPECT_FALSE(bounds->fault);
  // CTA 1, after the stop: every warp ends at once.
  for (std::uint32_t w = 0; w < p.warps_per_cta(); ++w) {
    Step s;
    EXPECT_FALSE(p.step(1, w, 0, s)) << "warp " << w;
  }
  EXPECT_EQ(bounds->held, 0u);
}

// Past the limit, the program names itself and the CTA, and keeps the exception as the bounds' fault (for
// the System, which gets only SystemC's report of it). 1 byte: the first look (4096 instructions) is past.
TEST(KernelLibrary, ACtaPastTheLimitNamesItsProgramAndIsKeptAsTheFault) {
  auto bounds = std::make_shared<RecordBounds>();
  bounds->limit = 1;
  CppKernelProgram p("sgemm", make_kernel("parboil/sgemm_mysgemmNT", "", std::uint64_t(1) << 32), kLine);
  p.bound_by(bounds);
  Step s;
  try {
    p.step(5, 0, 0, s);
    FAIL() << "no RecordLimitExceeded";
  } catch (const RecordLimitExceeded& e) {
    EXPECT_EQ(e.program, "sgemm");
    EXPECT_EQ(e.cta, 5u);
    EXPECT_EQ(e.message().rfind("kernel 'sgemm': CTA 5 took ", 0), 0u) << e.message();
  }
  EXPECT_TRUE(bounds->fault);
  EXPECT_EQ(bounds->held, 0u);
}

}  // namespace
}  // namespace numagpu::kernels
