// The opcode mapping of docs/trace-format.md, one row per documented opcode family.
#include <gtest/gtest.h>

#include "trace/opcode.hpp"

namespace numagpu::trace {
namespace {

TEST(Opcode, BaseIsTheTextBeforeTheFirstDot) {
  EXPECT_EQ(opcode_base("LDG.E.128.SYS"), "LDG");
  EXPECT_EQ(opcode_base("EXIT"), "EXIT");
  EXPECT_EQ(opcode_base(""), "");
}

TEST(Opcode, GlobalAndLocalMemoryReachTheMemorySystem) {
  for (const char* op : {"LDG.E.128.SYS", "LDG.E", "LD.E.64", "LDL", "LDL.LU.64", "LDGSTS.E.BYPASS.128"}) {
    EXPECT_EQ(classify_opcode(op), OpKind::kLoad) << op;
  }
  for (const char* op : {"STG.E.128.SYS", "ST.E", "STL.64"})
    EXPECT_EQ(classify_opcode(op), OpKind::kStore) << op;
  for (const char* op : {"ATOMG.E.ADD.STRONG.GPU", "ATOM.E.CAS", "RED.E.ADD.F32.FTZ.RN.STRONG.GPU"}) {
    EXPECT_EQ(classify_opcode(op), OpKind::kAtomic) << op;
  }
}

TEST(Opcode, BarrierAndExit) {
  for (const char* op : {"BAR.SYNC", "BAR.SYNC.DEFER_BLOCKING", "BAR.ARV", "BAR.RED.POPC"}) {
    EXPECT_EQ(classify_opcode(op), OpKind::kBarrier) << op;
  }
  EXPECT_EQ(classify_opcode("EXIT"), OpKind::kExit);
}

TEST(Opcode, SharedConstantTextureAndTheRestAreCompute) {
  for (const char* op : {"LDS.U.32",   "STS.128",       "LDSM.16.M88.4", "ATOMS.ADD",    "LDC.64",
                         "ULDC.64",    "TEX.SCR.LL",    "TLD.B.LZ",      "SULD.D.BA.1D", "SUST.D.BA.2D",
                         "UTMALDG.2D", "UBLKCP.S.G",    "MEMBAR.SC.GPU", "DEPBAR.LE",    "LDGDEPBAR",
                         "BRA",        "BSSY",          "BSYNC",         "WARPSYNC",     "RET.REL.NODEC",
                         "FMUL",       "IMAD.WIDE.U32", "S2R",           "MOV",          "NOP",
                         "",           "LDGX",          "STGX",          "REDUX.SUM",    "BARX",
                         "EXITX"}) {
    EXPECT_EQ(classify_opcode(op), OpKind::kCompute) << op;
  }
}

}  // namespace
}  // namespace numagpu::trace
