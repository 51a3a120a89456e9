// The published Accel-Sim trace in ../shared/data/accelsim (outside the repository; these tests skip when it
// is absent). The expected counts were obtained independently of numagpu, with grep and awk on the file
// (mawk 1.3.4, in that directory, f=kernel-593-ctx_0x55c28dad19e0.traceg):
//
//   grep -c '^#BEGIN_TB' $f                                    -> 55   thread blocks
//   grep -c '^thread block' $f                                 -> 55
//   grep -c '^warp = ' $f                                      -> 220  warps (none has "insts = 0")
//   grep -cE '^[0-9a-f]+ [0-9a-f]{8} ' $f                      -> 7260 instructions
//   awk '/^insts = /{s+=$3} END{print s}' $f                   -> 7260
//   awk '/^[0-9a-f]+ [0-9a-f]+ [0-9]+ / {op=$(4+$3); split(op,a,"."); c[a[1]]++}
//        END{for(k in c) print k, c[k]}' $f                    -> LDG 440, STG 440, EXIT 220, FMUL 3520,
//        IMAD 880, MOV 440, S2R 440, SHF 220, BRA 220, IADD3 220, ISETP 220
//   grep -c LDG $f                                             -> 440  loads
//   grep -c STG $f                                             -> 440  stores
//   awk '... a[1]=="LDG"||a[1]=="STG" {print a[1], $2}' | sort | uniq -c
//                                                              -> 440 LDG ffffffff, 440 STG ffffffff
//   so every memory instruction has 32 active threads: 880 * 32 = 28160 thread accesses.
//
// The README of that folder says the same: 55 blocks x 4 warps x 33 instructions, two LDG.E.128 and two
// STG.E.128 per warp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"
#include "trace/convert.hpp"
#include "trace/ngt.hpp"

namespace numagpu::trace {
namespace {

// ${PROJECT_SOURCE_DIR}/../shared/data/accelsim, or the folder named by the environment variable of the
// same name (to run these tests on another copy, or to see them skip).
std::string sample_dir() {
  const char* override_dir = std::getenv("NUMAGPU_ACCELSIM_SAMPLE_DIR");
  return override_dir != nullptr ? override_dir : NUMAGPU_ACCELSIM_SAMPLE_DIR;
}

const std::string kDir = sample_dir();
const std::string kKernel = kDir + "/kernel-593-ctx_0x55c28dad19e0.traceg";

class RealSample : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::is_directory(kDir)) {
      // In CI the sample must be there: a skipped test would leave a green run that checked nothing.
      const char* ci = std::getenv("CI");
      if (ci != nullptr && std::string(ci) == "true")
        FAIL() << "CI=true and the Accel-Sim sample " << kDir << " is absent";
      GTEST_SKIP() << "the Accel-Sim sample folder " << kDir << " is absent";
    }
  }
};

TEST_F(RealSample, CountsMatchGrepAndAwk) {
  AccelSimKernelReader reader(kKernel);
  const TraceCounts c = count_trace(reader);
  EXPECT_EQ(c.blocks, 55u);
  EXPECT_EQ(c.warps, 220u);
  EXPECT_EQ(c.instructions, 7260u);
  EXPECT_EQ(c.of(OpKind::kLoad), 440u);
  EXPECT_EQ(c.of(OpKind::kStore), 440u);
  EXPECT_EQ(c.of(OpKind::kAtomic), 0u);
  EXPECT_EQ(c.of(OpKind::kBarrier), 0u);
  EXPECT_EQ(c.of(OpKind::kExit), 220u);
  EXPECT_EQ(c.of(OpKind::kCompute), 7260u - 440 - 440 - 220);
  EXPECT_EQ(c.thread_accesses, 28160u);
}

TEST_F(RealSample, HeaderAndTheWarningsAboutWhatIsIgnored) {
  AccelSimKernelReader reader(kKernel);
  const KernelInfo& info = reader.info();
  EXPECT_EQ(info.kernel_id, 593u);
  EXPECT_EQ(info.grid, (Dim3{55, 1, 1}));
  EXPECT_EQ(info.block, (Dim3{128, 1, 1}));
  EXPECT_EQ(info.warps_per_cta(), 4u);
  EXPECT_EQ(info.shared_mem_bytes, 1u);
  EXPECT_EQ(info.registers_per_thread, 0u);  // 21955 is impossible: unknown
  EXPECT_EQ(info.local_mem_base, 0x7f59db000000u);
  EXPECT_EQ(reader.header().tracer_version, 5u);
  EXPECT_EQ(reader.header().nregs, 21955u);
  EXPECT_EQ(reader.header().binary_version, 0u);
  ASSERT_EQ(reader.warnings().size(), 2u);
  EXPECT_EQ(reader.warnings()[0],
            kKernel +
                ":6: -nregs = 21955 exceeds the 255 registers a thread can have; ignored "
                "(registers per thread unknown)");
  EXPECT_EQ(reader.warnings()[1],
            kKernel +
                ":7: -binary version = 0 is not a known SM architecture (e.g. 70 Volta, 80 "
                "Ampere, 90 Hopper); ignored: numagpu classifies opcodes by name, not with "
                "per-architecture tables");
  count_trace(reader);
  EXPECT_EQ(reader.warnings().size(), 2u);  // nothing more in the body
}

TEST_F(RealSample, FirstAndLastBlockAddresses) {
  AccelSimKernelReader reader(kKernel);
  ThreadBlock block;
  ASSERT_TRUE(reader.next_block(block));
  // Block 0, warp 0: "00a0 ffffffff 1 R12 LDG.E.128.SYS 1 R2 16 1 0x7f580face400 16 0"
  // lane k = 0x7f580face400 + 16k; lane 31 = +0x1f0 = 0x7f580face5f0.
  const WarpInstruction& load = block.warps[0][10];
  EXPECT_EQ(load.kind, OpKind::kLoad);
  EXPECT_EQ(load.pc, 0xa0u);
  EXPECT_EQ(load.access_bytes, 16);
  ASSERT_EQ(load.addresses.size(), 32u);
  EXPECT_EQ(load.addresses[0], 0x7f580face400u);
  EXPECT_EQ(load.addresses[31], 0x7f580face5f0u);
  // "0050 00000000 0 BRA 0 0 528": nobody active, still an instruction.
  EXPECT_EQ(block.warps[0][5].active_mask, 0u);
  EXPECT_EQ(block.warps[0][32].kind, OpKind::kExit);
  uint64_t last_x = 0;
  while (reader.next_block(block))
    last_x = block.x;
  EXPECT_EQ(last_x, 54u);
  // Block (54,0,0), warp 0: "00a0 ffffffff 1 R12 LDG.E.128.SYS 1 R2 16 1 0x7f580fb04400 16 0"
  EXPECT_EQ(block.warps[0][10].addresses[0], 0x7f580fb04400u);
}

TEST_F(RealSample, ThroughTheKernelList) {
  const KernelList list = read_kernel_list(kDir + "/kernelslist.g");
  ASSERT_EQ(list.kernel_paths(), (std::vector<std::string>{kKernel}));
  auto reader = open_kernel_trace(list.kernel_paths()[0]);
  EXPECT_EQ(count_trace(*reader).instructions, 7260u);
}

TEST_F(RealSample, ConvertsToNgtLosslesslyAndCompactly) {
  testing::TempDir dir;
  const ConversionResult result = convert_accelsim_kernel(kKernel, dir.path("k593.ngt"));
  EXPECT_EQ(result.counts.instructions, 7260u);
  EXPECT_EQ(result.warnings.size(), 2u);
  // 307476 bytes of text; the binary form stores most instructions in one byte.
  EXPECT_LT(result.bytes_written, std::filesystem::file_size(kKernel) / 20);
  AccelSimKernelReader original(kKernel);
  NgtReader converted(dir.path("k593.ngt"));
  EXPECT_EQ(converted.info(), original.info());
  ThreadBlock a;
  ThreadBlock b;
  uint64_t blocks = 0;
  while (original.next_block(a)) {
    ASSERT_TRUE(converted.next_block(b));
    ASSERT_TRUE(a == b) << "block " << blocks;
    ++blocks;
  }
  EXPECT_FALSE(converted.next_block(b));
  EXPECT_EQ(blocks, 55u);
}

TEST_F(RealSample, CompressedCopiesReadTheSame) {
  testing::TempDir dir;
  const std::string text = testing::read_file(kKernel);
  for (const std::string ext : {".xz", ".gz"}) {
    const std::string path =
        dir.write("kernel.traceg" + ext, ext == ".xz" ? testing::xz_bytes(text) : testing::gzip_bytes(text));
    AccelSimKernelReader reader(path);
    EXPECT_EQ(count_trace(reader).instructions, 7260u) << ext;
  }
}

}  // namespace
}  // namespace numagpu::trace
