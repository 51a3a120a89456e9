// The Accel-Sim reader on the hand-written traces of tests/data/trace: every address compression mode,
// tracer versions 4 and 5 (and 3), line info, gzip and xz copies. Expected values are derived by hand in the
// comments from the trace lines quoted there.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"

namespace numagpu::trace {
namespace {

using testing::data_path;
using testing::read_all;
using testing::TempDir;

using Addresses = std::vector<uint64_t>;

WarpInstruction compute(uint32_t pc, uint32_t mask = 0xffffffffu) {
  WarpInstruction i;
  i.pc = pc;
  i.active_mask = mask;
  return i;
}

WarpInstruction op(OpKind kind, uint32_t pc, uint32_t mask = 0xffffffffu) {
  WarpInstruction i = compute(pc, mask);
  i.kind = kind;
  return i;
}

WarpInstruction mem(OpKind kind, uint32_t pc, uint32_t mask, uint8_t bytes, Addresses addresses) {
  WarpInstruction i = op(kind, pc, mask);
  i.access_bytes = bytes;
  i.addresses = std::move(addresses);
  return i;
}

// Lane k of a stride pattern: base + k * stride, for `n` lanes.
Addresses strided(uint64_t base, int64_t stride, uint32_t n) {
  Addresses a;
  for (uint32_t k = 0; k < n; ++k)
    a.push_back(base + static_cast<uint64_t>(stride * static_cast<int64_t>(k)));
  return a;
}

// kernel-1-modes-v5.traceg, block (0,0,0), as written in the file.
std::vector<std::vector<WarpInstruction>> modes_block0() {
  return {
      {
          compute(0x00),  // 0000 ffffffff 1 R1 MOV 0 0 0
          // 0010 0000000f 1 R2 LDG.E 1 R4 4 0 0x7f5000001000 0x7f5000001010 0x7f5000001004 0x7f5000002000 0
          // mode 0 (list): lanes 0-3 active, one address each, in lane order.
          mem(OpKind::kLoad, 0x10, 0xf, 4, {0x7f5000001000, 0x7f5000001010, 0x7f5000001004, 0x7f5000002000}),
          // 0020 000000f0 0 STG.E.64 2 R4 R6 8 1 0x7f5000003000 8 0
          // mode 1 (base+stride): lanes 4-7 -> 0x..3000, +8 = 0x..3008, 0x..3010, 0x..3018.
          mem(OpKind::kStore, 0x20, 0xf0, 8,
              {0x7f5000003000, 0x7f5000003008, 0x7f5000003010, 0x7f5000003018}),
          // 0030 00000505 1 R8 ATOMG.E.ADD.STRONG.GPU 2 R4 R9 4 2 0x7f5000004000 -16 256 4096 0
          // mode 2 (base+delta): lanes 0,2,8,10 (0x505) -> 0x..4000; 0x4000-16 = 0x..3ff0;
          // 0x3ff0+256 = 0x..40f0; 0x40f0+4096 = 0x..50f0.
          mem(OpKind::kAtomic, 0x30, 0x505, 4,
              {0x7f5000004000, 0x7f5000003ff0, 0x7f50000040f0, 0x7f50000050f0}),
          // 0040 ffffffff 1 R3 LDS.U.32 1 R5 4 1 0x7f1000000080 4 0   shared memory: compute, no addresses
          compute(0x40), op(OpKind::kBarrier, 0x50),  // 0050 ffffffff 0 BAR.SYNC.DEFER_BLOCKING 0 0 0
          op(OpKind::kExit, 0x60),                    // 0060 ffffffff 0 EXIT 0 0 0
      },
      {
          compute(0x00),
          // 0010 ffffffff 1 R2 LDL.64 1 R1 8 1 0x7f1200000100 -8 0
          // local memory, negative stride: lane k = 0x7f1200000100 - 8k; lane 31 = 0x100 - 0xf8 = 0x..0008.
          mem(OpKind::kLoad, 0x10, 0xffffffffu, 8, strided(0x7f1200000100, -8, 32)),
          op(OpKind::kExit, 0x20),
      },
  };
}

// kernel-1-modes-v5.traceg, block (1,0,0).
std::vector<std::vector<WarpInstruction>> modes_block1() {
  return {
      {
          compute(0x00),
          // 0010 80000001 0 RED.E.ADD.F32.FTZ.RN.STRONG.GPU 2 R2 R3 4 2 0x7f5000008000 4096 0
          // lanes 0 and 31: 0x..8000, then +4096 = 0x..9000.
          mem(OpKind::kAtomic, 0x10, 0x80000001u, 4, {0x7f5000008000, 0x7f5000009000}),
          // 0020 00000000 0 STG.E 2 R4 R5 4 1 0x0 0 0   predicated off everywhere: no addresses
          mem(OpKind::kStore, 0x20, 0, 4, {}),
          op(OpKind::kExit, 0x30),  // 0030 ffffffff 0 EXIT 0 0 -1   (negative immediate)
      },
      {
          compute(0x00),
          // 0010 00030000 0 ST.E 2 R2 R3 4 0 0x00007f5000010000 0x00007f5000010040 0   lanes 16, 17
          mem(OpKind::kStore, 0x10, 0x30000, 4, {0x7f5000010000, 0x7f5000010040}),
          op(OpKind::kExit, 0x20),
      },
  };
}

// kernel-2-lineinfo-v4.traceg, block (0,0,0): lines start with a source line number, no immediate.
std::vector<std::vector<WarpInstruction>> lineinfo_block0() {
  // 14 0020 ffffffff 0 STL 2 R1 R4 4 0 <32 addresses>: lane k = 0x7f1200000000 + 0x100*(k%4) + 4*(k/4),
  // e.g. lane 0 = 0x..000, lane 1 = 0x..100, lane 5 = 0x..104, lane 31 = 0x..300 + 28 = 0x..31c.
  Addresses stl;
  for (uint64_t k = 0; k < 32; ++k)
    stl.push_back(0x7f1200000000 + 0x100 * (k % 4) + 4 * (k / 4));
  EXPECT_EQ(stl[5], 0x7f1200000104u);
  EXPECT_EQ(stl[31], 0x7f120000031cu);
  return {
      {
          compute(0x00),
          // 13 0010 ffffffff 1 R4 LDG.E.128 1 R2 16 1 0x7f6000000000 16: lane k = 0x..0000 + 16k,
          // lane 31 = 0x..01f0.
          mem(OpKind::kLoad, 0x10, 0xffffffffu, 16, strided(0x7f6000000000, 16, 32)),
          op(OpKind::kExit, 0x20),
      },
      {
          compute(0x00),
          // 13 0010 0000000e 1 R4 LDG.E.128 1 R2 16 2 0x7f6000000210 16 -32: lanes 1-3 ->
          // 0x..210, 0x..220, 0x..220-32 = 0x..200.
          mem(OpKind::kLoad, 0x10, 0xe, 16, {0x7f6000000210, 0x7f6000000220, 0x7f6000000200}),
          mem(OpKind::kStore, 0x20, 0xffffffffu, 4, stl),
          op(OpKind::kExit, 0x30),
      },
  };
}

std::vector<std::vector<WarpInstruction>> lineinfo_block1() {
  const std::vector<WarpInstruction> warp = {op(OpKind::kBarrier, 0x00), op(OpKind::kExit, 0x10)};
  return {warp, warp};
}

void expect_block(const ThreadBlock& b, uint64_t cta, uint32_t x, uint32_t y, uint32_t z,
                  const std::vector<std::vector<WarpInstruction>>& warps) {
  EXPECT_EQ(b.cta_id, cta);
  EXPECT_EQ(b.x, x);
  EXPECT_EQ(b.y, y);
  EXPECT_EQ(b.z, z);
  ASSERT_EQ(b.warps.size(), warps.size());
  for (size_t w = 0; w < warps.size(); ++w) {
    ASSERT_EQ(b.warps[w].size(), warps[w].size()) << "warp " << w;
    for (size_t i = 0; i < warps[w].size(); ++i) {
      const WarpInstruction& got = b.warps[w][i];
      const WarpInstruction& want = warps[w][i];
      EXPECT_EQ(got.kind, want.kind) << "warp " << w << " instruction " << i;
      EXPECT_EQ(got.pc, want.pc) << "warp " << w << " instruction " << i;
      EXPECT_EQ(got.active_mask, want.active_mask) << "warp " << w << " instruction " << i;
      EXPECT_EQ(got.access_bytes, want.access_bytes) << "warp " << w << " instruction " << i;
      EXPECT_EQ(got.compute_cycles, 1) << "warp " << w << " instruction " << i;
      EXPECT_EQ(got.addresses, want.addresses) << "warp " << w << " instruction " << i;
    }
  }
}

void expect_modes_kernel(AccelSimKernelReader& reader) {
  const std::vector<ThreadBlock> blocks = read_all(reader);
  ASSERT_EQ(blocks.size(), 2u);
  expect_block(blocks[0], 0, 0, 0, 0, modes_block0());
  expect_block(blocks[1], 1, 1, 0, 0, modes_block1());
}

TEST(AccelSimReader, ReadsHeaderOfVersion5) {
  AccelSimKernelReader reader(data_path("kernel-1-modes-v5.traceg"));
  const KernelInfo& info = reader.info();
  EXPECT_EQ(info.name, "_Z5modesPfS_");
  EXPECT_EQ(info.kernel_id, 1u);
  EXPECT_EQ(info.grid, (Dim3{2, 1, 1}));
  EXPECT_EQ(info.block, (Dim3{64, 1, 1}));
  EXPECT_EQ(info.ctas(), 2u);
  EXPECT_EQ(info.threads_per_cta(), 64u);
  EXPECT_EQ(info.warps_per_cta(), 2u);
  EXPECT_EQ(info.shared_mem_bytes, 256u);
  EXPECT_EQ(info.registers_per_thread, 16u);
  EXPECT_EQ(info.shared_mem_base, 0x7f1000000000u);
  EXPECT_EQ(info.local_mem_base, 0x7f1200000000u);
  const AccelSimHeader& h = reader.header();
  EXPECT_EQ(h.tracer_version, 5u);
  EXPECT_EQ(h.binary_version, 80u);
  EXPECT_EQ(h.nregs, 16u);
  EXPECT_FALSE(h.lineinfo);
  EXPECT_EQ(h.nvbit_version, "1.7.6");
}

TEST(AccelSimReader, DecodesEveryAddressModeInVersion5) {
  AccelSimKernelReader reader(data_path("kernel-1-modes-v5.traceg"));
  expect_modes_kernel(reader);
  EXPECT_TRUE(reader.warnings().empty()) << reader.warnings().front();
}

TEST(AccelSimReader, ReadsVersion4WithLineInfo) {
  AccelSimKernelReader reader(data_path("kernel-2-lineinfo-v4.traceg"));
  EXPECT_EQ(reader.header().tracer_version, 4u);
  EXPECT_TRUE(reader.header().lineinfo);
  EXPECT_EQ(reader.info().grid, (Dim3{1, 2, 1}));
  EXPECT_EQ(reader.info().block, (Dim3{32, 2, 1}));
  const std::vector<ThreadBlock> blocks = read_all(reader);
  ASSERT_EQ(blocks.size(), 2u);
  expect_block(blocks[0], 0, 0, 0, 0, lineinfo_block0());
  expect_block(blocks[1], 1, 0, 1, 0, lineinfo_block1());  // (0,1,0) in a (1,2,1) grid: id 0 + 1*1 = 1
  EXPECT_TRUE(reader.warnings().empty()) << reader.warnings().front();
}

TEST(AccelSimReader, Version4HasNoImmediateAndVersion5Requires) {
  // The same instruction line is complete in version 4 and one field short in version 5.
  const std::string head =
      "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 80\n-nregs = 8\n-accelsim tracer "
      "version = ";
  const std::string body =
      "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n0000 ffffffff 0 EXIT 0 0\n#END_TB\n";
  TempDir dir;
  AccelSimKernelReader v4(dir.write("v4.traceg", head + "4" + body));
  EXPECT_EQ(read_all(v4).size(), 1u);
  const std::string v5 = dir.write("v5.traceg", head + "5" + body);
  EXPECT_EQ(testing::error_of([&] {
              AccelSimKernelReader r(v5);
              read_all(r);
            }),
            v5 + ":10: expected immediate (decimal), found end of line");
}

TEST(AccelSimReader, AcceptsTracerVersion3) {
  // Version 3 predates "-enable lineinfo"; its lines are those of version 4 without line info.
  TempDir dir;
  const std::string path = dir.write(
      "v3.traceg",
      "-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n-nregs = 8\n"
      "-accelsim tracer version = 3\n\n#traces format = PC mask dest_num [reg_dests] opcode src_num "
      "[reg_srcs] "
      "mem_width [adrrescompress?] [mem_addresses]\n\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n"
      "0000 00000003 1 R2 LDG.E 1 R4 4 1 0x1000 4 \n0010 ffffffff 0 EXIT 0 0 \n#END_TB\n");
  AccelSimKernelReader reader(path);
  const auto blocks = read_all(reader);
  ASSERT_EQ(blocks.size(), 1u);
  EXPECT_EQ(blocks[0].warps[0][0].addresses, (Addresses{0x1000, 0x1004}));
}

TEST(AccelSimReader, ReusedBlockStorageGivesTheSameResult) {
  AccelSimKernelReader reader(data_path("kernel-1-modes-v5.traceg"));
  ThreadBlock block;  // one object for every block: the second is shorter in warp 0 than the first
  ASSERT_TRUE(reader.next_block(block));
  expect_block(block, 0, 0, 0, 0, modes_block0());
  ASSERT_TRUE(reader.next_block(block));
  expect_block(block, 1, 1, 0, 0, modes_block1());
  EXPECT_FALSE(reader.next_block(block));
  EXPECT_FALSE(reader.next_block(block));  // stays at the end
}

TEST(AccelSimReader, CountsMatchTheFiles) {
  // kernel-1: MOV x4, LDS (compute: 5), LDG LDL (load: 2), STG.E.64 STG.E ST.E (store: 3), ATOMG RED
  // (atomic: 2), BAR (1), EXIT x4: 17 instructions in 4 warps.
  AccelSimKernelReader k1(data_path("kernel-1-modes-v5.traceg"));
  const TraceCounts c1 = count_trace(k1);
  EXPECT_EQ(c1.blocks, 2u);
  EXPECT_EQ(c1.warps, 4u);
  EXPECT_EQ(c1.instructions, 17u);
  EXPECT_EQ(c1.of(OpKind::kCompute), 5u);
  EXPECT_EQ(c1.of(OpKind::kLoad), 2u);
  EXPECT_EQ(c1.of(OpKind::kStore), 3u);
  EXPECT_EQ(c1.of(OpKind::kAtomic), 2u);
  EXPECT_EQ(c1.of(OpKind::kBarrier), 1u);
  EXPECT_EQ(c1.of(OpKind::kExit), 4u);
  EXPECT_EQ(c1.thread_accesses, 4u + 4 + 4 + 32 + 2 + 0 + 2);
}

// The same trace through gzip and xz, by name and by content.
class CompressedAccelSim : public ::testing::TestWithParam<const char*> {};

TEST_P(CompressedAccelSim, ReadsLikeThePlainFile) {
  const std::string kind = GetParam();
  const std::string plain = testing::read_file(data_path("kernel-1-modes-v5.traceg"));
  const std::string packed = kind == "xz" ? testing::xz_bytes(plain) : testing::gzip_bytes(plain);
  TempDir dir;
  AccelSimKernelReader reader(dir.write("kernel-1.traceg." + kind, packed));
  expect_modes_kernel(reader);
  EXPECT_TRUE(reader.warnings().empty());
}

TEST_P(CompressedAccelSim, CompressedContentUnderAPlainNameIsReadWithAWarning) {
  const std::string kind = GetParam();
  const std::string plain = testing::read_file(data_path("kernel-1-modes-v5.traceg"));
  TempDir dir;
  const std::string path =
      dir.write("kernel-1.traceg", kind == "xz" ? testing::xz_bytes(plain) : testing::gzip_bytes(plain));
  AccelSimKernelReader reader(path);
  expect_modes_kernel(reader);
  ASSERT_EQ(reader.warnings().size(), 1u);
  EXPECT_EQ(reader.warnings()[0], path + ": the content is " + (kind == "xz" ? "xz" : "gzip") +
                                      "-compressed but the name does not say so; decompressing by content");
}

INSTANTIATE_TEST_SUITE_P(Formats, CompressedAccelSim, ::testing::Values("gz", "xz"));

}  // namespace
}  // namespace numagpu::trace
