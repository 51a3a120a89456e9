// libFuzzer target: the configuration loader, through the system schema and to_system_spec. fuzz/harness.hpp
// says what is checked; scripts/fuzz.sh runs it.
#include <cstdio>
#include <cstdlib>

#include "harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (const auto problem = numagpu::fuzz::config_input(data, size, NUMAGPU_SOURCE_DIR)) {
    std::fprintf(stderr, "numagpu fuzz: %s\n", problem->c_str());
    std::abort();  // a finding, like a crash
  }
  return 0;
}
