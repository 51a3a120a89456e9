// The executor on small hand-written kernels: arithmetic semantics (expected values derived by hand from the
// PTX ISA's definitions), divergence and reconvergence, warp-level instructions, atomics, barriers and the
// errors, with a recording WarpSink and a vector-backed GlobalMemory.
#include <gtest/gtest.h>

#include <cmath>

#include "ptx/numeric.hpp"
#include "ptx_test_support.hpp"

namespace numagpu::ptx::test {
namespace {

// A kernel k(u64 out) whose `body` runs with %r0 = %tid.x, %rd1 = out and %rd3 = &out[tid] (8-byte slots).
std::string program(const std::string& body) {
  return kernel_text(
      ".param .u64 k_param_0",
      "  .reg .pred %p<8>;\n  .reg .b16 %h<8>;\n  .reg .b32 %r<32>;\n  .reg .f32 %f<16>;\n"
      "  .reg .b64 %rd<16>;\n  .reg .f64 %fd<8>;\n"
      "  ld.param.u64 %rd1, [k_param_0];\n  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd2, %r0, 8;\n"
      "  add.s64 %rd3, %rd1, %rd2;\n" +
          body + "  ret;\n");
}

struct Result {
  std::vector<std::uint64_t> out;
  RecordingSink sink;
  CtaCost cost;
};

Result run(const std::string& body, unsigned threads = 1, std::size_t slots = 64) {
  auto m = parse_module(program(body), "k.ptx");
  Kernel k(m, "k");
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint64_t>(slots, 0));
  LaunchSpec launch;
  launch.block = {threads, 1, 1};
  launch.params = Params().add(k, 0, out).bytes;
  Result r;
  r.cost = k.execute_cta(launch, {0, 0, 0}, mem, r.sink, {});
  r.out = mem.get<std::uint64_t>(out);
  return r;
}

std::uint32_t f2u(float f) {
  return float_to_bits(f);
}

TEST(PtxExecutor, ConversionsRoundAndSaturateAsPtxSays) {
  // -2.5f is 0fC0200000, 2.5f 0f40200000, 3e9f 0f4F32D05E, NaN 0f7FC00000.
  const auto r = run(
      "  cvt.rni.s32.f32 %r1, 0fC0200000;\n  st.global.u32 [%rd1], %r1;\n"
      "  cvt.rzi.s32.f32 %r1, 0fC0200000;\n  st.global.u32 [%rd1+8], %r1;\n"
      "  cvt.rmi.s32.f32 %r1, 0fC0200000;\n  st.global.u32 [%rd1+16], %r1;\n"
      "  cvt.rpi.s32.f32 %r1, 0fC0200000;\n  st.global.u32 [%rd1+24], %r1;\n"
      "  cvt.rni.s32.f32 %r1, 0f40200000;\n  st.global.u32 [%rd1+32], %r1;\n"
      "  cvt.rzi.s32.f32 %r1, 0f4F32D05E;\n  st.global.u32 [%rd1+40], %r1;\n"
      "  cvt.rzi.s32.f32 %r1, 0f7FC00000;\n  st.global.u32 [%rd1+48], %r1;\n"
      "  mov.u32 %r2, 300;\n  cvt.sat.u8.s32 %r1, %r2;\n  st.global.u32 [%rd1+56], %r1;\n"
      "  mov.u32 %r2, -5;\n  cvt.sat.u8.s32 %r1, %r2;\n  st.global.u32 [%rd1+64], %r1;\n"
      "  cvt.rzi.u32.f32 %r1, 0fC0200000;\n  st.global.u32 [%rd1+72], %r1;\n"
      "  cvt.rn.f16.f32 %h1, 0f3F802000;\n  st.global.u16 [%rd1+80], %h1;\n"  // 1 + 2^-10: exact, 0x3c01
      "  cvt.rn.f16.f32 %h1, 0f477FF000;\n  st.global.u16 [%rd1+88], %h1;\n"  // 65520: rounds to inf
      "  cvt.rz.f16.f32 %h1, 0f477FF000;\n  st.global.u16 [%rd1+96], %h1;\n"  // toward zero: 65504, 0x7bff
      "  mov.b16 %h2, 0x3555;\n  cvt.f32.f16 %f1, %h2;\n  st.global.f32 [%rd1+104], %f1;\n"
      "  cvt.rn.f32.s32 %f1, %r2;\n  st.global.f32 [%rd1+112], %f1;\n"
      "  mov.u32 %r3, 16777217;\n  cvt.rz.f32.u32 %f1, %r3;\n  st.global.f32 [%rd1+120], %f1;\n"
      "  cvt.rp.f32.u32 %f1, %r3;\n  st.global.f32 [%rd1+128], %f1;\n");
  EXPECT_EQ(std::int32_t(r.out[0]), -2);          // nearest even
  EXPECT_EQ(std::int32_t(r.out[1]), -2);          // toward zero
  EXPECT_EQ(std::int32_t(r.out[2]), -3);          // down
  EXPECT_EQ(std::int32_t(r.out[3]), -2);          // up
  EXPECT_EQ(std::int32_t(r.out[4]), 2);           // 2.5 to nearest even
  EXPECT_EQ(std::int32_t(r.out[5]), 2147483647);  // saturated
  EXPECT_EQ(std::int32_t(r.out[6]), 0);           // NaN
  EXPECT_EQ(r.out[7], 255u);
  EXPECT_EQ(r.out[8], 0u);
  EXPECT_EQ(r.out[9], 0u);  // -2.5 to an unsigned: clamped at 0
  EXPECT_EQ(r.out[10], 0x3c01u);
  EXPECT_EQ(r.out[11], 0x7c00u);
  EXPECT_EQ(r.out[12], 0x7bffu);
  EXPECT_EQ(r.out[13], f2u(0.333251953125f));  // 0x3555: 2^-2 * (1 + 0x155/1024)
  EXPECT_EQ(r.out[14], f2u(-5.0f));
  EXPECT_EQ(r.out[15], f2u(16777216.0f));  // 2^24 + 1 toward zero
  EXPECT_EQ(r.out[16], f2u(16777218.0f));  // up
}

TEST(PtxExecutor, ShiftsAndBitFieldsFollowTheIsa) {
  const auto r =
      run("  mov.u32 %r1, 1;\n  shl.b32 %r2, %r1, 33;\n  st.global.u32 [%rd1], %r2;\n"
          "  mov.u32 %r1, -8;\n  shr.s32 %r2, %r1, 40;\n  st.global.u32 [%rd1+8], %r2;\n"
          "  mov.u32 %r1, 0x80000000;\n  shr.u32 %r2, %r1, 31;\n  st.global.u32 [%rd1+16], %r2;\n"
          "  bfe.u32 %r2, 0xF0F0, 4, 8;\n  st.global.u32 [%rd1+24], %r2;\n"
          "  bfe.s32 %r2, 0x80, 4, 4;\n  st.global.u32 [%rd1+32], %r2;\n"
          "  bfi.b32 %r2, 0xA, 0xFFFF0000, 4, 4;\n  st.global.u32 [%rd1+40], %r2;\n"
          "  prmt.b32 %r2, 0x33221100, 0x77665544, 0x5410;\n  st.global.u32 [%rd1+48], %r2;\n"
          "  prmt.b32 %r2, 0x33221100, 0x77665544, 0x8880;\n  st.global.u32 [%rd1+56], %r2;\n"
          "  lop3.b32 %r2, 0xF0, 0xCC, 0xAA, 0x96;\n  st.global.u32 [%rd1+64], %r2;\n"
          "  lop3.b32 %r2, 0xF0, 0xCC, 0xAA, 0x80;\n  st.global.u32 [%rd1+72], %r2;\n"
          "  clz.b32 %r2, 1;\n  st.global.u32 [%rd1+80], %r2;\n"
          "  popc.b32 %r2, 0xFF;\n  st.global.u32 [%rd1+88], %r2;\n"
          "  bfind.u32 %r2, 0x10;\n  st.global.u32 [%rd1+96], %r2;\n"
          "  bfind.u32 %r2, 0;\n  st.global.u32 [%rd1+104], %r2;\n"
          "  brev.b32 %r2, 1;\n  st.global.u32 [%rd1+112], %r2;\n"
          "  shf.l.wrap.b32 %r2, 0x80000000, 0x1, 33;\n  st.global.u32 [%rd1+120], %r2;\n"
          "  shf.r.clamp.b32 %r2, 0x1, 0x2, 40;\n  st.global.u32 [%rd1+128], %r2;\n");
  EXPECT_EQ(r.out[0], 0u);           // shifted past the width
  EXPECT_EQ(r.out[1], 0xffffffffu);  // an arithmetic shift past the width: the sign
  EXPECT_EQ(r.out[2], 1u);
  EXPECT_EQ(r.out[3], 0x0fu);        // bits 4..11 of 0xF0F0
  EXPECT_EQ(r.out[4], 0xfffffff8u);  // bits 4..7 of 0x80 = 1000b, sign-extended: -8
  EXPECT_EQ(r.out[5], 0xffff00a0u);  // 0xA into bits 4..7
  EXPECT_EQ(r.out[6], 0x55441100u);  // bytes 0, 1, 4, 5 of {b, a}
  EXPECT_EQ(r.out[7], 0x00000000u);  // byte 0 (0x00) and three sign-replicated byte 0s
  EXPECT_EQ(r.out[8], 0x96u);        // a ^ b ^ c gives the table itself
  EXPECT_EQ(r.out[9], 0x80u);        // a & b & c
  EXPECT_EQ(r.out[10], 31u);
  EXPECT_EQ(r.out[11], 8u);
  EXPECT_EQ(r.out[12], 4u);
  EXPECT_EQ(r.out[13], 0xffffffffu);  // no bit set
  EXPECT_EQ(r.out[14], 0x80000000u);
  EXPECT_EQ(r.out[15], 0x00000003u);  // wrap: 33 & 31 = 1; (b:a << 1) >> 32 = 0x1 << 1 | a's top bit
  EXPECT_EQ(r.out[16], 0x2u);         // clamp: 40 -> 32; (b:a >> 32) = b
}

TEST(PtxExecutor, IntegerArithmeticAndItsWidths) {
  const auto r =
      run("  mov.u32 %r1, -7;\n  div.s32 %r2, %r1, 2;\n  st.global.u32 [%rd1], %r2;\n"
          "  rem.s32 %r2, %r1, 2;\n  st.global.u32 [%rd1+8], %r2;\n"
          "  mov.u32 %r1, 0x80000000;\n  mul.hi.u32 %r2, %r1, 4;\n  st.global.u32 [%rd1+16], %r2;\n"
          "  mov.u32 %r1, -2;\n  mul.wide.s32 %rd4, %r1, 3;\n  st.global.u64 [%rd1+24], %rd4;\n"
          "  mul.wide.u32 %rd4, %r1, 3;\n  st.global.u64 [%rd1+32], %rd4;\n"
          "  mad.lo.s32 %r2, %r1, 5, 100;\n  st.global.u32 [%rd1+40], %r2;\n"
          "  mov.u32 %r1, 2147483647;\n  add.sat.s32 %r2, %r1, 1;\n  st.global.u32 [%rd1+48], %r2;\n"
          "  add.s32 %r2, %r1, 1;\n  st.global.u32 [%rd1+56], %r2;\n"
          "  div.u32 %r2, %r1, 0;\n  st.global.u32 [%rd1+64], %r2;\n"
          "  mov.u32 %r1, -3;\n  abs.s32 %r2, %r1;\n  st.global.u32 [%rd1+72], %r2;\n"
          "  min.s32 %r2, %r1, 2;\n  st.global.u32 [%rd1+80], %r2;\n"
          "  min.u32 %r2, %r1, 2;\n  st.global.u32 [%rd1+88], %r2;\n"
          "  sad.u32 %r2, 3, 10, 1;\n  st.global.u32 [%rd1+96], %r2;\n"
          "  mul24.lo.u32 %r2, 0x1000001, 3;\n  st.global.u32 [%rd1+104], %r2;\n");
  EXPECT_EQ(std::int32_t(r.out[0]), -3);  // toward zero
  EXPECT_EQ(std::int32_t(r.out[1]), -1);  // the dividend's sign
  EXPECT_EQ(r.out[2], 2u);                // 2^31 * 4 = 2^33: high word 2
  EXPECT_EQ(std::int64_t(r.out[3]), -6);
  EXPECT_EQ(r.out[4], 0xfffffffeull * 3);
  EXPECT_EQ(std::int32_t(r.out[5]), 90);
  EXPECT_EQ(r.out[6], 0x7fffffffu);  // saturated
  EXPECT_EQ(r.out[7], 0x80000000u);  // wrapped
  EXPECT_EQ(r.out[8], 0xffffffffu);  // a zero divisor: all ones, as the GPU's sequence gives
  EXPECT_EQ(r.out[9], 3u);
  EXPECT_EQ(std::int32_t(r.out[10]), -3);
  EXPECT_EQ(r.out[11], 2u);
  EXPECT_EQ(r.out[12], 8u);  // |3 - 10| + 1
  EXPECT_EQ(r.out[13], 3u);  // only the low 24 bits: 1 * 3
}

TEST(PtxExecutor, FloatingPointRoundingModesMinMaxAndNaN) {
  // 0f33C00000 = 1.5 * 2^-24: three quarters of float's ulp at 1.0 (2^-23).
  const auto r =
      run("  add.rn.f32 %f1, 0f3F800000, 0f33C00000;\n  st.global.f32 [%rd1], %f1;\n"
          "  add.rz.f32 %f1, 0f3F800000, 0f33C00000;\n  st.global.f32 [%rd1+8], %f1;\n"
          "  add.rm.f32 %f1, 0f3F800000, 0f33C00000;\n  st.global.f32 [%rd1+16], %f1;\n"
          "  add.rp.f32 %f1, 0f3F800000, 0f33400000;\n  st.global.f32 [%rd1+24], %f1;\n"
          "  min.f32 %f1, 0f7FC00000, 0f3F800000;\n  st.global.f32 [%rd1+32], %f1;\n"
          "  max.f32 %f1, 0f80000000, 0f00000000;\n  st.global.f32 [%rd1+40], %f1;\n"
          "  min.f32 %f1, 0f7FC00000, 0f7FC00000;\n  st.global.f32 [%rd1+48], %f1;\n"
          "  add.sat.f32 %f1, 0f3F800000, 0f3F800000;\n  st.global.f32 [%rd1+56], %f1;\n"
          "  mul.ftz.f32 %f1, 0f00000001, 0f4B000000;\n  st.global.f32 [%rd1+64], %f1;\n"
          "  fma.rn.f32 %f1, 0f3F800001, 0f3F800001, 0fBF800002;\n  st.global.f32 [%rd1+72], %f1;\n"
          "  div.rn.f32 %f1, 0f3F800000, 0f40400000;\n  st.global.f32 [%rd1+80], %f1;\n"
          "  setp.lt.f32 %p1, 0f7FC00000, 0f3F800000;\n  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 "
          "[%rd1+88], %r1;\n"
          "  setp.ltu.f32 %p1, 0f7FC00000, 0f3F800000;\n  selp.u32 %r1, 1, 0, %p1;\n  st.global.u32 "
          "[%rd1+96], %r1;\n"
          "  add.f64 %fd1, 0d3FF0000000000000, 0d3CB0000000000000;\n  st.global.f64 [%rd1+104], %fd1;\n"
          "  cvt.rn.f32.f64 %f1, 0d3FF0000010000000;\n  st.global.f32 [%rd1+112], %f1;\n"
          "  cvt.rp.f32.f64 %f1, 0d3FF0000010000000;\n  st.global.f32 [%rd1+120], %f1;\n");
  EXPECT_EQ(r.out[0], 0x3f800001u);  // 0.75 ulp rounds up
  EXPECT_EQ(r.out[1], 0x3f800000u);
  EXPECT_EQ(r.out[2], 0x3f800000u);
  EXPECT_EQ(r.out[3], 0x3f800001u);                // 0.375 ulp rounds up only toward +inf
  EXPECT_EQ(r.out[4], f2u(1.0f));                  // NaN and a number: the number
  EXPECT_EQ(r.out[5], 0u);                         // max(-0, +0) = +0
  EXPECT_EQ(r.out[6] & 0x7fc00000u, 0x7fc00000u);  // both NaN: NaN
  EXPECT_EQ(r.out[7], f2u(1.0f));                  // saturated
  EXPECT_EQ(r.out[8], 0u);                         // a subnormal input flushed to zero
  // (1 + 2^-23)^2 - (1 + 2^-22) = 2^-46 exactly when fused
  EXPECT_EQ(r.out[9], f2u(std::ldexp(1.0f, -46)));
  EXPECT_EQ(r.out[10], f2u(1.0f / 3.0f));
  EXPECT_EQ(r.out[11], 0u);                     // ordered compare with NaN: false
  EXPECT_EQ(r.out[12], 1u);                     // unordered: true
  EXPECT_EQ(r.out[13], 0x3ff0000000000001ull);  // 1 + 2^-52 (0d3CB0..): exactly the next double
  EXPECT_EQ(r.out[14], 0x3f800000u);            // 1 + 2^-28 to nearest: 1.0
  EXPECT_EQ(r.out[15], 0x3f800001u);            // up: the next float
}

TEST(PtxExecutor, SetpCombinesAndWritesBothPredicates) {
  const auto r =
      run("  setp.lt.s32 %p1|%p2, 1, 2;\n  selp.u32 %r1, 1, 0, %p1;\n  selp.u32 %r2, 1, 0, %p2;\n"
          "  st.global.u32 [%rd1], %r1;\n  st.global.u32 [%rd1+8], %r2;\n"
          "  setp.gt.and.s32 %p3, 3, 2, %p2;\n  selp.u32 %r1, 1, 0, %p3;\n  st.global.u32 [%rd1+16], %r1;\n"
          "  setp.gt.or.s32 %p3, 3, 2, !%p1;\n  selp.u32 %r1, 1, 0, %p3;\n  st.global.u32 [%rd1+24], %r1;\n"
          "  set.lt.u32.s32 %r1, -1, 0;\n  st.global.u32 [%rd1+32], %r1;\n"
          "  slct.u32.s32 %r1, 7, 9, -1;\n  st.global.u32 [%rd1+40], %r1;\n");
  EXPECT_EQ(r.out[0], 1u);
  EXPECT_EQ(r.out[1], 0u);           // the complement
  EXPECT_EQ(r.out[2], 0u);           // true and false
  EXPECT_EQ(r.out[3], 1u);           // true or false
  EXPECT_EQ(r.out[4], 0xffffffffu);  // set: all ones for true
  EXPECT_EQ(r.out[5], 9u);           // c < 0: b
}

// if (lane < 8) r = lane + 200; else r = lane + 100; then a store for all.
TEST(PtxExecutor, IfElseDivergesAndReconvergesAtThePostDominator) {
  const auto r =
      run("  setp.lt.u32 %p1, %r0, 8;\n"
          "  @%p1 bra THEN;\n"
          "  add.s32 %r2, %r0, 100;\n"
          "  bra.uni END;\n"
          "THEN:\n"
          "  add.s32 %r2, %r0, 200;\n"
          "END:\n"
          "  st.global.u32 [%rd3], %r2;\n",
          32);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(r.out[l], l < 8 ? l + 200 : l + 100) << l;
  // Issued, in order: mov, mul.wide, add.s64, setp (int, all lanes), the branch (all), the taken path's add
  // (lanes 0-7, on top of the stack), the other path's add and bra.uni (lanes 8-31), then at the
  // reconvergence point the store (all) and the ret (all). 10 warp instructions; ld.param is not charged.
  const std::vector<std::pair<InstrClass, std::uint32_t>> expected = {
      {InstrClass::kInt, ~0u},         {InstrClass::kInt, ~0u},
      {InstrClass::kInt, ~0u},         {InstrClass::kInt, ~0u},
      {InstrClass::kBranch, ~0u},      {InstrClass::kInt, 0xffu},
      {InstrClass::kInt, 0xffffff00u}, {InstrClass::kBranch, 0xffffff00u},
      {InstrClass::kBranch, ~0u}};
  ASSERT_EQ(r.sink.computes.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(r.sink.computes[i].cls, expected[i].first) << i;
    EXPECT_EQ(r.sink.computes[i].lanes, expected[i].second) << i;
  }
  ASSERT_EQ(r.sink.globals.size(), 1u);
  EXPECT_EQ(r.sink.globals[0].lanes, ~0u);
  EXPECT_EQ(r.cost.warp_instructions, 11u);  // + ld.param
  // Thread instructions: 6 full (ld.param, mov, mul.wide, add, setp, bra) + 8 + 24 + 24 + 2 full (st, ret)
  EXPECT_EQ(r.cost.thread_instructions, 6u * 32 + 8 + 24 + 24 + 2 * 32);
}

// Lane l loops (l % 4) + 1 times.
TEST(PtxExecutor, ALoopWhoseTripCountDiffersPerLaneRunsEachTripForTheLanesStillIn) {
  const auto r =
      run("  and.b32 %r2, %r0, 3;\n"
          "  mov.u32 %r3, 0;\n"
          "LOOP:\n"
          "  add.s32 %r3, %r3, 1;\n"
          "  setp.le.u32 %p1, %r3, %r2;\n"
          "  @%p1 bra LOOP;\n"
          "  st.global.u32 [%rd3], %r3;\n",
          32);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(r.out[l], l % 4 + 1) << l;
  // The loop's add runs 4 times: all lanes, then those with l%4 >= 1, >= 2, == 3.
  std::vector<std::uint32_t> adds;
  for (std::size_t i = 0; i + 2 < r.sink.computes.size(); ++i)
    if (r.sink.computes[i + 2].cls == InstrClass::kBranch && r.sink.computes[i].cls == InstrClass::kInt &&
        r.sink.computes[i + 1].cls == InstrClass::kInt)
      adds.push_back(r.sink.computes[i].lanes);
  EXPECT_EQ(adds, (std::vector<std::uint32_t>{~0u, 0xeeeeeeeeu, 0xccccccccu, 0x88888888u}));
  // ld.param, mov, mul.wide, add.s64, and, mov; 4 trips of 3; st; ret.
  EXPECT_EQ(r.cost.warp_instructions, 6u + 12 + 2);
  EXPECT_EQ(r.sink.globals.at(0).lanes, ~0u);  // reconverged before the store
}

TEST(PtxExecutor, ShuffleAndVoteFollowTheirDefinitions) {
  const auto r =
      run("  shfl.sync.down.b32 %r1|%p1, %r0, 1, 31, -1;\n"
          "  shfl.sync.bfly.b32 %r2, %r0, 16, 31, -1;\n"
          "  shfl.sync.idx.b32 %r3, %r0, 5, 31, -1;\n"
          "  shfl.sync.up.b32 %r4, %r0, 2, 0, -1;\n"
          "  and.b32 %r5, %r0, 1;\n  setp.eq.u32 %p2, %r5, 1;\n"
          "  vote.sync.ballot.b32 %r6, %p2, -1;\n"
          "  vote.sync.any.pred %p3, %p2, -1;\n  vote.sync.all.pred %p4, %p2, -1;\n"
          "  selp.u32 %r7, 1, 0, %p1;\n  selp.u32 %r8, 2, 0, %p3;\n  selp.u32 %r9, 4, 0, %p4;\n"
          "  or.b32 %r7, %r7, %r8;\n  or.b32 %r7, %r7, %r9;\n"
          "  st.global.u32 [%rd3], %r1;\n  st.global.u32 [%rd3+256], %r2;\n  st.global.u32 [%rd3+512], %r3;\n"
          "  st.global.u32 [%rd3+768], %r4;\n  st.global.u32 [%rd3+1024], %r6;\n  st.global.u32 [%rd3+1280], "
          "%r7;\n",
          32, 192);
  for (unsigned l = 0; l < 32; ++l) {
    EXPECT_EQ(r.out[l], l < 31 ? l + 1 : 31u) << l;     // down 1: lane 31 is past the segment, keeps its own
    EXPECT_EQ(r.out[32 + l], l ^ 16u) << l;             // butterfly
    EXPECT_EQ(r.out[64 + l], 5u) << l;                  // index 5
    EXPECT_EQ(r.out[96 + l], l >= 2 ? l - 2 : l) << l;  // up 2: lanes 0 and 1 keep their own
    EXPECT_EQ(r.out[128 + l], 0xaaaaaaaau) << l;        // the odd lanes
    EXPECT_EQ(r.out[160 + l], (l < 31 ? 1u : 0u) | 2u) << l;  // p1 (in range), any, not all
  }
}

TEST(PtxExecutor, AtomicsFromManyLanesOnOneAddressApplyInLaneOrder) {
  const auto r =
      run("  atom.global.add.u32 %r1, [%rd1+512], 1;\n"
          "  st.global.u32 [%rd3], %r1;\n"
          "  atom.global.max.s32 %r2, [%rd1+520], %r0;\n"
          "  atom.global.cas.b32 %r3, [%rd1+528], 0, %r0;\n"
          "  atom.global.inc.u32 %r4, [%rd1+536], 9;\n"
          "  red.global.add.f32 [%rd1+544], 0f3F000000;\n"
          "  atom.global.exch.b64 %rd5, [%rd1+552], %rd3;\n",
          32, 80);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(r.out[l], l) << l;  // the old values: 0, 1, ..., 31
  EXPECT_EQ(r.out[64], 32u);
  EXPECT_EQ(r.out[65], 31u);
  EXPECT_EQ(r.out[66], 1u);        // lane 0 swaps 0 for 0, lane 1 0 for 1, the rest find 1
  EXPECT_EQ(r.out[67], 32u % 10);  // inc wraps at 9: 32 increments from 0 -> 2
  EXPECT_EQ(bits_to_float(std::uint32_t(r.out[68])), 16.0f);
  EXPECT_EQ(r.out[69], r.out[69]);  // the last lane's address
  ASSERT_EQ(r.sink.globals.size(), 7u);
  EXPECT_EQ(r.sink.globals[0].kind, Step::Kind::kAtomic);
  EXPECT_EQ(r.sink.globals[5].kind, Step::Kind::kAtomic);  // red
}

TEST(PtxExecutor, SharedMemoryAtomicsAndGenericAddressesReachTheSharedWindow) {
  const std::string body =
      "  mov.u64 %rd4, sm;\n"
      "  atom.shared.add.u32 %r1, [sm], 2;\n"
      "  bar.sync 0;\n"
      "  cvta.shared.u64 %rd5, %rd4;\n"
      "  ld.u32 %r2, [%rd5];\n"  // generic: the shared window
      "  st.global.u32 [%rd3], %r2;\n";
  auto text = program(body);
  text.insert(text.find("  ld.param"), "  .shared .align 4 .b8 sm[16];\n");
  auto m = parse_module(text, "k.ptx");
  Kernel k(m, "k");
  EXPECT_EQ(k.static_shared_bytes(), 16u);
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint64_t>(64, 0));
  LaunchSpec launch;
  launch.block = {64, 1, 1};
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  const auto v = mem.get<std::uint64_t>(out);
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], 128u) << t;  // 64 threads added 2 before the barrier
  // Shared: two atomics (one a warp) and two generic loads resolved to shared, at offset 0.
  ASSERT_EQ(sink.shared.size(), 4u);  // (the body's first line is 17: the .shared line comes before)
  EXPECT_EQ(sink.shared[2].addresses.front(), 0u);
  EXPECT_EQ(sink.barriers.size(), 2u);
}

TEST(PtxExecutor, ABarrierInsideADivergentBranchIsAnError) {
  try {
    run("  setp.lt.u32 %p1, %r0, 16;\n  @%p1 bra SKIP;\n  bar.sync 0;\nSKIP:\n  bar.sync 0;\n", 32);
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(e.kind, ExecutionError::Kind::kBarrierDiverged);
    // Lanes 0-15 branch to SKIP, the reconvergence point, and wait there; lanes 16-31 reach the first
    // barrier (line 18: the body starts at line 16) without them. The first missing thread is named.
    EXPECT_EQ(
        std::string(e.what()),
        "k.ptx:18:3: barrier not reached by every thread of the warp (diverged) in kernel 'k', CTA (0,0,0), "
        "thread (0,0,0)");
  }
}

TEST(PtxExecutor, WarpsAtDifferentBarriersAreAnError) {
  try {
    run("  setp.lt.u32 %p1, %r0, 32;\n  @%p1 bra A;\n  bar.sync 0;\n  bra.uni B;\nA:\n  bar.sync 0;\nB:\n",
        64);
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(e.kind, ExecutionError::Kind::kBarrierDiverged);
    EXPECT_NE(std::string(e.what()).find("warps wait at different barriers (k.ptx:21:3 and k.ptx:18:3)"),
              std::string::npos)
        << e.what();
  }
}

TEST(PtxExecutor, TrapStopsTheKernelNamingTheThread) {
  try {
    run("  setp.eq.u32 %p1, %r0, 5;\n  @%p1 trap;\n", 32);
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(e.kind, ExecutionError::Kind::kTrap);
    EXPECT_EQ(std::string(e.what()), "k.ptx:17:8: trap in kernel 'k', CTA (0,0,0), thread (5,0,0)");
  }
}

TEST(PtxExecutor, MisalignedAccessesAreErrors) {
  try {
    run("  st.global.u32 [%rd1+2], %r0;\n");
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    EXPECT_EQ(e.kind, ExecutionError::Kind::kMisaligned);
    EXPECT_EQ(std::string(e.what()),
              "k.ptx:16:3: misaligned global store of 4 bytes at address 0x10002 in kernel 'k', CTA (0,0,0), "
              "thread (0,0,0)");
  }
}

TEST(PtxExecutor, DependentInstructionsWaitForTheReadyCycleTheSinkReturned) {
  struct Clock : RecordingSink {
    std::uint32_t now = 0;
    std::uint32_t compute(unsigned w, InstrClass c, std::uint32_t l, std::uint32_t ready,
                          unsigned lat) override {
      RecordingSink::compute(w, c, l, ready, lat);
      now = std::max(now, ready) + 1;
      return now + 3;  // a 4-cycle latency
    }
  };
  auto m = parse_module(program("  add.s32 %r1, %r0, 1;\n  add.s32 %r2, %r0, 2;\n  add.s32 %r3, %r1, %r2;\n"
                                "  div.s32 %r4, %r3, %r0;\n  div.rn.f32 %f1, 0f3F800000, 0f40000000;\n"),
                        "k.ptx");
  Kernel k(m, "k");
  VectorMemory mem;
  LaunchSpec launch;
  launch.params = Params().add(k, 0, mem.add(std::vector<std::uint64_t>(1))).bytes;
  Clock sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  const auto& c = sink.computes;
  ASSERT_GE(c.size(), 8u);
  EXPECT_EQ(c[0].operands_ready, 0u);  // mov from %tid.x
  EXPECT_EQ(c[1].operands_ready, 4u);  // mul.wide reads %r0
  // With the sink's clock: mov issues at 1 (ready 4), mul.wide at 5 (8), add.s64 at 9 (12), add r1 at 10
  // (13), add r2 at 11 (14); add r3 reads both: ready at 14.
  EXPECT_EQ(c[5].operands_ready, 14u);
  EXPECT_EQ(c[6].latency, kDivisionSlot + 0);  // div.s32: the integer division's slot
  EXPECT_EQ(c[7].latency, kDivisionSlot + 1);  // div.rn.f32
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

TEST(PtxExecutor, HalfPrecisionArithmeticRoundsOnceToHalf) {
  // 0x3c00 = 1.0, 0x3c01 = 1 + 2^-10, 0x1400 = 2^-10, 0x7bff = 65504
  const auto r = run(
      "  mov.b16 %h1, 0x3c00;\n  mov.b16 %h2, 0x1000;\n"          // 1.0 and 2^-11 (half an ulp of 1.0)
      "  add.f16 %h3, %h1, %h2;\n  st.global.u16 [%rd1], %h3;\n"  // a tie: to even, 1.0
      "  mov.b16 %h5, 0x1400;\n  add.rn.f16 %h3, %h3, %h5;\n  st.global.u16 [%rd1+8], %h3;\n"  // 1 + 2^-10:
                                                                                               // exact
      "  mov.b16 %h4, 0x7bff;\n  mul.f16 %h6, %h4, %h4;\n  st.global.u16 [%rd1+16], %h6;\n"  // overflow: inf
      "  mov.b32 %r1, 0x40003c00;\n  mov.b32 %r2, 0x3c003c00;\n"               // {1.0, 2.0} and {1.0, 1.0}
      "  fma.rn.f16x2 %r3, %r1, %r1, %r2;\n  st.global.u32 [%rd1+24], %r3;\n"  // {2.0, 5.0}
      "  neg.f16x2 %r4, %r3;\n  st.global.u32 [%rd1+32], %r4;\n"
      "  setp.lt.f16 %p1, %h1, %h4;\n  selp.u32 %r5, 1, 0, %p1;\n  st.global.u32 [%rd1+40], %r5;\n"
      "  cvt.rzi.s32.f16 %r6, %h3;\n  st.global.u32 [%rd1+48], %r6;\n");
  EXPECT_EQ(r.out[0], 0x3c00u);
  EXPECT_EQ(r.out[1], 0x3c01u);
  EXPECT_EQ(r.out[2], 0x7c00u);
  EXPECT_EQ(r.out[3], 0x45004000u);  // 5.0 = 0x4500, 2.0 = 0x4000
  EXPECT_EQ(r.out[4], 0xc500c000u);
  EXPECT_EQ(r.out[5], 1u);
  EXPECT_EQ(r.out[6], 1u);  // %h3 still holds 1 + 2^-10: truncated to 1
}

TEST(PtxExecutor, MinMaxWithNaNModifierPropagatesIt) {
  const auto r =
      run("  min.NaN.f32 %f1, 0f7FC00000, 0f3F800000;\n  st.global.f32 [%rd1], %f1;\n"
          "  max.f32 %f2, 0f7FC00000, 0f3F800000;\n  st.global.f32 [%rd1+8], %f2;\n");
  EXPECT_EQ(r.out[0] & 0x7fc00000u, 0x7fc00000u);
  EXPECT_EQ(r.out[1], f2u(1.0f));
}

TEST(PtxExecutor, LocalMemoryThroughGenericAddressesIsEachThreadsOwn) {
  // clang's pattern: the depot's address, made generic, then generic stores and loads.
  auto text = program(
      "  mov.u64 %rd4, depot;\n  cvta.local.u64 %rd5, %rd4;\n"
      "  st.u32 [%rd5+4], %r0;\n  ld.u32 %r1, [%rd5+4];\n  ld.local.u32 %r2, [depot+4];\n"
      "  add.s32 %r3, %r1, %r2;\n  st.global.u32 [%rd3], %r3;\n");
  text.insert(text.find("  ld.param"), "  .local .align 4 .b8 depot[16];\n");
  Kernel k(parse_module(text, "k.ptx"), "k");
  EXPECT_EQ(k.local_bytes_per_thread(), 16u);
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint64_t>(64));
  LaunchSpec launch;
  launch.grid = {2, 1, 1};
  launch.block = {64, 1, 1};
  launch.local_base = 0x4000'0000;
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {1, 0, 0}, mem, sink, {});
  const auto v = mem.get<std::uint64_t>(out);
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(v[t], 2 * t) << t;
  // Warp 1 of CTA 1: launch-wide threads 96..127, warp 3 of the launch. Byte 4 of lane l's local memory:
  // local_base + 3 * 16 * 32 + (4 / 4) * 128 + l * 4.
  ASSERT_GE(sink.globals.size(), 4u);
  const auto& st = sink.globals[4];  // warp 0: st, ld, ld.local, st.global; warp 1: its st
  EXPECT_EQ(st.warp, 1u);
  EXPECT_EQ(st.kind, Step::Kind::kStore);
  EXPECT_EQ(st.addresses.front(), 0x4000'0000u + 3 * 16 * 32 + 128);
  EXPECT_EQ(st.addresses.back(), 0x4000'0000u + 3 * 16 * 32 + 128 + 31 * 4);
}

TEST(PtxExecutor, DynamicSharedMemoryFollowsTheStaticAtItsAlignment) {
  const std::string text =
      ".version 8.0\n.target sm_75\n.address_size 64\n.extern .shared .align 16 .b8 dyn[];\n"
      ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
      "  .shared .align 4 .b8 fixed[20];\n"
      "  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n  mov.u64 %rd2, dyn;\n"
      "  mul.wide.u32 %rd3, %r1, 4;\n  add.s64 %rd4, %rd2, %rd3;\n  st.shared.u32 [%rd4], %r1;\n"
      "  st.shared.u32 [fixed], %r1;\n  ld.shared.u32 %r2, [dyn+4];\n"
      "  cvta.to.global.u64 %rd5, %rd1;\n  add.s64 %rd6, %rd5, %rd3;\n  st.global.u32 [%rd6], %r2;\n  "
      "ret;\n}\n";
  Kernel k(parse_module(text, "dyn.ptx"), "k");
  EXPECT_EQ(k.static_shared_bytes(), 20u);
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint32_t>(8));
  LaunchSpec launch;
  launch.block = {8, 1, 1};
  launch.dynamic_shared_bytes = 32;
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  EXPECT_EQ(mem.get<std::uint32_t>(out), std::vector<std::uint32_t>(8, 1u));  // thread 1's value at dyn + 4
  // dyn starts at 32: the static 20 bytes rounded up to 16
  EXPECT_EQ(sink.shared.at(0).addresses.front(), 32u);
  EXPECT_EQ(sink.shared.at(1).addresses.front(), 0u);
  // 8 threads x 4 bytes from 32: a 33rd byte past 64 would be out of bounds
  launch.block = {9, 1, 1};
  EXPECT_THROW(k.execute_cta(launch, {0, 0, 0}, mem, sink, {}), ExecutionError);
}

TEST(PtxExecutor, RefusedBeforeRunning) {
  auto refused = [](const std::string& body) {
    try {
      Kernel k(parse_module(program(body), "k.ptx"), "k");
    } catch (const ParseError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(refused("  setp.lt.f16x2 %p1, %r1, %r2;\n"),
            "k.ptx:16:3: unsupported instruction 'setp.lt.f16x2' (type .f16x2)");
  EXPECT_EQ(refused("  div.rn.f16 %h1, %h2, %h3;\n"),
            "k.ptx:16:3: unsupported instruction 'div.rn.f16' (type .f16)");
  EXPECT_EQ(refused("  match.any.sync.b32 %r1, %r2, -1;\n"),
            "k.ptx:16:3: unsupported instruction 'match.any.sync.b32'");
  EXPECT_EQ(refused("  shfl.down.b32 %r1, %r2, 1, 31;\n"),
            "k.ptx:16:3: unsupported instruction 'shfl.down.b32' (shfl without .sync)");
  EXPECT_EQ(refused("  sin.f32 %f1, %f2;\n"),
            "k.ptx:16:3: unsupported instruction 'sin.f32' (expected .approx)");
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

// `if (tid >= 20) return; __syncthreads(); out[tid] = ...`, written as nvcc does: the branch skips the ret,
// so the lanes that stay reach the barrier first, before the others have returned.
TEST(PtxExecutor, AnEarlyReturnBeforeABarrierLetsTheRestPass) {
  const auto r =
      run("  setp.lt.u32 %p1, %r0, 20;\n"
          "  @%p1 bra CONT;\n"
          "  ret;\n"
          "CONT:\n"
          "  bar.sync 0;\n"
          "  add.s32 %r1, %r0, 7;\n"
          "  st.global.u32 [%rd3], %r1;\n",
          64);
  for (unsigned t = 0; t < 64; ++t)
    EXPECT_EQ(r.out[t], t < 20 ? t + 7 : 0u) << t;
  // Warp 0's 20 lanes pass the barrier, its other 12 exited; warp 1 has exited altogether.
  ASSERT_EQ(r.sink.barriers.size(), 1u);
  EXPECT_EQ(r.sink.barriers[0].second, 0xfffffu);
}

// The two paths of a branch wait at two different bar.sync instructions (undefined in CUDA): an error.
TEST(PtxExecutor, TwoPathsOfAWarpAtDifferentBarriersAreAnError) {
  try {
    run("  setp.lt.u32 %p1, %r0, 10;\n"
        "  @%p1 bra A;\n"
        "  bar.sync 0;\n"
        "  ret;\n"
        "A:\n"
        "  bar.sync 0;\n"
        "  ret;\n",
        32);
    FAIL() << "no error";
  } catch (const ExecutionError& e) {
    // Lanes 0-9 (the taken path, run first) reach the barrier of line 21; the other path's next instruction
    // is another barrier (line 18), so it is not run first: the error names the first thread missing.
    EXPECT_EQ(e.kind, ExecutionError::Kind::kBarrierDiverged);
    EXPECT_EQ(
        std::string(e.what()),
        "k.ptx:21:3: barrier not reached by every thread of the warp (diverged) in kernel 'k', CTA (0,0,0), "
        "thread (10,0,0)");
  }
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

TEST(PtxExecutor, AnF64ToF16ConversionRoundsOnce) {
  // 1 + 2^-11 + 2^-40: just above the tie between 1.0 and 1 + 2^-10. Through an f32 rounded to nearest it
  // would become the tie (1 + 2^-11) and then 1.0; rounded once it is 1 + 2^-10 (0x3c01).
  const auto r = run("  cvt.rn.f16.f64 %h1, 0d3FF0020000001000;\n  st.global.u16 [%rd1], %h1;\n");
  EXPECT_EQ(r.out[0], 0x3c01u);
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

TEST(PtxExecutor, UnderscoreDestinationsAreDiscarded) {
  const auto r =
      run("  shfl.sync.down.b32 _|%p1, %r0, 1, 31, -1;\n  selp.u32 %r1, 1, 0, %p1;\n"
          "  vote.sync.ballot.b32 _, %p1, -1;\n  st.global.u32 [%rd3], %r1;\n",
          32);
  for (unsigned l = 0; l < 32; ++l)
    EXPECT_EQ(r.out[l], l < 31 ? 1u : 0u) << l;
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

// prmt's modes on a = 0x33221100, b = 0x77665544 (bytes 0..7 of {b, a} are 0x00, 0x11, ..., 0x77), with the
// PTX ISA's table of the bytes each selector picks (d.b3 d.b2 d.b1 d.b0).
TEST(PtxExecutor, PrmtModesPickTheBytesOfTheTable) {
  const auto r =
      run("  prmt.b32.f4e %r1, 0x33221100, 0x77665544, 1;\n  st.global.u32 [%rd1], %r1;\n"        // 4 3 2 1
          "  prmt.b32.b4e %r1, 0x33221100, 0x77665544, 0;\n  st.global.u32 [%rd1+8], %r1;\n"      // 5 6 7 0
          "  prmt.b32.rc8 %r1, 0x33221100, 0x77665544, 2;\n  st.global.u32 [%rd1+16], %r1;\n"     // 2 2 2 2
          "  prmt.b32.ecl %r1, 0x33221100, 0x77665544, 1;\n  st.global.u32 [%rd1+24], %r1;\n"     // 3 2 1 1
          "  prmt.b32.ecr %r1, 0x33221100, 0x77665544, 2;\n  st.global.u32 [%rd1+32], %r1;\n"     // 2 2 1 0
          "  prmt.b32.rc16 %r1, 0x33221100, 0x77665544, 1;\n  st.global.u32 [%rd1+40], %r1;\n");  // 3 2 3 2
  EXPECT_EQ(r.out[0], 0x44332211u);
  EXPECT_EQ(r.out[1], 0x55667700u);
  EXPECT_EQ(r.out[2], 0x22222222u);
  EXPECT_EQ(r.out[3], 0x33221111u);
  EXPECT_EQ(r.out[4], 0x22221100u);
  EXPECT_EQ(r.out[5], 0x33223322u);
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

TEST(PtxExecutor, CarryChainsAddSubtractAndMultiplyAcrossWords) {
  const auto r = run(
      // 0xFFFFFFFF00000001 + 0x00000001FFFFFFFF = 0x0000000100000000 (mod 2^64), in 32-bit halves
      "  add.cc.u32 %r1, 0x00000001, 0xFFFFFFFF;\n  addc.cc.u32 %r2, 0xFFFFFFFF, 0x00000001;\n"
      "  addc.u32 %r3, 0, 0;\n"  // the carry out of the high half: 1
      "  st.global.v2.u32 [%rd1], {%r1, %r2};\n  st.global.u32 [%rd1+8], %r3;\n"
      // 0x0000000100000000 - 1 = 0x00000000FFFFFFFF
      "  sub.cc.u32 %r1, 0, 1;\n  subc.u32 %r2, 1, 0;\n  st.global.v2.u32 [%rd1+16], {%r1, %r2};\n"
      // 0xFFFFFFFF * 0xFFFFFFFF + 0xFFFFFFFF = 0xFFFFFFFF00000000
      "  mov.u32 %r4, 0xFFFFFFFF;\n  mad.lo.cc.u32 %r1, %r4, %r4, %r4;\n  madc.hi.u32 %r2, %r4, %r4, 0;\n"
      "  st.global.v2.u32 [%rd1+24], {%r1, %r2};\n");
  EXPECT_EQ(r.out[0], 0x0000000100000000ull);
  EXPECT_EQ(r.out[1], 1u);
  EXPECT_EQ(r.out[2], 0x00000000FFFFFFFFull);
  EXPECT_EQ(r.out[3], 0xFFFFFFFF00000000ull);
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

// A register read before any write (here: written only under a guard) reads 0 in every CTA, also after a CTA
// of the same host thread wrote it (a CTA zeroes only such registers; the others it writes before reading).
TEST(PtxExecutor, ARegisterReadBeforeWrittenStartsAtZeroInEveryCta) {
  auto m = parse_module(
      program("  mov.u32 %r2, %ctaid.x;\n  setp.eq.u32 %p1, %r2, 0;\n"
              "  @%p1 mov.u32 %r5, 7;\n  cvt.u64.u32 %rd4, %r5;\n  st.global.u64 [%rd3], %rd4;\n"),
      "k.ptx");
  Kernel k(m, "k");
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint64_t>(32, 0));
  LaunchSpec launch;
  launch.grid = {2, 1, 1};
  launch.block = {32, 1, 1};
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  EXPECT_EQ(mem.get<std::uint64_t>(out)[5], 7u);  // CTA 0: the guard holds
  k.execute_cta(launch, {1, 0, 0}, mem, sink, {});
  EXPECT_EQ(mem.get<std::uint64_t>(out)[5], 0u);  // CTA 1: never written, so 0 (not CTA 0's 7)
}

// What a sink sees, in order: one line per compute instruction (a run counted as its instructions) and per
// global access.
struct LoggingSink : RecordingSink {
  bool latencies = true;
  unsigned run_calls = 0;
  std::vector<std::string> log;
  bool models_latencies() const override { return latencies; }
  std::uint32_t compute(unsigned w, InstrClass cls, std::uint32_t lanes, std::uint32_t,
                        unsigned latency) override {
    log.push_back("c " + std::to_string(w) + " " + std::to_string(int(cls)) + " " + std::to_string(lanes) +
                  " " + std::to_string(latency));
    return 0;
  }
  void compute_run(unsigned w, InstrClass cls, std::uint32_t lanes, unsigned n) override {
    ++run_calls;
    for (unsigned i = 0; i < n; ++i)
      compute(w, cls, lanes, 0, ~0u);
  }
  void global_access(unsigned w, Step::Kind, std::uint32_t lanes, const std::uint64_t*, unsigned,
                     std::uint32_t) override {
    log.push_back("g " + std::to_string(w) + " " + std::to_string(lanes));
  }
};

// A sink without latencies gets runs of compute instructions (fewer calls) standing for exactly the calls a
// sink with latencies gets, in the same order around the memory accesses: 64 threads (2 warps), a divergent
// branch (half the lanes), three int adds before and after a store.
TEST(PtxExecutor, RunsOfComputeInstructionsStandForTheSameCalls) {
  const std::string body =
      "  add.s32 %r1, %r0, 1;\n  add.s32 %r2, %r1, 1;\n  add.s32 %r3, %r2, 1;\n"
      "  st.global.u32 [%rd3], %r3;\n  setp.lt.u32 %p1, %r0, 16;\n  @%p1 bra DONE;\n"
      "  add.s32 %r4, %r3, 1;\n  add.s32 %r5, %r4, 1;\n  st.global.u32 [%rd3], %r5;\nDONE:\n";
  auto m = parse_module(program(body), "k.ptx");
  Kernel k(m, "k");
  LaunchSpec launch;
  launch.block = {64, 1, 1};
  auto run_with = [&](bool latencies) {
    VectorMemory mem;
    const std::uint64_t out = mem.add(std::vector<std::uint64_t>(64, 0));
    launch.params = Params().add(k, 0, out).bytes;
    LoggingSink sink;
    sink.latencies = latencies;
    k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
    return sink;
  };
  const LoggingSink one_by_one = run_with(true), runs = run_with(false);
  EXPECT_EQ(one_by_one.run_calls, 0u);
  EXPECT_GT(runs.run_calls, 0u);
  ASSERT_EQ(runs.log.size(), one_by_one.log.size());
  for (std::size_t i = 0; i < runs.log.size(); ++i)
    EXPECT_EQ(runs.log[i], one_by_one.log[i]) << i;
}

}  // namespace
}  // namespace numagpu::ptx::test
