// The parser on clang 14's and nvcc 13's PTX (tests/data/ptx) and on what it refuses, with the exact
// file:line:column of each message.
#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <tuple>
#include <vector>

#include "ptx_test_support.hpp"

namespace numagpu::ptx::test {
namespace {

std::string error_of(const std::string& text, const char* entry = "k") {
  try {
    Kernel k(parse_module(text, "bad.ptx"), entry);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "no error";
}

TEST(PtxParser, ReadsClangAndNvccKernelsWithTheirParameterLayout) {
  for (const char* file : {"saxpy.clang.ptx", "saxpy.nvcc.ptx"}) {
    auto m = parse_module(read_data(file), file);
    Kernel k(m, "_Z5saxpyifPKfPf");
    // saxpy(int n, float a, const float* x, float* y): 4 + 4 bytes, then two 8-byte pointers at 8 and 16
    ASSERT_EQ(k.params().size(), 4u) << file;
    EXPECT_EQ(k.params()[1].offset, 4u);
    EXPECT_EQ(k.params()[2].offset, 8u);
    EXPECT_EQ(k.params()[3].offset, 16u);
    EXPECT_EQ(k.params()[3].bytes, 8u);
  }
  for (const char* file : {"reduce.clang.ptx", "reduce.nvcc.ptx"}) {
    Kernel k(parse_module(read_data(file), file), "_Z6reducePKfPf");
    EXPECT_EQ(k.static_shared_bytes(), 1024u) << file;  // __shared__ float s[256]
  }
  for (const char* file : {"mix.clang.ptx", "mix.nvcc.ptx"}) {
    Kernel k(parse_module(read_data(file), file), "_Z3mixPKfPfPjPdii");
    EXPECT_EQ(k.local_bytes_per_thread(), 32u) << file;  // float loc[8]
  }
}

TEST(PtxParser, ModuleVariablesKeepTheirInitializers) {
  auto m = parse_module(
      ".version 8.0\n.target sm_75\n.address_size 64\n"
      ".global .align 4 .b8 tbl[8] = {1, 0, 0, 0, 2, 0, 0, 0};\n"
      ".const .align 4 .f32 c[2] = {0f3F800000, 0f40000000};\n"
      ".global .align 8 .u64 g;\n"
      ".extern .shared .align 16 .b8 dyn[];\n",
      "v.ptx");
  const auto& v = module_variables(*m);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_EQ(v[0].bytes, 8u);
  EXPECT_EQ(v[0].initial, (std::vector<std::uint8_t>{1, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(v[1].space, VariableInfo::Space::kConst);
  EXPECT_EQ(v[1].initial, (std::vector<std::uint8_t>{0, 0, 0x80, 0x3f, 0, 0, 0, 0x40}));
  EXPECT_EQ(v[2].align, 8u);
  EXPECT_TRUE(v[2].initial.empty());
  EXPECT_EQ(v[3].space, VariableInfo::Space::kShared);
  EXPECT_EQ(v[3].bytes, 0u);  // dynamic
}

TEST(PtxParser, AGlobalVariableIsReadAtTheAddressTheRuntimeGives) {
  const std::string text =
      ".version 6.0\n.target sm_70\n.address_size 64\n.global .align 4 .u32 g = 7;\n"
      ".const .align 4 .u32 c = 5;\n"
      ".visible .entry k(.param .u64 out)\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [out];\n  ld.global.u32 %r1, [g];\n  ld.const.u32 %r2, [c];\n"
      "  add.s32 %r3, %r1, %r2;\n  st.global.u32 [%rd1], %r3;\n  ret;\n}\n";
  auto m = parse_module(text, "g.ptx");
  Kernel k(m, "k");
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint32_t>(1));
  const std::uint64_t g = mem.add(std::vector<std::uint32_t>{7});
  const std::uint64_t c = mem.add(std::vector<std::uint32_t>{5});
  LaunchSpec launch;
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {g, c});
  EXPECT_EQ(mem.get<std::uint32_t>(out)[0], 12u);
  ASSERT_EQ(sink.constants.size(), 1u);
  EXPECT_EQ(sink.constants[0].addresses[0], c);
}

TEST(PtxParser, RefusesWhatItDoesNotSupportAtItsLineAndColumn) {
  const std::string head =
      ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<4>;\n";
  EXPECT_EQ(error_of(head + "  brkpt;\n}\n"), "bad.ptx:7:3: unsupported instruction 'brkpt'");
  EXPECT_EQ(error_of(head + "  add.cc.f32 %r1, %r2, %r3;\n}\n"),
            "bad.ptx:7:3: unsupported instruction 'add.cc.f32' (carry)");
  EXPECT_EQ(error_of(head + "  mov.u32 %r1, %r9;\n}\n"), "bad.ptx:7:16: unknown register '%r9'");
  EXPECT_EQ(error_of(head + "  bra.uni NOWHERE;\n}\n"), "bad.ptx:7:11: unknown label 'NOWHERE'");
  EXPECT_EQ(error_of(head + "  mov.u32 %r1, %r2\n  ret;\n}\n"), "bad.ptx:8:3: expected ';', found 'ret'");
  EXPECT_EQ(error_of(head + "  bar.sync 1, 64;\n}\n"),
            "bad.ptx:7:3: unsupported instruction 'bar.sync' (barrier with a thread count)");
  EXPECT_EQ(error_of(head + "  add.s32 %r1, %r2;\n}\n"), "bad.ptx:7:3: 'add.s32' takes 3 operands, found 2");
  EXPECT_EQ(error_of(head + "  mov.u32 %r1, %envreg3;\n}\n"), "bad.ptx:7:16: unknown register '%envreg3'");
  EXPECT_EQ(error_of(head + "  ret;\n"), "bad.ptx:8:1: expected '}' closing function 'k'");
  EXPECT_EQ(error_of(head + "  ret;\n}\n", "other"), "bad.ptx: no kernel (.entry) named 'other'");
  EXPECT_EQ(error_of(".version 6.0\n.target sm_70\n.address_size 32\n"),
            "bad.ptx:3:15: unsupported .address_size (only 64)");
}

TEST(PtxParser, RefusesRecursionAndCallsOfFunctionsItDoesNotHave) {
  const std::string rec =
      ".version 6.0\n.target sm_70\n.address_size 64\n"
      ".func f()\n{\n  call.uni f, ();\n  ret;\n}\n"
      ".visible .entry k()\n{\n  call.uni f, ();\n  ret;\n}\n";
  EXPECT_EQ(error_of(rec), "bad.ptx:6:3: unsupported recursive call of 'f'");
  const std::string printf_call =
      ".version 6.0\n.target sm_70\n.address_size 64\n"
      ".extern .func (.param .b32 func_retval0) vprintf(.param .b64 a, .param .b64 b);\n"
      ".visible .entry k()\n{\n  .reg .b64 %rd<2>;\n  {\n  .param .b64 p0;\n  st.param.b64 [p0], 0;\n"
      "  .param .b64 p1;\n  st.param.b64 [p1], 0;\n  .param .b32 r;\n  call.uni (r), vprintf, (p0, p1);\n  "
      "}\n"
      "  ret;\n}\n";
  EXPECT_EQ(error_of(printf_call), "bad.ptx:14:3: unsupported call of 'vprintf' (not defined in the module)");
}

// Inputs that once exhausted the host's stack (found by fuzzing): nesting is bounded before it recurses.
TEST(PtxParser, RefusesNestingDeeperThanPtxHasInsteadOfExhaustingTheStack) {
  const std::string head =
      ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  .reg .b64 %rd<4>;\n"
      "  .reg .b32 %r<4>; .reg .pred %p<2>;\n  mov.b64 %rd1, ";
  // Line 8 is "  mov.b64 %rd1, " then the operand, which starts at column 17. Operands nest at most 4 levels
  // below it: the one at nesting 5 (column 17 + 5) is refused, however deep the input goes.
  const std::string deep_vector = std::string(100000, '{') + "%rd2" + std::string(100000, '}');
  EXPECT_EQ(error_of(head + deep_vector + ";\n}\n"), "bad.ptx:8:22: operand nested too deeply at '{'");
  const std::string deep_not = std::string(100000, '!') + "%p1";
  EXPECT_EQ(error_of(head + deep_not + ";\n}\n"), "bad.ptx:8:22: operand nested too deeply at '!'");
  std::string pairs = "%rd2";
  for (int i = 0; i < 50000; ++i)
    pairs += "|%rd2";
  // "%rd2|" is 5 characters: the operand at nesting 5, the chain's 6th, starts at column 17 + 5 * 5.
  EXPECT_EQ(error_of(head + pairs + ";\n}\n"), "bad.ptx:8:42: operand nested too deeply at '%rd2'");
  // Still read: a vector of plain operands (one level).
  EXPECT_EQ(error_of(head + "{%r1, %r2};\n  ret;\n}\n"), "no error");
}

// Every instruction the test kernels use (each distinct opcode text in tests/data/ptx), given any number of
// operands of any kind, is decoded or refused with a ParseError: never another exception (an atom with no
// operands once threw std::out_of_range, found by fuzzing).
TEST(PtxParser, AnyOperandCountOfAnyInstructionIsDecodedOrRefused) {
  std::set<std::string> opcodes;
  for (const auto& entry : std::filesystem::directory_iterator(NUMAGPU_PTX_DATA)) {
    if (entry.path().extension() != ".ptx") continue;
    std::istringstream lines(read_data(entry.path().filename().string()));
    for (std::string line; std::getline(lines, line);) {
      std::istringstream words(line);
      std::string word;
      words >> word;
      if (!word.empty() && word[0] == '@') words >> word;  // a guard, then the instruction
      if (!word.empty() && std::islower(static_cast<unsigned char>(word[0])) && word.back() != ':')
        opcodes.insert(word);
    }
  }
  ASSERT_GT(opcodes.size(), 100u);  // the kernels' ~185 distinct opcode texts
  const std::string head =
      ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n  .reg .b32 %r<4>;\n"
      "  .reg .b64 %rd<4>;\n  .reg .pred %p<3>;\nL:\n  ";
  const std::vector<std::string> kinds = {"%r1", "%rd1", "%p1|%p2", "{%r1, %r2}", "[%rd1]", "7", "L", "!%p1"};
  std::size_t refused = 0, read = 0;
  for (const std::string& op : opcodes)
    for (const std::string& kind : kinds)
      for (int n = 0; n <= 6; ++n) {
        std::string operands;
        for (int i = 0; i < n; ++i)
          operands += (i ? ", " : " ") + kind;
        const std::string text = head + op + operands + ";\n  ret;\n}\n";
        try {
          (error_of(text) == "no error" ? read : refused) += 1;
        } catch (const std::exception& e) {
          ADD_FAILURE() << op << operands << ": " << e.what();
        }
      }
  EXPECT_GT(refused, 0u);
  EXPECT_GT(read, 0u);
}

// A chain of N functions, each calling the next, from the entry: N nested calls, inlined by recursion.
std::string call_chain(int n) {
  std::string text = ".version 6.0\n.target sm_70\n.address_size 64\n";
  for (int i = n; i >= 1; --i) {
    text += ".func f" + std::to_string(i) + "()\n{\n";
    if (i < n) text += "  call.uni f" + std::to_string(i + 1) + ", ();\n";
    text += "  ret;\n}\n";
  }
  return text + ".visible .entry k()\n{\n  call.uni f1, ();\n  ret;\n}\n";
}

TEST(PtxParser, RefusesCallsNestedMoreThan64Deep) {
  EXPECT_EQ(error_of(call_chain(64)), "no error");
  // 65 functions: f65 is the first (lines 4-7), f64 next (lines 8-12, its call on line 10).
  EXPECT_EQ(error_of(call_chain(65)), "bad.ptx:10:3: unsupported call of 'f65': more than 64 nested calls");
  EXPECT_NE(error_of(call_chain(5000)).find("more than 64 nested calls"), std::string::npos);
}

TEST(PtxParser, CommentsScopesAndImmediatesInTheirForms) {
  const std::string text =
      ".version 8.2 /* a block\n comment */\n.target sm_75\n.address_size 64\n"
      ".visible .entry k(.param .u64 out) .maxntid 128, 1, 1\n{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n"
      "  ld.param.u64 %rd1, [out]; // a line comment\n"
      "  { .reg .b32 %inner;\n  mov.u32 %inner, 0x10;\n  add.s32 %r1, %inner, -3;\n  }\n"
      "  mov.b32 %r2, 0f3F800000;\n"
      "  st.global.v2.u32 [%rd1+0], {%r1, %r2};\n  ret;\n}\n";
  auto m = parse_module(text, "forms.ptx");
  Kernel k(m, "k");
  VectorMemory mem;
  const std::uint64_t out = mem.add(std::vector<std::uint32_t>(2));
  LaunchSpec launch;
  launch.params = Params().add(k, 0, out).bytes;
  RecordingSink sink;
  k.execute_cta(launch, {0, 0, 0}, mem, sink, {});
  EXPECT_EQ(mem.get<std::uint32_t>(out), (std::vector<std::uint32_t>{13, 0x3f800000}));
  // %inner is gone outside its scope
  EXPECT_NE(std::string(error_of(".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k()\n{\n"
                                 "  { .reg .b32 %x;\n  }\n  mov.u32 %x, 1;\n}\n"))
                .find("bad.ptx:8:11: unknown register '%x'"),
            std::string::npos);
}

TEST(PtxParser, RegistersPerThreadFollowTheLiveValues) {
  // Five 32-bit values and one 64-bit value live across the add: 7 units, allocated in 8s -> 8.
  Kernel small(parse_module(read_data("saxpy.clang.ptx"), "saxpy.clang.ptx"), "_Z5saxpyifPKfPf");
  EXPECT_EQ(small.registers_per_thread(), 8u);
  // mix keeps more values live (floats, doubles, addresses across its call): 24
  Kernel mix(parse_module(read_data("mix.clang.ptx"), "mix.clang.ptx"), "_Z3mixPKfPfPjPdii");
  EXPECT_EQ(mix.registers_per_thread() % 8, 0u);
  EXPECT_GT(mix.registers_per_thread(), small.registers_per_thread());
}

}  // namespace
}  // namespace numagpu::ptx::test

namespace numagpu::ptx::test {
namespace {

// The PTX-to-class table of docs/cuda.md, instruction by instruction.
TEST(PtxParser, EachInstructionIsChargedAsTheTableSays) {
  const std::string text = kernel_text(".param .u64 p",
                                       "  .reg .pred %p<4>;\n  .reg .b32 %r<8>;\n  .reg .f32 %f<8>;\n  .reg "
                                       ".f64 %fd<4>;\n  .reg .b64 %rd<4>;\n"
                                       "  ld.param.u64 %rd1, [p];\n"                     // 0 none
                                       "  cvta.to.global.u64 %rd2, %rd1;\n"              // 1 none
                                       "  mov.u32 %r1, %tid.x;\n"                        // 2 int
                                       "  cvt.rn.f32.s32 %f1, %r1;\n"                    // 3 sfu
                                       "  cvt.f64.f32 %fd1, %f1;\n"                      // 4 fp64
                                       "  cvt.u64.u32 %rd3, %r1;\n"                      // 5 int
                                       "  setp.lt.f32 %p1, %f1, 0f3F800000;\n"           // 6 fp32
                                       "  setp.lt.f64 %p2, %fd1, 0d3FF0000000000000;\n"  // 7 fp64
                                       "  setp.lt.s32 %p3, %r1, 4;\n"                    // 8 int
                                       "  div.rn.f32 %f2, %f1, %f1;\n"       // 9 fp32, fp32 division slot
                                       "  rem.u32 %r2, %r1, %r1;\n"          // 10 int, integer division slot
                                       "  div.rn.f64 %fd2, %fd1, %fd1;\n"    // 11 fp64, fp64 division slot
                                       "  sqrt.rn.f32 %f3, %f1;\n"           // 12 sfu
                                       "  ex2.approx.ftz.f32 %f4, %f1;\n"    // 13 sfu
                                       "  fma.rn.f32 %f5, %f1, %f1, %f1;\n"  // 14 fp32
                                       "  ld.global.f32 %f6, [%rd2];\n"      // 15 memory
                                       "  bar.sync 0;\n"                     // 16 barrier
                                       "  selp.b32 %r3, 1, 0, %p1;\n"        // 17 int
                                       "  ret;\n");                          // 18 branch (exit)
  Kernel k(parse_module(text, "c.ptx"), "k");
  using K = InstrCost::Kind;
  const std::vector<std::tuple<K, InstrClass, unsigned>> expected = {
      {K::kNone, InstrClass::kInt, kClassSlot},       {K::kNone, InstrClass::kInt, kClassSlot},
      {K::kCompute, InstrClass::kInt, kClassSlot},    {K::kCompute, InstrClass::kSfu, kClassSlot},
      {K::kCompute, InstrClass::kFp64, kClassSlot},   {K::kCompute, InstrClass::kInt, kClassSlot},
      {K::kCompute, InstrClass::kFp32, kClassSlot},   {K::kCompute, InstrClass::kFp64, kClassSlot},
      {K::kCompute, InstrClass::kInt, kClassSlot},    {K::kCompute, InstrClass::kFp32, kDivisionSlot + 1},
      {K::kCompute, InstrClass::kInt, kDivisionSlot}, {K::kCompute, InstrClass::kFp64, kDivisionSlot + 2},
      {K::kCompute, InstrClass::kSfu, kClassSlot},    {K::kCompute, InstrClass::kSfu, kClassSlot},
      {K::kCompute, InstrClass::kFp32, kClassSlot},   {K::kMemory, InstrClass::kInt, kClassSlot},
      {K::kBarrier, InstrClass::kInt, kClassSlot},    {K::kCompute, InstrClass::kInt, kClassSlot},
      {K::kCompute, InstrClass::kBranch, kClassSlot}};
  ASSERT_EQ(k.code().size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const InstrCost c = cost_of(k.code()[i]);
    EXPECT_EQ(c.kind, std::get<0>(expected[i])) << i;
    if (c.kind == K::kCompute) {
      EXPECT_EQ(c.cls, std::get<1>(expected[i])) << i;
      EXPECT_EQ(c.latency, std::get<2>(expected[i])) << i;
    }
  }
}

}  // namespace
}  // namespace numagpu::ptx::test
