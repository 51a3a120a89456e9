// Statistic path helpers shared by the Registry and the document validator.
//
// A path is a dotted hierarchical name, "system.socket0.l2.bank3.read_hits": the owning component's SystemC
// hierarchical name, a dot, and the statistic's own name. Its "generic path" folds instance indices away so
// that one description covers every instance: each component's trailing decimal digits become a single '*'
// ("system.socket*.l*.bank*.read_hits"). Note the fold is purely syntactic: "l2" becomes "l*" just like
// "sm2" becomes "sm*".
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace numagpu::stats {

// Throws std::invalid_argument (a std::logic_error) unless `path` is a valid statistic path: non-empty, no
// empty component (no leading, trailing or doubled dot), no '*' (reserved for generic paths), no whitespace
// or control characters (they would break the stats.txt columns and shell tooling).
void check_path(std::string_view path);

// The components of a path between the dots. Does not validate.
std::vector<std::string_view> split_path(std::string_view path);

// "sm12" -> "sm*", "bank_3" -> "bank_*", "7" -> "*", "read_hits" -> "read_hits".
std::string generic_component(std::string_view component);

// generic_component() applied to every component of `path`.
std::string generic_path(std::string_view path);

// Order for listing statistics to humans: component by component, and inside a component digit runs compare
// by numeric value, so sm2 sorts before sm10 and every group's members stay together. A strict total order
// (ties in numeric value such as "sm01"/"sm1" are broken by plain string order).
struct PathLess {
  using is_transparent = void;  // lets maps keyed by std::string be searched with a string_view
  bool operator()(std::string_view a, std::string_view b) const;
};

// The permutation that lists `paths` in PathLess order: out[k] is the index of the k-th path (equal paths in
// any order). The same order as sorting with PathLess, for a fraction of the cost: each distinct component
// is ranked once (a run has ~24,000 statistics but a few hundred distinct components), and the paths are
// then sorted by their rank sequences. Sorting the statistics with PathLess itself, which walks both
// strings at every comparison, was 7 % of a default run's instructions (docs/performance.md).
std::vector<std::size_t> path_order(const std::vector<std::string_view>& paths);

}  // namespace numagpu::stats
