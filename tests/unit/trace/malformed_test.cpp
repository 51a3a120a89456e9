// Malformed Accel-Sim traces: each gives exactly one line "<file>:<line>: <expected ..., found ...>", and
// the quirks numagpu accepts are reported as warnings. Every case edits one line of a valid trace.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"

namespace numagpu::trace {
namespace {

using testing::error_of;
using testing::read_all;
using testing::TempDir;

// A valid version 5 trace; the comments give the line numbers the cases refer to.
const std::vector<std::string> kGood = {
    "-kernel name = k",                              // 1
    "-grid dim = (2,1,1)",                           // 2
    "-block dim = (64,1,1)",                         // 3
    "-binary version = 80",                          // 4
    "-nregs = 8",                                    // 5
    "-accelsim tracer version = 5",                  // 6
    "",                                              // 7
    "#BEGIN_TB",                                     // 8
    "thread block = 0,0,0",                          // 9
    "warp = 0",                                      // 10
    "insts = 3",                                     // 11
    "0000 ffffffff 1 R1 MOV 0 0 0",                  // 12
    "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4 0",  // 13
    "0020 ffffffff 0 EXIT 0 0 0",                    // 14
    "warp = 1",                                      // 15
    "insts = 1",                                     // 16
    "0000 ffffffff 0 EXIT 0 0 0",                    // 17
    "#END_TB",                                       // 18
    "#BEGIN_TB",                                     // 19
    "thread block = 1,0,0",                          // 20
    "warp = 0",                                      // 21
    "insts = 1",                                     // 22
    "0000 ffffffff 0 EXIT 0 0 0",                    // 23
    "warp = 1",                                      // 24
    "insts = 1",                                     // 25
    "0000 ffffffff 0 EXIT 0 0 0",                    // 26
    "#END_TB",                                       // 27
};

std::string join(const std::vector<std::string>& lines) {
  std::string s;
  for (const std::string& l : lines)
    s += l + "\n";
  return s;
}

// kGood with line `n` (1-based) replaced; an empty replacement removes the line.
std::string with_line(size_t n, const std::string& replacement) {
  std::vector<std::string> lines = kGood;
  if (replacement.empty()) {
    lines.erase(lines.begin() + static_cast<long>(n - 1));
  } else {
    lines[n - 1] = replacement;
  }
  return join(lines);
}

// kGood cut after line `n`.
std::string cut_after(size_t n) {
  return join({kGood.begin(), kGood.begin() + static_cast<long>(n)});
}

struct Outcome {
  std::string path;
  std::string error;                  // "no error" when the whole trace read
  std::vector<std::string> warnings;  // of a trace that read
};

Outcome read_text(const std::string& text, const std::string& name = "bad.traceg") {
  static TempDir dir;
  Outcome out;
  out.path = dir.write(name, text);
  out.error = error_of([&] {
    AccelSimKernelReader reader(out.path);
    read_all(reader);
    out.warnings = reader.warnings();
  });
  return out;
}

// The error of kGood with line `n` replaced, without the path prefix.
std::string error_with_line(size_t n, const std::string& replacement) {
  const Outcome o = read_text(with_line(n, replacement));
  return o.error.substr(0, o.path.size()) == o.path ? o.error.substr(o.path.size()) : o.error;
}

TEST(Malformed, TheBaseTraceIsValid) {
  const Outcome o = read_text(join(kGood));
  EXPECT_EQ(o.error, "no error");
  EXPECT_TRUE(o.warnings.empty());
}

TEST(Malformed, InstructionFields) {
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 3 0x1000 4 0"),
            ":13: expected address mode 0 (list), 1 (base+stride) or 2 (base+delta), found '3'");
  EXPECT_EQ(error_with_line(13, "00g0 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4 0"),
            ":13: expected PC (hexadecimal), found '00g0'");
  EXPECT_EQ(error_with_line(13, "0010 1ffffffff 1 R2 LDG.E 1 R4 4 1 0x1000 4 0"),
            ":13: expected active mask (32-bit hexadecimal), found '1ffffffff'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 LDG.E 1 R4 4 1 0x1000 4 0"),
            ":13: expected destination register (R<n>), found 'LDG.E'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 0 4 1 0x1000 4 0"), ":13: expected opcode, found '4'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 17 R4 4 1 0x1000 4 0"),
            ":13: expected source register count (0 to 16), found '17'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E x R4 4 1 0x1000 4 0"),
            ":13: expected source register count (0 to 16), found 'x'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 256 1 0x1000 4 0"),
            ":13: expected memory width in bytes (0 to 255), found '256'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 0 0"),
            ":13: expected a memory width and addresses for LDG.E, found '0'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4 0 junk"),
            ":13: expected end of line, found 'junk'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4"),
            ":13: expected immediate (decimal), found end of line");
}

// Text quoted from a trace reaches a terminal: control bytes (an escape sequence that would clear the screen,
// a bell) and bytes that are not UTF-8 are shown escaped, and the message stays one line.
TEST(Malformed, ControlBytesInQuotedTextAreEscaped) {
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 \x1b[2J\x07 1 R4 4 1 0x1000 4 0"),
            ":13: expected opcode, found '\\x1b[2J\\x07'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 4 0 \xff\xfe\x01"),
            ":13: expected end of line, found '\\xff\\xfe\\x01'");
}

TEST(Malformed, AddressLists) {
  // Mask 0xf: four active threads, so four addresses (mode 0) or three deltas (mode 2).
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 0 0x1000 0x1004 0"),
            ":13: expected address 4 of 4 (hexadecimal), found end of line");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 0 0x1000 0x1004 0x1008 zz 0"),
            ":13: expected address 4 of 4 (hexadecimal), found 'zz'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 2 0x1000 4 x4 4 0"),
            ":13: expected address delta 2 of 3 (decimal), found 'x4'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 1 base 4 0"),
            ":13: expected base address (hexadecimal), found 'base'");
  EXPECT_EQ(error_with_line(13, "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x1000 0x4 0"),
            ":13: expected stride (decimal), found '0x4'");
}

TEST(Malformed, BlockStructure) {
  EXPECT_EQ(error_with_line(11, "insts = 4"),
            ":15: expected instruction 4 of 4 for warp 0 of thread block (0,0,0), found 'warp'");
  EXPECT_EQ(error_with_line(11, "insts = 2"),
            ":14: expected 'warp = N' or '#END_TB' in thread block (0,0,0), found '0020'");
  EXPECT_EQ(error_with_line(11, "insts = many"), ":11: expected 'insts = N', found 'insts = many'");
  EXPECT_EQ(error_with_line(10, "warp = 2"),
            ":10: expected a warp index below 2 (the block has 64 threads), found '2'");
  EXPECT_EQ(error_with_line(15, "warp = 0"), ":15: warp 0 appears twice in thread block (0,0,0)");
  EXPECT_EQ(error_with_line(9, "thread block = 2,0,0"),
            ":9: thread block (2,0,0) is outside the grid (2,1,1)");
  EXPECT_EQ(error_with_line(20, "thread block = 0,0,0"), ":20: thread block (0,0,0) appears twice");
  EXPECT_EQ(error_with_line(9, "thread block = 0,0"),
            ":9: expected 'thread block = x,y,z', found 'thread block = 0,0'");
  EXPECT_EQ(error_with_line(19, "#BEGIN"), ":19: expected '#BEGIN_TB', found '#BEGIN'");
}

TEST(Malformed, TruncatedFiles) {
  const auto error_after = [](size_t n) {
    const Outcome o = read_text(cut_after(n));
    return o.error.substr(o.path.size());
  };
  EXPECT_EQ(error_after(13),
            ":13: unexpected end of file: expected 1 more instruction for warp 0 of thread block (0,0,0)");
  EXPECT_EQ(error_after(12),
            ":12: unexpected end of file: expected 2 more instructions for warp 0 of thread block (0,0,0)");
  EXPECT_EQ(error_after(17), ":17: unexpected end of file: expected '#END_TB' to close thread block (0,0,0)");
  EXPECT_EQ(error_after(19),
            ":19: unexpected end of file: expected 'thread block = x,y,z' after '#BEGIN_TB'");
  EXPECT_EQ(error_after(10), ":10: unexpected end of file: expected 'insts = N' after 'warp = 0'");
  // Cut in the middle of a line: the partial line is parsed as the last one.
  const Outcome o = read_text(cut_after(12) + "0010 0000000f 1 R2 LDG.E 1 R4 4 1 0x10");
  EXPECT_EQ(o.error, o.path + ":13: expected stride (decimal), found end of line");
}

TEST(Malformed, Header) {
  EXPECT_EQ(error_with_line(6, "-accelsim tracer version = 2"),
            ":6: accelsim tracer version 2 is not supported (expected 3 to 5)");
  EXPECT_EQ(error_with_line(6, ""),  // removed: "#BEGIN_TB" moves up to line 7
            ":7: expected '-accelsim tracer version = N' in the header, before the first thread block");
  EXPECT_EQ(error_with_line(2, ""),
            ":7: expected '-grid dim = (x,y,z)' in the header, before the first thread block");
  EXPECT_EQ(error_with_line(2, "-grid dim = (2,1)"), ":2: expected -grid dim as (x,y,z), found '(2,1)'");
  EXPECT_EQ(error_with_line(2, "-grid dim = (2,0,1)"),
            ":2: grid dim (2,0,1) outside CUDA's limits (1..2147483647, 1..65535, 1..65535)");
  EXPECT_EQ(error_with_line(3, "-block dim = (2048,1,1)"),
            ":3: block dim (2048,1,1) outside CUDA's limits (no zero dimension, at most 1024 threads)");
  EXPECT_EQ(error_with_line(5, "-nregs = lots"), ":5: expected -nregs (decimal), found 'lots'");
  EXPECT_EQ(error_with_line(1, "-kernel name"),
            ":1: expected a header line '-key = value', found '-kernel name'");
  EXPECT_EQ(error_with_line(1, "hello"),
            ":1: expected a '-key = value' header line or '#BEGIN_TB', found 'hello'");
}

TEST(Malformed, EmptyAndRawFiles) {
  const Outcome empty = read_text("");
  EXPECT_EQ(empty.error, empty.path + ": empty file: expected an Accel-Sim kernel trace");
  // Raw tracer output (kernel-N.trace) has block and warp ids on every line and no thread block sections.
  const Outcome raw =
      read_text("-grid dim = (1,1,1)\n0 0 0 0 0000 ffffffff 0 EXIT 0 0 0\n", "kernel-1.trace");
  EXPECT_EQ(raw.error,
            raw.path +
                ":2: expected a '-key = value' header line or '#BEGIN_TB' (this looks like raw tracer "
                "output: run Accel-Sim's post-traces-processing first), found '0'");
}

TEST(Malformed, HugeInstructionCountDoesNotAllocate) {
  const Outcome o = read_text(cut_after(10) + "insts = 99999999999\n");
  EXPECT_EQ(o.error, o.path +
                         ":11: unexpected end of file: expected 99999999999 more instructions for warp 0 of "
                         "thread block (0,0,0)");
}

// ---- warnings: accepted, reported ---------------------------------------------------------------------

TEST(Warnings, ImpossibleRegisterCountAndBinaryVersionLikeThePublishedSample) {
  std::vector<std::string> lines = kGood;
  lines[4] = "-nregs = 21955";
  lines[3] = "-binary version = 0";
  const Outcome o = read_text(join(lines));
  EXPECT_EQ(o.error, "no error");
  ASSERT_EQ(o.warnings.size(), 2u);
  EXPECT_EQ(o.warnings[0],
            o.path +
                ":5: -nregs = 21955 exceeds the 255 registers a thread can have; ignored (registers "
                "per thread unknown)");
  EXPECT_EQ(o.warnings[1],
            o.path +
                ":4: -binary version = 0 is not a known SM architecture (e.g. 70 Volta, 80 Ampere, "
                "90 Hopper); ignored: numagpu classifies opcodes by name, not with per-architecture "
                "tables");
}

TEST(Warnings, UnknownHeaderFieldAndClusterLines) {
  std::vector<std::string> lines = kGood;
  lines[6] = "-future field = 7";                                               // line 7
  lines.insert(lines.begin() + 9, {"cluster id = 0,0,0", "cluster rank = 0"});  // lines 10, 11
  const Outcome o = read_text(join(lines));
  EXPECT_EQ(o.error, "no error");
  ASSERT_EQ(o.warnings.size(), 2u);
  EXPECT_EQ(o.warnings[0], o.path + ":7: unknown header field '-future field' ignored");
  EXPECT_EQ(o.warnings[1], o.path + ":10: thread block cluster lines ignored (clusters are not modelled)");
}

TEST(Warnings, MissingWarpsAndBlocks) {
  // Only block (0,0,0), and only its warp 0.
  std::vector<std::string> lines(kGood.begin(), kGood.begin() + 14);
  lines.push_back("#END_TB");  // line 15
  const Outcome o = read_text(join(lines));
  EXPECT_EQ(o.error, "no error");
  ASSERT_EQ(o.warnings.size(), 2u);
  EXPECT_EQ(
      o.warnings[0],
      o.path + ":15: warp 1 of thread block (0,0,0) is not in the trace; simulated as empty (reported once)");
  EXPECT_EQ(o.warnings[1], o.path +
                               ": the trace holds 1 of the grid's 2 thread blocks; only the traced ones are "
                               "simulated");
}

TEST(Warnings, StrideWithNonContiguousMaskIsAppliedPerActiveThread) {
  // Mask 0x5: lanes 0 and 2. The tracer never writes a stride for such a mask; numagpu applies it to the
  // active threads in order: 0x1000, 0x1000 + 4.
  std::vector<std::string> lines = kGood;
  lines[12] = "0010 00000005 1 R2 LDG.E 1 R4 4 1 0x1000 4 0";
  TempDir dir;
  const std::string path = dir.write("gap.traceg", join(lines));
  AccelSimKernelReader reader(path);
  const auto blocks = read_all(reader);
  EXPECT_EQ(blocks[0].warps[0][1].addresses, (std::vector<uint64_t>{0x1000, 0x1004}));
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0],
            path +
                ":13: base+stride addresses with non-contiguous active mask; the stride is "
                "applied per active thread in lane order (reported once)");
}

}  // namespace
}  // namespace numagpu::trace
