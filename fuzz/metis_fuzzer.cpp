// libFuzzer target: the METIS graph reader (kernels/metis_graph.hpp). fuzz/harness.hpp says what is checked
// (metis_input); scripts/fuzz.sh runs it.
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (const auto problem = numagpu::fuzz::metis_input(data, size)) {
    std::fprintf(stderr, "numagpu fuzz: %s\n", problem->c_str());
    std::abort();  // a finding, like a crash
  }
  return 0;
}
