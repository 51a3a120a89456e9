// The five kinds of statistic a component can own.
//
// These classes are deliberately tiny and header-only: components call add()/sample() on the simulation's
// hot path, so the update functions must inline to a handful of instructions. They know nothing about names,
// units or JSON; the Registry (stats/registry.hpp) owns them and does all the reporting. A component header
// that only stores references to its statistics can include this header alone and stay free of nlohmann/json.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace numagpu::stats {

// The kind of a statistic, as spelled in the "kind" field of the descriptions table.
enum class Kind { kCounter, kAverage, kHistogram, kSeries, kScalar };

// "counter", "average", "histogram", "series" or "scalar".
const char* kind_name(Kind kind);

// A monotonically increasing event count (requests, bytes, cycles...). Reported as an integer.
class Counter {
 public:
  void add(uint64_t n = 1) { value_ += n; }
  uint64_t value() const { return value_; }

 private:
  uint64_t value_ = 0;
};

// Running count/sum/min/max of real-valued samples (e.g. occupancy sampled each cycle).
// With no samples, mean(), min() and max() are NaN (reported as null): there is no meaningful value, and a
// 0 would be indistinguishable from a real measurement.
class Average {
 public:
  void sample(double v) {
    ++count_;
    sum_ += v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }
  uint64_t count() const { return count_; }
  double sum() const { return sum_; }
  double mean() const { return count_ ? sum_ / static_cast<double>(count_) : kNaN; }
  double min() const { return count_ ? min_ : kNaN; }
  double max() const { return count_ ? max_ : kNaN; }

 private:
  static constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  uint64_t count_ = 0;
  double sum_ = 0.0;
  double min_ = std::numeric_limits<double>::infinity();
  double max_ = -std::numeric_limits<double>::infinity();
};

// Distribution of integer samples (typically latencies in cycles) over linear buckets: bucket k counts
// samples in [k*bucket_width, (k+1)*bucket_width) for k < bucket_count(); larger samples go to overflow().
// Linear buckets keep sample() to one division and make the report trivially readable; pick the width and
// count so the interesting range fits, the overflow bucket plus max() still tell you about the tail.
class Histogram {
 public:
  // Throws std::invalid_argument if bucket_width or buckets is 0.
  Histogram(uint64_t bucket_width, std::size_t buckets) : width_(bucket_width) {
    if (bucket_width == 0) throw std::invalid_argument("histogram bucket width must be positive");
    if (buckets == 0) throw std::invalid_argument("histogram needs at least one bucket");
    counts_.assign(buckets, 0);
  }

  void sample(uint64_t v) {
    const uint64_t k = v / width_;
    if (k < counts_.size()) {
      ++counts_[k];
    } else {
      ++overflow_;
    }
    ++count_;
    sum_ += v;
    min_ = std::min(min_, v);
    max_ = std::max(max_, v);
  }

  uint64_t bucket_width() const { return width_; }
  std::size_t bucket_count() const { return counts_.size(); }
  const std::vector<uint64_t>& buckets() const { return counts_; }
  uint64_t overflow() const { return overflow_; }
  uint64_t count() const { return count_; }
  // Wraps modulo 2^64 like any uint64_t sum; 10^10 samples of 10^9 cycles would be needed to get there.
  uint64_t sum() const { return sum_; }
  // min() and max() are meaningful only when count() > 0 (they return 0 otherwise; reported as null).
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  // NaN with no samples.
  double mean() const {
    return count_ ? static_cast<double>(sum_) / static_cast<double>(count_)
                  : std::numeric_limits<double>::quiet_NaN();
  }

 private:
  uint64_t width_;
  std::vector<uint64_t> counts_;
  uint64_t overflow_ = 0;
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = std::numeric_limits<uint64_t>::max();
  uint64_t max_ = 0;
};

// One value per sample window of window_cycles() simulated cycles, in time order: values()[i] covers cycles
// [i*window_cycles, (i+1)*window_cycles). The owning component decides what the value is (bytes moved in the
// window, average occupancy...) and pushes it when the window closes; the series only records.
//
// A long run keeps its series bounded by coarsening them (stats.max_windows, common/window_sampler.hpp):
// coarsen() merges each pair of adjacent windows into one of twice the length, as the series' Merge rule
// says, so that values() still covers [i*window_cycles, (i+1)*window_cycles).
class TimeSeries {
 public:
  enum class Merge {
    kMean,  // a rate or share over the window (utilization): the mean of two equal-length windows
    kLast,  // a state at the window's end (active lanes, ways): the later window's value
  };

  // Throws std::invalid_argument if window_cycles is 0.
  explicit TimeSeries(uint64_t window_cycles, Merge merge = Merge::kMean)
      : window_(window_cycles), merge_(merge) {
    if (window_cycles == 0) throw std::invalid_argument("time series window must be positive");
  }

  void push(double value) { values_.push_back(value); }
  uint64_t window_cycles() const { return window_; }
  const std::vector<double>& values() const { return values_; }
  Merge merge() const { return merge_; }

  // Doubles the window: windows 2k and 2k+1 become window k. A trailing odd window has no partner; it is
  // dropped, since it would cover only half of a new window (the sampler coarsens at an even count).
  void coarsen() {
    const std::size_t n = values_.size() / 2;
    for (std::size_t k = 0; k < n; ++k) {
      const double a = values_[2 * k], b = values_[2 * k + 1];
      values_[k] = merge_ == Merge::kMean ? (a + b) / 2 : b;
    }
    values_.resize(n);
    window_ *= 2;
  }

 private:
  uint64_t window_;
  Merge merge_;
  std::vector<double> values_;
};

// A derived figure computed once at the end of the run (IPC, utilization, hit rate).
// Starts as NaN ("not computed", reported as null) so a figure nobody set cannot pass for a real 0.
class Scalar {
 public:
  void set(double v) { value_ = v; }
  double value() const { return value_; }

 private:
  double value_ = std::numeric_limits<double>::quiet_NaN();
};

}  // namespace numagpu::stats
