// The statistics registry: one per simulation, owns every statistic and renders them as JSON or text.
//
// Components register their statistics at elaboration, keep the returned references and update them on the
// hot path; nothing in the update path touches the registry. At the end of the run the driver turns the
// registry into the stats.json document (make_document(), declared at the bottom via stats/document.hpp)
// and writes it with write_file_atomically() (stats/atomic_write.hpp). See docs/stats.md for the format.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include <nlohmann/json.hpp>

#include "stats/path.hpp"
#include "stats/stat_types.hpp"

namespace numagpu::stats {

class Registry {
 public:
  Registry() = default;
  // Components hold references into the registry, so it can be neither copied nor moved.
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Registration. `path` is the component's SystemC hierarchical name + "." + the statistic's name, e.g.
  // "system.socket0.l2.bank3.read_hits". `unit` says what is counted or measured ("requests", "bytes",
  // "cycles", "percent", "" for a pure number); `desc` is one sentence.
  //
  // Throws std::logic_error (std::invalid_argument for a malformed path, see check_path()) and leaves the
  // registry unchanged when:
  //  - the path is already registered;
  //  - the path is a group of other statistics, or one of its prefixes is a statistic (a name cannot be
  //  both);
  //  - the same holds for the generic paths (system.sm1 cannot be a statistic when system.sm0.x exists),
  //    which keeps the document unambiguous for readers that go by the description table;
  //  - a statistic with the same generic path was registered with a different kind, unit or description
  //    (all instances of a generic path share one description).
  // The returned reference stays valid, at the same address, for the registry's lifetime.
  Counter& counter(const std::string& path, const std::string& unit, const std::string& desc);
  Average& average(const std::string& path, const std::string& unit, const std::string& desc);
  // Linear buckets [k*bucket_width, (k+1)*bucket_width) for k < buckets, plus overflow. Also throws
  // std::invalid_argument if bucket_width or buckets is 0.
  Histogram& histogram(const std::string& path, const std::string& unit, const std::string& desc,
                       uint64_t bucket_width, std::size_t buckets);
  // One value per window of window_cycles; throws std::invalid_argument if window_cycles is 0.
  TimeSeries& series(const std::string& path, const std::string& unit, const std::string& desc,
                     uint64_t window_cycles, TimeSeries::Merge merge = TimeSeries::Merge::kMean);
  // Coarsens every series (TimeSeries::coarsen): the statistics window doubled (stats.max_windows).
  void coarsen_series();
  Scalar& scalar(const std::string& path, const std::string& unit, const std::string& desc);

  // Lookup by exact path; nullptr if there is no statistic of that kind at `path`.
  const Counter* find_counter(std::string_view path) const { return find_as<Counter>(path); }
  const Average* find_average(std::string_view path) const { return find_as<Average>(path); }
  const Histogram* find_histogram(std::string_view path) const { return find_as<Histogram>(path); }
  const TimeSeries* find_series(std::string_view path) const { return find_as<TimeSeries>(path); }
  const Scalar* find_scalar(std::string_view path) const { return find_as<Scalar>(path); }
  bool contains(std::string_view path) const { return entries_.count(std::string(path)) != 0; }
  // Number of registered statistics.
  std::size_t size() const { return entries_.size(); }

  // The simulated machines that register here, by name (a System claims its hierarchical name when it is
  // built). Their components' statistics are under their names anyway; what a machine registers under
  // names of its own (its run summary) is put under its name when more than one shares the registry
  // (docs/embedding.md, "Statistics"). Throws std::logic_error when the name is claimed already.
  void claim_owner(const std::string& name);
  std::size_t owners() const { return owners_.size(); }

  // All statistics as nested objects, one level per path component, leaves shaped by kind:
  //   counter   -> unsigned integer
  //   scalar    -> number (null if NaN or infinite, e.g. never set)
  //   average   -> {"count", "sum", "mean", "min", "max"}
  //   histogram -> {"bucket_width", "buckets": [counts...], "overflow", "count", "sum", "min", "max"}
  //   series    -> {"window_cycles", "values": [...]}
  // An average or histogram without samples has null mean/min/max; any non-finite double is null.
  nlohmann::json tree() const;

  // {"<generic path>": {"kind": "counter", "unit": "requests", "desc": "..."}}, one entry per generic path.
  nlohmann::json descriptions() const;

  // gem5-like stats.txt: one line per value, "<label>  <value>  # <desc> (<unit>)", in natural path order
  // (sm2 before sm10), columns aligned. Counters and scalars are labelled by their path; the values of the
  // other kinds by path + "::" + field: ::count ::sum ::mean ::min ::max for averages; ::count ::sum ::min
  // ::max, one ::<lo>-<hi> line per bucket (inclusive bounds) and ::overflow for histograms; one
  // ::<first>-<last> cycle-range line per window for series. Doubles are printed in shortest round-trip
  // form; a missing value (no samples, unset scalar) prints "nan".
  std::string text() const;

 private:
  using StatPtr = std::variant<Counter*, Average*, Histogram*, TimeSeries*, Scalar*>;

  struct Description {
    Kind kind;
    std::string unit;
    std::string desc;
  };

  struct Entry {
    StatPtr stat;
    const Description* description;  // node in descriptions_, stable for the map's lifetime
  };

  // Validates a registration (throws as documented above) and records the path; `make` is called once all
  // checks passed and returns the new statistic's address.
  template <typename T, typename Make>
  T& add(const std::string& path, Kind kind, const std::string& unit, const std::string& desc, Make make);

  template <typename T>
  const T* find_as(std::string_view path) const {
    const auto it = entries_.find(std::string(path));
    if (it == entries_.end()) return nullptr;
    T* const* p = std::get_if<T*>(&it->second.stat);
    return p ? *p : nullptr;
  }

  // Storage: std::deque never moves its elements on push_back, which is what keeps handed-out references
  // valid; it also packs statistics of one kind densely (a block of counters shares cache lines).
  std::deque<Counter> counters_;
  std::deque<Average> averages_;
  std::deque<Histogram> histograms_;
  std::deque<TimeSeries> series_;
  std::deque<Scalar> scalars_;

  // Hashed, not ordered: a system registers tens of thousands of statistics at start-up, and ordered maps
  // with the path order below cost most of the start-up time (measured: 0.9 G instructions of 1.0 G). The
  // order for people (PathLess) is applied once, when the text is written.
  std::unordered_map<std::string, Entry> entries_;             // exact path -> statistic
  std::unordered_map<std::string, Description> descriptions_;  // generic path -> description
  std::unordered_set<std::string> groups_;                     // every proper prefix of a registered path
  std::unordered_set<std::string> generic_groups_;             // the same for generic paths
  std::unordered_set<std::string> owners_;                     // claim_owner()
  // The parent of the last statistic registered, and its generic form (see add()).
  std::string last_parent_;
  std::string last_generic_parent_;
};

}  // namespace numagpu::stats

// make_document(), validate_document() and kSchemaVersion belong with the registry for every user.
#include "stats/document.hpp"
