// libFuzzer target: the PTX front end (ptx/module.hpp, ptx/kernel.hpp): any text is parsed, and every entry
// it defines flattened with its graph, or refused with a ParseError; nothing else may happen. Execution is
// not fuzzed (a kernel may loop forever, as on a GPU). scripts/fuzz.sh runs it from tests/data/ptx.
#include <cstdint>
#include <string>
#include <string_view>

#include "ptx/kernel.hpp"
#include "ptx/module.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto m =
        numagpu::ptx::parse_module(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.ptx");
    for (const auto& f : m->functions)
      if (f.is_entry && f.defined) {
        try {
          numagpu::ptx::Kernel k(m, f.name);
          (void)k.registers_per_thread();
        } catch (const numagpu::ptx::ParseError&) {
        }
      }
  } catch (const numagpu::ptx::ParseError&) {
  }
  return 0;
}
