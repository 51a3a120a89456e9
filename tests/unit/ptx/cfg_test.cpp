// The control-flow graph and the immediate post-dominators (the reconvergence points) on small hand-written
// PTX. Each body's instructions are numbered in the comments; the expected points follow from the graphs.
#include <gtest/gtest.h>

#include "ptx_test_support.hpp"

namespace numagpu::ptx::test {
namespace {

Kernel kernel(const std::string& body) {
  return Kernel(parse_module(kernel_text("", "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n" + body), "cfg.ptx"),
                "k");
}

TEST(PtxCfg, IfElseReconvergesAfterBothArms) {
  Kernel k = kernel(
      "  mov.u32 %r1, %tid.x;\n"      // 0
      "  setp.lt.u32 %p1, %r1, 8;\n"  // 1
      "  @%p1 bra ELSE;\n"            // 2
      "  add.s32 %r2, %r1, 1;\n"      // 3
      "  bra.uni END;\n"              // 4
      "ELSE:\n"
      "  add.s32 %r2, %r1, 2;\n"  // 5
      "END:\n"
      "  add.s32 %r3, %r2, 1;\n"  // 6
      "  ret;\n");                // 7
  const auto& g = k.cfg();
  EXPECT_EQ(g.blocks.size(), 4u);  // [0,3) [3,5) [5,6) [6,8)
  EXPECT_EQ(g.reconvergence_pc(2), 6u);
  EXPECT_EQ(g.reconvergence_pc(4), 6u);
}

TEST(PtxCfg, ALoopWithABreakReconvergesAtTheLoopExit) {
  Kernel k = kernel(
      "  mov.u32 %r1, %tid.x;\n"  // 0
      "  mov.u32 %r2, 0;\n"       // 1
      "LOOP:\n"
      "  add.s32 %r2, %r2, 1;\n"        // 2
      "  setp.eq.s32 %p1, %r2, %r1;\n"  // 3
      "  @%p1 bra DONE;\n"              // 4: break
      "  setp.lt.s32 %p2, %r2, 100;\n"  // 5
      "  @%p2 bra LOOP;\n"              // 6: back edge
      "DONE:\n"
      "  add.s32 %r3, %r2, 1;\n"  // 7
      "  ret;\n");                // 8
  EXPECT_EQ(k.cfg().reconvergence_pc(4), 7u);
  EXPECT_EQ(k.cfg().reconvergence_pc(6), 7u);
}

TEST(PtxCfg, AnEarlyReturnReconvergesOnlyAtTheEnd) {
  Kernel k = kernel(
      "  mov.u32 %r1, %tid.x;\n"       // 0
      "  setp.gt.u32 %p1, %r1, 50;\n"  // 1
      "  @%p1 bra RET;\n"              // 2: early return
      "  setp.lt.u32 %p2, %r1, 8;\n"   // 3
      "  @%p2 bra SKIP;\n"             // 4
      "  add.s32 %r2, %r1, 1;\n"       // 5
      "SKIP:\n"
      "  add.s32 %r3, %r1, 1;\n"  // 6
      "RET:\n"
      "  ret;\n");                             // 7
  EXPECT_EQ(k.cfg().reconvergence_pc(2), 7u);  // the ret block post-dominates everything
  EXPECT_EQ(k.cfg().reconvergence_pc(4), 6u);
}

TEST(PtxCfg, AReturnInsideABranchMeetsTheOtherPathOnlyAtTheKernelsEnd) {
  Kernel k = kernel(
      "  mov.u32 %r1, %tid.x;\n"       // 0
      "  setp.gt.u32 %p1, %r1, 50;\n"  // 1
      "  @%p1 bra OUT;\n"              // 2
      "  add.s32 %r2, %r1, 1;\n"       // 3
      "  ret;\n"                       // 4: exits
      "OUT:\n"
      "  add.s32 %r3, %r1, 1;\n"                            // 5
      "  ret;\n");                                          // 6: exits
  EXPECT_EQ(k.cfg().reconvergence_pc(2), k.code().size());  // no common post-dominator but the exit
}

TEST(PtxCfg, NestedBranchesInALoopReconvergeInnermostFirst) {
  Kernel k = kernel(
      "  mov.u32 %r1, %tid.x;\n"  // 0
      "  mov.u32 %r2, 0;\n"       // 1
      "LOOP:\n"
      "  setp.lt.u32 %p1, %r1, 16;\n"  // 2
      "  @%p1 bra A;\n"                // 3: outer if
      "  setp.lt.u32 %p2, %r1, 24;\n"  // 4
      "  @%p2 bra B;\n"                // 5: inner if
      "  add.s32 %r2, %r2, 3;\n"       // 6
      "B:\n"
      "  add.s32 %r2, %r2, 2;\n"  // 7
      "  bra.uni C;\n"            // 8
      "A:\n"
      "  add.s32 %r2, %r2, 1;\n"  // 9
      "C:\n"
      "  setp.lt.s32 %p3, %r2, 40;\n"  // 10
      "  @%p3 bra LOOP;\n"             // 11
      "  ret;\n");                     // 12
  EXPECT_EQ(k.cfg().reconvergence_pc(5), 7u);
  EXPECT_EQ(k.cfg().reconvergence_pc(3), 10u);
  EXPECT_EQ(k.cfg().reconvergence_pc(11), 12u);
}

TEST(PtxCfg, AnInlinedCallsReturnJumpsPastItsBody) {
  const std::string text =
      ".version 6.0\n.target sm_70\n.address_size 64\n"
      ".func (.param .b32 r) f(.param .b32 x)\n{\n  .reg .pred %p<2>;\n  .reg .b32 %r<4>;\n"
      "  ld.param.b32 %r1, [x];\n  setp.gt.s32 %p1, %r1, 0;\n  @%p1 bra POS;\n  st.param.b32 [r], 0;\n  "
      "ret;\n"
      "POS:\n  st.param.b32 [r], %r1;\n  ret;\n}\n"
      ".visible .entry k()\n{\n  .reg .b32 %r<4>;\n  mov.u32 %r1, %tid.x;\n"
      "  {\n  .param .b32 a;\n  st.param.b32 [a], %r1;\n  .param .b32 b;\n"
      "  call.uni (b), f, (a);\n  ld.param.b32 %r2, [b];\n  }\n  ret;\n}\n";
  Kernel k(parse_module(text, "call.ptx"), "k");
  // 0 mov, 1 st.param, 2 call, 3 ld.param x, 4 setp, 5 @bra POS, 6 st.param, 7 ret(-> 10), 8 st.param,
  // 9 ret(-> 10), 10 ld.param b, 11 exit
  ASSERT_EQ(k.code().size(), 12u);
  EXPECT_EQ(k.code()[7].op, Op::kRet);
  EXPECT_EQ(k.code()[7].target, 10u);
  EXPECT_EQ(k.code()[9].target, 10u);
  EXPECT_EQ(k.code()[11].op, Op::kExit);
  EXPECT_EQ(k.cfg().reconvergence_pc(5), 10u);
}

}  // namespace
}  // namespace numagpu::ptx::test
