// `numagpu bench-sm`: runs the Volta microbenchmark suite (cli/bench_sm_suite.hpp) on a configuration and
// compares each result with its published value (cli/bench_sm_published.hpp): DIR/bench_sm.csv, bench_sm.md
// (benchmark, unit, published value, source, model value, error) and bench_sm.png. docs/microbenchmarks.md.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

namespace numagpu {

struct BenchSmOptions {
  std::string config;             // -c: the system configuration (required)
  std::vector<std::string> sets;  // --set KEY=VALUE over it
  std::string out_dir;            // -o (required)
  std::string only;               // --only REGEX: the benchmarks whose id it finds; empty: all
  std::string published;          // --published FILE; empty: the built-in table
  bool quiet = false;
};

int bench_sm_command(const BenchSmOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
