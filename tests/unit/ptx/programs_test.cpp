// Whole kernels compiled by clang 14 (tests/data/ptx/*.cu -> *.clang.ptx) run end to end: their values and
// the global accesses the SM model is given.
#include <gtest/gtest.h>

#include "ptx_test_support.hpp"

namespace numagpu::ptx::test {
namespace {

TEST(PtxPrograms, ClangSaxpyComputesAndReportsEachWarpsCoalescedAccesses) {
  auto m = parse_module(read_data("saxpy.clang.ptx"), "saxpy.clang.ptx");
  Kernel k(m, "_Z5saxpyifPKfPf");
  const int n = 200;  // 2 CTAs of 128 threads: the last 56 threads of CTA 1 are past n
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) {
    x[i] = float(i);
    y[i] = 1.0f;
  }
  VectorMemory mem;
  const std::uint64_t xa = mem.add(x), ya = mem.add(y);
  LaunchSpec launch;
  launch.grid = {2, 1, 1};
  launch.block = {128, 1, 1};
  launch.params = Params().add(k, 0, n).add(k, 1, 2.0f).add(k, 2, xa).add(k, 3, ya).bytes;
  RecordingSink sink;
  CtaCost total;
  for (std::uint32_t b = 0; b < 2; ++b) {
    const CtaCost c = k.execute_cta(launch, {b, 0, 0}, mem, sink, {});
    total.warp_instructions += c.warp_instructions;
  }
  const auto out = mem.get<float>(ya);
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(out[i], 2.0f * float(i) + 1.0f) << i;
  // Each in-range warp loads x, loads y and stores y: 3 accesses of 32 lanes x 4 bytes at consecutive
  // addresses. In-range warps: CTA 0's 4, CTA 1's first 2 (threads 128..191) and its third partly (192..199:
  // 8 lanes); its fourth has no thread below n and branches past.
  ASSERT_EQ(sink.globals.size(), 3u * 7);
  EXPECT_EQ(sink.globals[0].kind, Step::Kind::kLoad);
  EXPECT_EQ(sink.globals[0].addresses.front(), xa);
  EXPECT_EQ(sink.globals[0].addresses.back(), xa + 31 * 4);
  EXPECT_EQ(sink.globals[2].kind, Step::Kind::kStore);
  EXPECT_EQ(sink.globals[2].addresses.front(), ya);
  const auto& partial = sink.globals[3 * 6];  // CTA 1, warp 2: threads 192..199
  EXPECT_EQ(partial.lanes, 0xffu);
  EXPECT_EQ(partial.addresses.front(), xa + 192 * 4);
  // Instructions per warp (the 4 ld.param and 2 cvta count as executed, though not charged): in range, 7 up
  // to the branch + 12 after it + ret = 20 (the partly in-range warp too: its taken lanes wait at the ret);
  // out of range, 7 + ret = 8.
  EXPECT_EQ(total.warp_instructions, 7u * 20 + 1u * 8);
  // Charged per in-range warp: int: 3 mov, mad, setp, mul.wide, 2 add = 8; fp32: fma; branch: bra, ret.
  EXPECT_EQ(sink.count(InstrClass::kInt), 7u * 8 + 5u);
  EXPECT_EQ(sink.count(InstrClass::kFp32), 7u);
  EXPECT_EQ(sink.count(InstrClass::kBranch), 8u * 2);
}

}  // namespace
}  // namespace numagpu::ptx::test
