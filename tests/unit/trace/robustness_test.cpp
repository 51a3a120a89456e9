// Damaged input of every kind ends in a TraceError or a successful read: never a crash, an assert, another
// exception type or a runaway allocation. Seeded, so a failure reproduces.
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "test_support.hpp"
#include "trace/accelsim_reader.hpp"
#include "trace/convert.hpp"
#include "trace/ngt.hpp"

namespace numagpu::trace {
namespace {

using testing::TempDir;

enum class Result { kRead, kTraceError };

// Reads `path` to its end with the reader open_kernel_trace picks; any exception but TraceError escapes
// and fails the test.
Result read_to_end(const std::string& path) {
  try {
    auto reader = open_kernel_trace(path);
    count_trace(*reader);
    return Result::kRead;
  } catch (const TraceError&) {
    return Result::kTraceError;
  }
}

std::string mutate_text(std::string s, std::mt19937_64& rng) {
  static const std::string kAlphabet = "0129afxR-#=,. \n\tZ";
  const int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const size_t at = rng() % s.size();
    switch (rng() % 3) {
      case 0:
        s[at] = kAlphabet[rng() % kAlphabet.size()];
        break;
      case 1:
        s.erase(at, 1 + rng() % 8);
        break;
      default:
        s.insert(at, 1, kAlphabet[rng() % kAlphabet.size()]);
    }
  }
  return s;
}

TEST(Robustness, MutatedAccelSimTextNeverCrashes) {
  const std::string good = testing::read_file(testing::data_path("kernel-1-modes-v5.traceg"));
  TempDir dir;
  std::mt19937_64 rng(12345);
  int errors = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::string path = dir.write("m.traceg", mutate_text(good, rng));
    if (read_to_end(path) == Result::kTraceError) ++errors;
  }
  EXPECT_GT(errors, 1500);  // most mutations must be caught, not silently read
}

TEST(Robustness, EveryTruncationOfAccelSimTextIsAnErrorOrAWholeBlock) {
  const std::string good = testing::read_file(testing::data_path("kernel-1-modes-v5.traceg"));
  const size_t first_block = good.find("#BEGIN_TB");
  TempDir dir;
  for (size_t cut = 0; cut < good.size(); ++cut) {
    const std::string text = good.substr(0, cut);
    const Result r = read_to_end(dir.write("t.traceg", text));
    // A cut right after a complete "#END_TB" (or in the blank lines after it) reads, the blocks so far;
    // any other cut from the first block marker on is an error. Cuts in the header may read (a complete
    // header alone is a kernel without traced blocks, reported by a warning) or fail.
    const size_t last_end = text.rfind("#END_TB");
    const bool at_block_boundary =
        last_end != std::string::npos && text.find_first_not_of('\n', last_end + 7) == std::string::npos;
    if (at_block_boundary) {
      EXPECT_EQ(r, Result::kRead) << "cut at " << cut;
    } else if (cut > first_block) {
      EXPECT_EQ(r, Result::kTraceError) << "cut at " << cut;
    }
  }
}

TEST(Robustness, CompressedGarbageNeverCrashes) {
  const std::string good = testing::read_file(testing::data_path("kernel-1-modes-v5.traceg"));
  TempDir dir;
  std::mt19937_64 rng(777);
  for (const std::string ext : {".xz", ".gz"}) {
    const std::string packed = ext == ".xz" ? testing::xz_bytes(good) : testing::gzip_bytes(good);
    for (int i = 0; i < 300; ++i) {
      std::string bad = packed;
      bad[6 + rng() % (bad.size() - 6)] = static_cast<char>(rng());
      read_to_end(dir.write("g.traceg" + ext, bad));
    }
  }
}

// A .ngt block record whose payload is damaged but whose checksum is recomputed to match, so the decoder
// itself (not the CRC) has to cope.
TEST(Robustness, NgtDecoderSurvivesDamageBehindAValidChecksum) {
  TempDir dir;
  convert_accelsim_kernel(testing::data_path("kernel-1-modes-v5.traceg"), dir.path("k.ngt"));
  const std::string good = testing::read_file(dir.path("k.ngt"));
  const size_t kernel_end = 12 + 5 + static_cast<unsigned char>(good[13]) + 4;
  const uint32_t block_size = static_cast<unsigned char>(good[kernel_end + 1]);  // < 256 for this kernel
  const size_t payload = kernel_end + 5;
  std::mt19937_64 rng(99);
  for (int i = 0; i < 3000; ++i) {
    std::string bad = good;
    for (int e = 0; e < 1 + static_cast<int>(rng() % 3); ++e) {
      bad[payload + rng() % block_size] = static_cast<char>(rng() % 4 == 0 ? 0xff : rng());
    }
    uLong crc = crc32(0L, Z_NULL, 0);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bad.data() + kernel_end), 1);
    crc = crc32(crc, reinterpret_cast<const Bytef*>(bad.data() + payload), block_size);
    for (int b = 0; b < 4; ++b)
      bad[payload + block_size + b] = static_cast<char>(crc >> (8 * b));
    read_to_end(dir.write("d.ngt", bad));
  }
}

}  // namespace
}  // namespace numagpu::trace
