// cuda-samples/histogram64: cold-cache traffic and the data-steered shared-memory counters, by hand.
#include <gtest/gtest.h>

#include "traffic.hpp"

namespace numagpu::kernels {

const std::vector<std::uint32_t>* histogram64_partials(const Kernel& k,
                                                       std::vector<std::uint32_t>* bytes_of_data);

namespace {

using testing::walk;

// The default 64 MiB: ceil(67,108,864 / (64 x 252)) = 4,162 CTAs (16,128 x 4,161 = 67,108,608 leaves 256
// bytes) of 64 threads (2 warps); the data read once, 64 MiB / 128 B = 524,288 lines; 8,324 lines of
// partial histograms (256 B per CTA). That run takes ~3 s of host time, so the test runs the same structure
// at 16 MiB: ceil(16,777,216 / 16,128) = 1,041 CTAs (16,128 x 1,040 = 16,773,120 leaves 4,096 bytes). The
// data are read once: 16 MiB / 128 B = 131,072 lines, in 1,048,576 uint4 / 32 = 32,768 warp loads (the
// grid stride 64 x 1,041 = 66,624 leaves 1,048,576 - 15 x 66,624 = 49,216 = 769 x 64 positions for a 16th
// trip: whole CTAs, so no warp is partly active). Each CTA writes 64 uints = 256 B, two lines: 2,082 lines.
// Two barriers per warp. Shared accesses per warp: 16 zeroing stores + 32 per trip (16 bytes, a load and a
// store each) + 64 summing loads; the CTAs make 769 x 16 + 272 x 15 = 16,384 trips in all:
// 2 x (80 x 1,041 + 32 x 16,384) = 1,215,136.
TEST(Histogram64, ReadsTheDataOnceAndWritesOnePartialHistogramPerCta) {
  const testing::Traffic t = walk("cuda-samples/histogram64", "bytes=16777216");
  EXPECT_EQ(t.ctas, 1041u);
  EXPECT_EQ(t.warps_per_cta, 2u);
  EXPECT_EQ(t.loaded.size(), 131072u);
  EXPECT_EQ(t.load_steps, 32768u);
  EXPECT_EQ(t.stored.size(), 2082u);
  EXPECT_EQ(t.in(t.stored, "partial_histograms"), 2082u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{2}));
  EXPECT_EQ(t.shared_accesses, 1215136u);
}

// 1 MiB: ceil(1,048,576 / 16,128) = 66 CTAs, 65,536 uint4, stride 64 x 66 = 4,224: 15 trips for all and a
// 16th for 65,536 - 15 x 4,224 = 2,176 = 34 x 64 positions (CTAs 0..33). The partial histograms, summed,
// count each byte's high six bits: the values steer the counters. Bank passes: thread t's counter for bin b
// is byte 4 (t & 15) + (t >> 4 & 1) + 64 b of s_Hist (t < 32), word (t & 15) + 16 b, bank (t & 15) + 16 (b &
// 1): only threads t and t + 16 can meet in a bank, and they cost a second pass when their bins differ with
// the same parity (two words of one bank); equal bins share a word. So each counting access of a warp
// costs 2 passes if any of its 16 pairs has such bins, else 1 (load and store alike). Zeroing: thread t
// writes word t + 64 i, 1 pass. Summing: thread t reads word 16 t + ((t & 15) + i) % 16, bank 16 (t & 1) +
// ((t & 15) + i) % 16: distinct for t in 0..15, and t + 16 hits t's bank at another word: 2 passes.
TEST(Histogram64, DataSteerTheCountersAndTheirBankConflicts) {
  std::vector<std::uint32_t> bytes;
  std::vector<std::uint32_t> partials;
  const testing::Traffic t = walk("cuda-samples/histogram64", "bytes=1048576", [&](const Kernel& k) {
    const std::vector<std::uint32_t>* p = histogram64_partials(k, &bytes);
    ASSERT_NE(p, nullptr);
    partials = *p;
  });
  ASSERT_EQ(t.ctas, 66u);
  ASSERT_EQ(bytes.size(), 1048576u);
  std::vector<std::uint64_t> expect(64, 0), got(64, 0);
  for (std::uint32_t b : bytes)
    ++expect[b >> 2];
  for (std::size_t i = 0; i < partials.size(); ++i)
    got[i % 64] += partials[i];
  EXPECT_EQ(got, expect);

  std::uint64_t passes = 0;
  for (std::uint64_t cta = 0; cta < 66; ++cta) {
    for (std::uint64_t warp = 0; warp < 2; ++warp) {
      passes += 16 + 64 * 2;  // zeroing, summing
      for (std::uint64_t pos0 = cta * 64 + warp * 32; pos0 < 65536; pos0 += 64 * 66) {
        for (std::uint64_t byte = 0; byte < 16; ++byte) {  // word byte / 4, shift 2 + 8 (byte % 4)
          bool conflict = false;
          for (std::uint64_t lane = 0; lane < 16; ++lane) {
            const std::uint32_t a = bytes[(pos0 + lane) * 16 + byte] >> 2;
            const std::uint32_t b = bytes[(pos0 + lane + 16) * 16 + byte] >> 2;
            if (a != b && (a & 1) == (b & 1)) conflict = true;
          }
          passes += 2 * (conflict ? 2 : 1);  // the load and the store
        }
      }
    }
  }
  EXPECT_EQ(t.shared_wavefronts, passes);
}

// cuda-samples/histogram64_merge at the reference size: 4,162 partial histograms of 64 uints, 64 CTAs (one
// per bin) of 256 threads (8 warps). Together they read every partial count once: 4,162 x 256 B / 128 B =
// 8,324 lines; a warp's load reads 32 counts 256 B apart, 32 lines. Thread t makes a trip for i = t, t +
// 256, ... < 4,162: 16 x 256 = 4,096, so threads 0..65 make 17 trips, the others 16: warps 0, 1 and 2
// (threads 64, 65) load 17 times, warps 3..7 16 times: 131 load steps per CTA, 8,384 in all, each of 32
// lines. The result: 64 uints, 2 lines. Barriers: the halving reduction from 128 to 1, 8 per warp.
TEST(Histogram64Merge, ReferenceReadsEachPartialCountOnce) {
  const testing::Traffic t = walk("cuda-samples/histogram64_merge", "");
  EXPECT_EQ(t.ctas, 64u);
  EXPECT_EQ(t.warps_per_cta, 8u);
  EXPECT_EQ(t.loaded.size(), 8324u);
  EXPECT_EQ(t.load_steps, 8384u);
  EXPECT_EQ(t.stored.size(), 2u);
  EXPECT_EQ(t.in(t.stored, "histogram"), 2u);
  EXPECT_EQ(t.barrier_counts(), (std::set<unsigned>{8}));
}

}  // namespace
}  // namespace numagpu::kernels
