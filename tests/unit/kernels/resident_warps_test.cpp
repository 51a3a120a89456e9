// kernels/resident_warps.hpp: the flat table CppKernelProgram::step reads a resident warp's steps from. It
// must find every warp added and not removed, whatever the insertion and removal order, across its growth
// and across removals inside a run of occupied slots (the backward shift).
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <utility>

#include "kernels/resident_warps.hpp"

namespace numagpu::kernels {
namespace {

// A view nobody reads, told apart by its step count.
WarpRecordView tagged(std::size_t tag) {
  WarpRecordView v;
  v.step_count = tag;
  return v;
}

TEST(ResidentWarps, FindsWhatWasAddedAndNotWhatWasRemoved) {
  ResidentWarps t;
  EXPECT_EQ(t.find(0, 0), nullptr);  // empty
  t.add(7, 0, tagged(70));
  t.add(7, 1, tagged(71));
  t.add(8, 0, tagged(80));
  ASSERT_NE(t.find(7, 1), nullptr);
  EXPECT_EQ(t.find(7, 1)->step_count, 71u);
  EXPECT_EQ(t.find(8, 1), nullptr);  // CTA 8 has no warp 1
  EXPECT_EQ(t.find(1, 7), nullptr);  // (CTA, warp) is not (warp, CTA)
  t.add(7, 1, tagged(72));           // replaced, not added twice
  EXPECT_EQ(t.size(), 3u);
  EXPECT_EQ(t.find(7, 1)->step_count, 72u);
  t.remove(7, 0);
  t.remove(9, 0);  // not there: nothing happens
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.find(7, 0), nullptr);
  EXPECT_EQ(t.find(7, 1)->step_count, 72u);
  EXPECT_EQ(t.find(8, 0)->step_count, 80u);
}

// CTAs of 8 warps come and go as an SM's would (random order, up to 500 resident: the table grows from 64
// entries to 1,024 and beyond, and removals hit the middle of runs of occupied slots): after every change
// the table answers as an ordered map kept beside it.
TEST(ResidentWarps, AgreesWithAMapThroughGrowthAndRemovals) {
  ResidentWarps t;
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> ref;
  std::mt19937 rng(49);
  std::uint32_t next_cta = 0;
  for (int round = 0; round < 4000; ++round) {
    const bool launch = ref.size() < 8 || (ref.size() < 4000 && rng() % 2 == 0);
    if (launch) {
      const std::uint32_t cta = next_cta++;
      for (std::uint32_t w = 0; w < 8; ++w) {
        t.add(cta, w, tagged(cta * 8 + w));
        ref[{cta, w}] = cta * 8 + w;
      }
    } else {
      auto it = ref.begin();
      std::advance(it, static_cast<long>(rng() % ref.size()));
      t.remove(it->first.first, it->first.second);
      ref.erase(it);
    }
    ASSERT_EQ(t.size(), ref.size());
    if (round % 50 == 0 || round > 3900) {
      for (std::uint32_t cta = 0; cta < next_cta; ++cta) {
        for (std::uint32_t w = 0; w < 8; ++w) {
          const WarpRecordView* v = t.find(cta, w);
          const auto r = ref.find({cta, w});
          if (r == ref.end()) {
            ASSERT_EQ(v, nullptr) << "CTA " << cta << " warp " << w;
          } else {
            ASSERT_NE(v, nullptr) << "CTA " << cta << " warp " << w;
            ASSERT_EQ(v->step_count, r->second);
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace numagpu::kernels
