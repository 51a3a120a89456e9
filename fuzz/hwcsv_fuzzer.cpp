// libFuzzer target: the hardware tables of `numagpu correlate` (cli/hw_csv.hpp), the counter table and the
// measured-power table. fuzz/harness.hpp says what is checked; scripts/fuzz.sh runs it.
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (const auto problem = numagpu::fuzz::hw_csv_input(data, size)) {
    std::fprintf(stderr, "numagpu fuzz: %s\n", problem->c_str());
    std::abort();  // a finding, like a crash
  }
  return 0;
}
