// Arithmetic of the individual statistic kinds. Every expectation below is worked out by hand from the
// samples in the test.
#include <cmath>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "stats/stat_types.hpp"

namespace numagpu::stats {
namespace {

TEST(Counter, StartsAtZeroAndAdds) {
  Counter c;
  EXPECT_EQ(c.value(), 0u);
  c.add();
  EXPECT_EQ(c.value(), 1u);
  c.add(41);
  EXPECT_EQ(c.value(), 42u);
  c.add(0);
  EXPECT_EQ(c.value(), 42u);
}

TEST(Average, CountSumMeanMinMax) {
  Average a;
  a.sample(2.0);
  a.sample(4.0);
  a.sample(9.0);
  EXPECT_EQ(a.count(), 3u);
  EXPECT_DOUBLE_EQ(a.sum(), 15.0);
  EXPECT_DOUBLE_EQ(a.mean(), 5.0);
  EXPECT_DOUBLE_EQ(a.min(), 2.0);
  EXPECT_DOUBLE_EQ(a.max(), 9.0);
}

TEST(Average, NegativeSamples) {
  Average a;
  a.sample(-1.5);
  a.sample(0.5);
  EXPECT_DOUBLE_EQ(a.sum(), -1.0);
  EXPECT_DOUBLE_EQ(a.mean(), -0.5);
  EXPECT_DOUBLE_EQ(a.min(), -1.5);
  EXPECT_DOUBLE_EQ(a.max(), 0.5);
}

TEST(Average, EmptyHasNoMeanMinMax) {
  Average a;
  EXPECT_EQ(a.count(), 0u);
  EXPECT_EQ(a.sum(), 0.0);
  EXPECT_TRUE(std::isnan(a.mean()));
  EXPECT_TRUE(std::isnan(a.min()));
  EXPECT_TRUE(std::isnan(a.max()));
}

TEST(Histogram, LinearBucketsAndOverflow) {
  Histogram h(10, 3);  // [0,10) [10,20) [20,30), overflow >= 30
  for (const uint64_t v : {0, 9, 10, 25, 1000})
    h.sample(v);
  EXPECT_EQ(h.bucket_width(), 10u);
  EXPECT_EQ(h.bucket_count(), 3u);
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{2, 1, 1}));
  EXPECT_EQ(h.overflow(), 1u);
  EXPECT_EQ(h.count(), 5u);
  EXPECT_EQ(h.sum(), 1044u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_EQ(h.max(), 1000u);
  EXPECT_DOUBLE_EQ(h.mean(), 208.8);
}

TEST(Histogram, BucketBoundaries) {
  Histogram h(10, 3);
  h.sample(29);  // last value of the last bucket
  h.sample(30);  // first value past it
  h.sample(19);
  h.sample(20);
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{0, 1, 2}));
  EXPECT_EQ(h.overflow(), 1u);
  EXPECT_EQ(h.min(), 19u);
  EXPECT_EQ(h.max(), 30u);
}

TEST(Histogram, WidthOneSingleBucket) {
  Histogram h(1, 1);
  h.sample(0);
  h.sample(1);
  h.sample(7);
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{1}));
  EXPECT_EQ(h.overflow(), 2u);
  EXPECT_EQ(h.sum(), 8u);
}

TEST(Histogram, Empty) {
  Histogram h(4, 2);
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.sum(), 0u);
  EXPECT_EQ(h.buckets(), (std::vector<uint64_t>{0, 0}));
  EXPECT_TRUE(std::isnan(h.mean()));
}

TEST(Histogram, RejectsZeroWidthOrBuckets) {
  EXPECT_THROW(Histogram(0, 4), std::invalid_argument);
  EXPECT_THROW(Histogram(4, 0), std::invalid_argument);
}

TEST(TimeSeries, RecordsValuesInOrder) {
  TimeSeries s(1000);
  EXPECT_EQ(s.window_cycles(), 1000u);
  EXPECT_TRUE(s.values().empty());
  s.push(1.0);
  s.push(2.5);
  s.push(0.0);
  EXPECT_EQ(s.values(), (std::vector<double>{1.0, 2.5, 0.0}));
}

// Coarsening merges windows 2k and 2k+1 into window k of twice the length. A mean of two equal-length
// windows is the share over the doubled window: (10 + 30) / 2 = 20, (50 + 0) / 2 = 25; the fifth window has
// no partner and is dropped (the sampler only coarsens at an even count).
TEST(TimeSeries, CoarsenAveragesPairsOfRates) {
  TimeSeries s(1000);
  EXPECT_EQ(s.merge(), TimeSeries::Merge::kMean);
  for (double v : {10.0, 30.0, 50.0, 0.0, 99.0})
    s.push(v);
  s.coarsen();
  EXPECT_EQ(s.window_cycles(), 2000u);
  EXPECT_EQ(s.values(), (std::vector<double>{20.0, 25.0}));
  s.push(7.0);  // the next window is 2000 cycles long
  s.coarsen();
  EXPECT_EQ(s.window_cycles(), 4000u);
  EXPECT_EQ(s.values(), (std::vector<double>{22.5}));  // (20 + 25) / 2; 7 had no partner
}

// A state at the window's end (lanes, ways): the merged window ends where the later one did.
TEST(TimeSeries, CoarsenKeepsTheLaterStateOfEachPair) {
  TimeSeries s(500, TimeSeries::Merge::kLast);
  for (double v : {8.0, 9.0, 10.0, 7.0})
    s.push(v);
  s.coarsen();
  EXPECT_EQ(s.window_cycles(), 1000u);
  EXPECT_EQ(s.values(), (std::vector<double>{9.0, 7.0}));
}

TEST(TimeSeries, RejectsZeroWindow) {
  EXPECT_THROW(TimeSeries(0), std::invalid_argument);
}

TEST(Scalar, UnsetIsNaNThenHoldsLastValue) {
  Scalar s;
  EXPECT_TRUE(std::isnan(s.value()));
  s.set(1.25);
  EXPECT_EQ(s.value(), 1.25);
  s.set(0.0);
  EXPECT_EQ(s.value(), 0.0);
}

TEST(Kind, Names) {
  EXPECT_STREQ(kind_name(Kind::kCounter), "counter");
  EXPECT_STREQ(kind_name(Kind::kAverage), "average");
  EXPECT_STREQ(kind_name(Kind::kHistogram), "histogram");
  EXPECT_STREQ(kind_name(Kind::kSeries), "series");
  EXPECT_STREQ(kind_name(Kind::kScalar), "scalar");
}

}  // namespace
}  // namespace numagpu::stats
