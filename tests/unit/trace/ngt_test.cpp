// numagpu's .ngt format: byte layout, round trips (random traces, the hand-written Accel-Sim traces),
// truncation, corruption and version checks.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <zlib.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"
#include "trace/convert.hpp"
#include "trace/ngt.hpp"

namespace numagpu::trace {
namespace {

using testing::data_path;
using testing::error_of;
using testing::read_all;
using testing::TempDir;

KernelInfo small_kernel() {
  KernelInfo info;
  info.name = "k";
  info.kernel_id = 3;
  info.grid = {2, 1, 1};
  info.block = {32, 1, 1};
  return info;
}

ThreadBlock block_of(const KernelInfo& info, uint32_t x, std::vector<std::vector<WarpInstruction>> warps) {
  ThreadBlock b;
  b.x = x;
  b.cta_id = info.linear_cta_id(x, 0, 0);
  b.warps = std::move(warps);
  return b;
}

std::string write_kernel(const TempDir& dir, const KernelInfo& info, const std::vector<ThreadBlock>& blocks,
                         const std::string& name = "t.ngt") {
  NgtWriter writer(dir.path(name), info);
  for (const ThreadBlock& b : blocks)
    writer.write_block(b);
  writer.finish();
  return dir.path(name);
}

// ---- byte layout --------------------------------------------------------------------------------------

TEST(NgtLayout, TinyKernelBytesMatchTheSpecification) {
  // One block (1,0,0) of one warp with two instructions:
  //   LDG  pc 0x00, full mask, 4 bytes, lanes k -> 0x1000 + 4k       (uniform: base + stride)
  //   EXIT pc 0x10, full mask
  const KernelInfo info = small_kernel();
  WarpInstruction load;
  load.kind = OpKind::kLoad;
  load.active_mask = 0xffffffffu;
  load.access_bytes = 4;
  for (uint64_t k = 0; k < 32; ++k)
    load.addresses.push_back(0x1000 + 4 * k);
  WarpInstruction exit;
  exit.kind = OpKind::kExit;
  exit.pc = 0x10;
  exit.active_mask = 0xffffffffu;
  TempDir dir;
  const std::string bytes = testing::read_file(write_kernel(dir, info, {block_of(info, 1, {{load, exit}})}));

  const std::string header("\x89NGT\r\n\x1a\n\x01\x00\x00\x00", 12);  // magic, version 1, flags 0
  // Kernel payload: name "k" (len 1), id 3, grid 2 1 1, block 32 1 1, shmem 0, regs 0, bases 0 0.
  const std::string kernel("\x01k\x03\x02\x01\x01\x20\x01\x01\x00\x00\x00\x00", 13);
  // Block payload: x=1 y=0 z=0, 1 warp, 2 instructions;
  //   LDG:  head = kind 1 | mask same-as-initial (0) | pc sequential 0x20 = 0x21; access bytes 4;
  //         base delta from 0: zigzag(0x1000) = 0x2000 = varint 80 40; stride zigzag(4) = 8
  //   EXIT: head = kind 5 | 0x20 = 0x25 (pc 0x10 = previous + 16)
  const std::string block("\x01\x00\x00\x01\x02\x21\x04\x80\x40\x08\x25", 11);
  const std::string end("\x01\x02", 2);  // 1 block, 2 instructions

  const auto record = [](char type, const std::string& payload) {
    std::string r(1, type);
    for (int i = 0; i < 4; ++i)
      r.push_back(static_cast<char>(payload.size() >> (8 * i)));
    r += payload;
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(&type), 1);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size()));
    for (int i = 0; i < 4; ++i)
      r.push_back(static_cast<char>(crc >> (8 * i)));
    return r;
  };
  EXPECT_EQ(bytes, header + record('K', kernel) + record('B', block) + record('E', end));
}

// ---- round trips --------------------------------------------------------------------------------------

// Random instructions covering every encoding branch: all kinds, masks (same, full, zero, random), pcs
// (sequential, backward, far), compute cycles, addresses (uniform with any stride, random, wrapping).
class RandomTrace {
 public:
  explicit RandomTrace(uint64_t seed) : rng_(seed) {}

  KernelInfo kernel() {
    KernelInfo info;
    info.name = "random_" + std::to_string(rng_() % 1000);
    info.kernel_id = static_cast<uint32_t>(rng_());
    info.grid = {1 + pick(5), 1 + pick(3), 1 + pick(2)};
    info.block = {1 + pick(300), 1 + pick(2), 1};
    info.shared_mem_bytes = pick(49152);
    info.registers_per_thread = pick(256);
    info.shared_mem_base = rng_();
    info.local_mem_base = rng_();
    return info;
  }

  // Traces need not hold every block of the grid.
  bool keep_block() { return pick(8) != 0; }

  ThreadBlock block(const KernelInfo& info, uint32_t x, uint32_t y, uint32_t z) {
    ThreadBlock b;
    b.x = x;
    b.y = y;
    b.z = z;
    b.cta_id = info.linear_cta_id(x, y, z);
    b.warps.resize(info.warps_per_cta());
    for (auto& warp : b.warps) {
      const uint32_t n = pick(4) == 0 ? 0 : pick(60);
      uint32_t pc = 0;
      uint32_t mask = 0xffffffffu;
      for (uint32_t i = 0; i < n; ++i)
        warp.push_back(instruction(pc, mask));
    }
    return b;
  }

 private:
  uint32_t pick(uint32_t bound) { return static_cast<uint32_t>(rng_() % bound); }

  WarpInstruction instruction(uint32_t& pc, uint32_t& mask) {
    WarpInstruction inst;
    inst.kind = static_cast<OpKind>(pick(kOpKindCount));
    switch (pick(4)) {
      case 0:
        break;  // same mask as before
      case 1:
        mask = 0xffffffffu;
        break;
      case 2:
        mask = pick(2) ? 0 : 1u << pick(32);
        break;
      default:
        mask = static_cast<uint32_t>(rng_());
    }
    inst.active_mask = mask;
    switch (pick(4)) {
      case 0:
        pc = static_cast<uint32_t>(rng_());
        break;
      case 1:
        pc -= 16 * pick(8);
        break;
      default:
        break;  // sequential
    }
    inst.pc = pc;
    pc += 16;
    if (pick(5) == 0) inst.compute_cycles = static_cast<uint16_t>(pick(65536));
    if (is_memory(inst.kind)) {
      inst.access_bytes = static_cast<uint8_t>(1u << pick(5));
      fill_addresses(inst);
    }
    return inst;
  }

  void fill_addresses(WarpInstruction& inst) {
    const uint32_t n = inst.active_threads();
    const uint64_t base = pick(3) == 0 ? rng_() : 0x7f0000000000 + pick(1 << 20);
    const bool uniform = pick(2) == 0;
    const int64_t stride = static_cast<int64_t>(pick(2) ? pick(64) : rng_()) * (pick(2) ? 1 : -1);
    for (uint32_t k = 0; k < n; ++k) {
      inst.addresses.push_back(uniform ? base + static_cast<uint64_t>(stride) * k
                                       : (pick(4) == 0 ? rng_() : base + pick(4096)));
    }
  }

  std::mt19937_64 rng_;
};

TEST(NgtRoundTrip, RandomTracesReadBackIdentical) {
  TempDir dir;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    RandomTrace gen(seed);
    const KernelInfo info = gen.kernel();
    std::vector<ThreadBlock> blocks;
    for (uint32_t z = 0; z < info.grid.z; ++z) {
      for (uint32_t y = 0; y < info.grid.y; ++y) {
        for (uint32_t x = 0; x < info.grid.x; ++x) {
          if (gen.keep_block()) blocks.push_back(gen.block(info, x, y, z));
        }
      }
    }
    const std::string path = write_kernel(dir, info, blocks);
    NgtReader reader(path);
    EXPECT_EQ(reader.info(), info) << "seed " << seed;
    const std::vector<ThreadBlock> back = read_all(reader);
    ASSERT_EQ(back.size(), blocks.size()) << "seed " << seed;
    for (size_t i = 0; i < blocks.size(); ++i)
      EXPECT_TRUE(back[i] == blocks[i]) << "seed " << seed << " block " << i;
    EXPECT_TRUE(reader.warnings().empty());
  }
}

TEST(NgtRoundTrip, HandWrittenAccelSimTracesConvertLosslessly) {
  TempDir dir;
  for (const char* name : {"kernel-1-modes-v5.traceg", "kernel-2-lineinfo-v4.traceg"}) {
    const ConversionResult result = convert_accelsim_kernel(data_path(name), dir.path("k.ngt"));
    EXPECT_TRUE(result.warnings.empty());
    EXPECT_EQ(result.bytes_written, std::filesystem::file_size(dir.path("k.ngt")));
    AccelSimKernelReader original(data_path(name));
    NgtReader converted(dir.path("k.ngt"));
    EXPECT_EQ(converted.info(), original.info()) << name;
    const auto a = read_all(original);
    const auto b = read_all(converted);
    EXPECT_TRUE(a == b) << name;
    EXPECT_EQ(result.counts.instructions, name[7] == '1' ? 17u : 11u);
  }
}

TEST(NgtRoundTrip, CompressedNgtAndFormatDetection) {
  TempDir dir;
  convert_accelsim_kernel(data_path("kernel-1-modes-v5.traceg"), dir.path("k.ngt"));
  dir.write("k.ngt.xz", testing::xz_bytes(testing::read_file(dir.path("k.ngt"))));
  AccelSimKernelReader original(data_path("kernel-1-modes-v5.traceg"));
  const auto expected = read_all(original);
  for (const std::string name : {"k.ngt", "k.ngt.xz"}) {
    auto reader = open_kernel_trace(dir.path(name));
    EXPECT_NE(dynamic_cast<NgtReader*>(reader.get()), nullptr) << name;
    EXPECT_TRUE(read_all(*reader) == expected) << name;
  }
  auto text = open_kernel_trace(data_path("kernel-1-modes-v5.traceg"));
  EXPECT_NE(dynamic_cast<AccelSimKernelReader*>(text.get()), nullptr);
}

// ---- damaged files ------------------------------------------------------------------------------------

class NgtDamage : public ::testing::Test {
 protected:
  void SetUp() override {
    convert_accelsim_kernel(data_path("kernel-1-modes-v5.traceg"), dir_.path("good.ngt"));
    good_ = testing::read_file(dir_.path("good.ngt"));
  }

  // The error of reading `bytes` to the end, without the path prefix.
  std::string error_reading(const std::string& bytes) {
    const std::string path = dir_.write("damaged.ngt", bytes);
    const std::string e = error_of([&] {
      NgtReader reader(path);
      read_all(reader);
    });
    return e.substr(0, path.size()) == path ? e.substr(path.size()) : e;
  }

  TempDir dir_;
  std::string good_;
};

TEST_F(NgtDamage, EveryTruncationIsDetected) {
  for (size_t cut = 0; cut < good_.size(); ++cut) {
    const std::string e = error_reading(good_.substr(0, cut));
    EXPECT_TRUE(e.find("truncated") != std::string::npos ||
                e.find("not a numagpu trace") != std::string::npos)
        << "cut at " << cut << ": " << e;
  }
}

TEST_F(NgtDamage, TruncationMessages) {
  // Layout of good.ngt: 12-byte header, kernel record (5 + payload + 4), block records, end record.
  EXPECT_EQ(error_reading(""),
            ": at byte 0: not a numagpu trace (expected the .ngt magic bytes 89 4E 47 54 0D 0A 1A 0A)");
  EXPECT_EQ(error_reading(good_.substr(0, 10)), ": at byte 10: truncated: expected the 12-byte file header");
  const size_t end_record = good_.size() - 5 - 2 - 4;  // the end record's payload: varints 2 and 17
  EXPECT_EQ(
      error_reading(good_.substr(0, end_record)),
      ": at byte " + std::to_string(end_record) +
          ": truncated: expected another thread block record or the end record after 2 thread blocks, found "
          "the end of the file");
  EXPECT_EQ(error_reading(good_.substr(0, end_record + 3)),
            ": at byte " + std::to_string(end_record + 3) +
                ": truncated: expected 4 bytes of the header of the end record, found 2 before the end of "
                "the file");
  EXPECT_EQ(error_reading(good_.substr(0, good_.size() - 1)),
            ": at byte " + std::to_string(good_.size() - 1) +
                ": truncated: expected 4 bytes of the checksum of the end record, found 3 before the end of "
                "the file");
}

TEST_F(NgtDamage, HugeClaimedRecordSizeAllocatesOnlyWhatArrives) {
  // The kernel record as written, then a block record header claiming the largest legal payload (1 GiB)
  // followed by only ten bytes. Reading must fail on the truncation without ever holding 1 GiB: the payload
  // grows with the data (1 MiB chunks), so the peak RSS of this test process stays far below it (the bound,
  // 512 MiB, leaves room for a sanitizer build's own overhead; a 1 GiB buffer would show as >= 1048576 KiB).
  const size_t kernel_record = 5 + (good_[13] & 0xff) + 4;  // the kernel payload is shorter than 256 bytes
  std::string bad = good_.substr(0, 12 + kernel_record);
  const uint32_t claimed = 1u << 30;
  bad += 'B';
  for (int i = 0; i < 4; ++i)
    bad += static_cast<char>((claimed >> (8 * i)) & 0xff);
  bad += std::string(10, '\x01');
  EXPECT_EQ(error_reading(bad),
            ": at byte " + std::to_string(bad.size()) +
                ": truncated: expected 1073741824 bytes of thread block record #0, found 10 "
                "before the end of the file");
  struct rusage usage {};
  getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss, 512 * 1024) << "peak RSS in KiB";
}

TEST_F(NgtDamage, CorruptionFailsTheChecksum) {
  // Flip a bit inside the first block record's payload (12-byte header + kernel record before it).
  const size_t kernel_record = 5 + (good_[13] & 0xff) + 4;  // the kernel payload is shorter than 256 bytes
  const size_t block_payload = 12 + kernel_record + 5;
  std::string bad = good_;
  bad[block_payload + 3] = static_cast<char>(bad[block_payload + 3] ^ 0x10);
  const std::string e = error_reading(bad);
  EXPECT_EQ(e.substr(0, e.find(" (stored")), ": at byte " + std::to_string(12 + kernel_record) +
                                                 ": checksum mismatch in thread block record #0");
  EXPECT_NE(e.find("): corrupt file"), std::string::npos) << e;
}

TEST_F(NgtDamage, VersionFlagsTrailingData) {
  std::string v2 = good_;
  v2[8] = 2;
  EXPECT_EQ(error_reading(v2), ": at byte 8: unsupported .ngt version 2 (this numagpu reads version 1)");
  std::string flags = good_;
  flags[10] = 1;
  EXPECT_EQ(error_reading(flags), ": at byte 10: unsupported .ngt flags 1 (version 1 defines none)");
  EXPECT_EQ(error_reading(good_ + "x"),
            ": at byte " + std::to_string(good_.size()) + ": unexpected data after the end record");
  std::string text = "-kernel name = k\n";
  EXPECT_EQ(error_reading(text),
            ": at byte 0: not a numagpu trace (expected the .ngt magic bytes 89 4E 47 54 0D 0A 1A 0A)");
}

// ---- writer checks ------------------------------------------------------------------------------------

TEST(NgtWriter, RejectsBlocksThatBreakTheInvariants) {
  const KernelInfo info = small_kernel();
  TempDir dir;
  NgtWriter writer(dir.path("w.ngt"), info);
  const std::string p = dir.path("w.ngt");
  EXPECT_EQ(error_of([&] { writer.write_block(block_of(info, 0, {})); }),
            p + ": cannot write thread block (0,0,0): 0 warps, the kernel has 1 per block");
  EXPECT_EQ(error_of([&] { writer.write_block(block_of(info, 2, {{}})); }),
            p + ": cannot write thread block (2,0,0): outside the grid");
  ThreadBlock wrong_id = block_of(info, 1, {{}});
  wrong_id.cta_id = 0;
  EXPECT_EQ(error_of([&] { writer.write_block(wrong_id); }),
            p + ": cannot write thread block (1,0,0): cta_id 0 is not its linear id");
  WarpInstruction load;
  load.kind = OpKind::kLoad;
  load.active_mask = 0x3;
  load.addresses = {0x10};
  EXPECT_EQ(error_of([&] {
              writer.write_block(block_of(info, 0, {{WarpInstruction{}, load}}));
            }),
            p + ": cannot write thread block (0,0,0) warp 0 instruction 1: address count differs from the "
                "number of "
                "active threads");
  WarpInstruction fmul;
  fmul.access_bytes = 4;
  EXPECT_EQ(error_of([&] { writer.write_block(block_of(info, 0, {{fmul}})); }),
            p + ": cannot write thread block (0,0,0) warp 0 instruction 0: a non-memory instruction carries "
                "addresses or an access size");
  KernelInfo bad = info;
  bad.block = {0, 1, 1};
  EXPECT_EQ(
      error_of([&] { NgtWriter w(dir.path("x.ngt"), bad); }),
      dir.path("x.ngt") +
          ": cannot write kernel: block dim (0,1,1) outside CUDA's limits (no zero dimension, at most 1024 "
          "threads)");
}

TEST(NgtWriter, UnfinishedWriterLeavesNoFile) {
  const KernelInfo info = small_kernel();
  TempDir dir;
  {
    NgtWriter writer(dir.path("partial.ngt"), info);
    writer.write_block(block_of(info, 0, {{}}));
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path("")));
}

TEST(NgtWriter, FailedConversionLeavesNoFile) {
  TempDir dir;
  const std::string bad =
      dir.write("bad.traceg", testing::read_file(data_path("kernel-1-modes-v5.traceg")) + "junk\n");
  EXPECT_NE(error_of([&] { convert_accelsim_kernel(bad, dir.path("out.ngt")); }), "no error");
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.ngt")));
  EXPECT_EQ(
      std::distance(std::filesystem::directory_iterator(dir.path("")), std::filesystem::directory_iterator{}),
      1);  // only bad.traceg
}

}  // namespace
}  // namespace numagpu::trace
