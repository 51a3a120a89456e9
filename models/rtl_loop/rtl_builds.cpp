// The table of in-loop RTL builds, from the lists models/CMakeLists.txt generates out of its build table:
// rtl_loop_headers.inc includes every build's Verilated class, and rtl_loop_builds.inc has one line per block
// (NUMAGPU_RTL_LOOP_BLOCK: its port traits and the RTL parameters of its rows) and one per build
// (NUMAGPU_RTL_LOOP_BUILD: traits, Verilated class, the parameter values). Nothing here names a block: a new
// one only needs its traits (rtl_ports.hpp) and its rows in the table.
#include "rtl_loop/rtl_builds.hpp"

#include <sstream>
#include <type_traits>

#include "rtl_loop/rtl_policy.hpp"
#include "rtl_loop/rtl_ports.hpp"

#include "rtl_loop_headers.inc"

// Verilator's runtime expects this symbol when a model calls $time-dependent code; the models here are
// cycle-driven and never read it.
double sc_time_stamp() {
  return 0;
}

namespace numagpu {
namespace {

constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

template <class Ports>
struct BuildEntry {
  typename Ports::Build build;
  std::unique_ptr<policy::PolicyImpl<typename Ports::Block>> (*make)(const typename Ports::Build&, RtlWaves*,
                                                                     const std::string&);
};

template <class Ports, class Top>
std::unique_ptr<policy::PolicyImpl<typename Ports::Block>> make_build(const typename Ports::Build& build,
                                                                      RtlWaves* waves,
                                                                      const std::string& instance) {
  return std::make_unique<RtlPolicy<Ports, Top>>(build, waves, instance);
}

// The rows of the table that belong to `Ports`' block (the others are discarded at compile time).
template <class Ports>
std::vector<BuildEntry<Ports>> table_of() {
  std::vector<BuildEntry<Ports>> table;
  // The table's columns must be the traits' parameters, in order: build() takes the values positionally.
#define NUMAGPU_RTL_LOOP_BLOCK(ports, params)                                                                \
  static_assert(!std::is_same_v<Ports, rtl_ports::ports> || same_text(rtl_ports::ports::kRtlParams, params), \
                "the build table's parameters of " #ports " differ from its kRtlParams");
#define NUMAGPU_RTL_LOOP_BUILD(ports, top, ...)                                             \
  if constexpr (std::is_same_v<Ports, rtl_ports::ports>) {                                  \
    table.push_back(BuildEntry<Ports>{Ports::build(__VA_ARGS__), &make_build<Ports, top>}); \
  }
#include "rtl_loop_builds.inc"
#undef NUMAGPU_RTL_LOOP_BUILD
#undef NUMAGPU_RTL_LOOP_BLOCK
  return table;
}

template <class Ports>
const std::vector<BuildEntry<Ports>>& builds_of() {
  static const std::vector<BuildEntry<Ports>> table = table_of<Ports>();
  return table;
}

}  // namespace

template <class Block>
std::vector<typename Block::Params> rtl_builds() {
  using Ports = typename rtl_ports::PortsOf<Block>::type;
  std::vector<typename Block::Params> out;
  for (const BuildEntry<Ports>& b : builds_of<Ports>())
    out.push_back(Ports::params(b.build));
  return out;
}

template <class Block>
std::unique_ptr<policy::PolicyImpl<Block>> make_rtl(const typename Block::Params& params, RtlWaves* waves,
                                                    const std::string& instance) {
  using Ports = typename rtl_ports::PortsOf<Block>::type;
  for (const BuildEntry<Ports>& b : builds_of<Ports>()) {
    if (Ports::same(Ports::params(b.build), params)) return b.make(b.build, waves, instance);
  }
  return nullptr;
}

template <class Block>
std::string describe_rtl_builds() {
  using Ports = typename rtl_ports::PortsOf<Block>::type;
  std::ostringstream os;
  const char* sep = "";
  for (const BuildEntry<Ports>& b : builds_of<Ports>()) {
    os << sep;
    Ports::describe(os, Ports::params(b.build));
    sep = "; ";
  }
  return os.str();
}

// The entry points, for every block of the table.
#define NUMAGPU_RTL_LOOP_BUILD(...)
#define NUMAGPU_RTL_LOOP_BLOCK(ports, params)                                                              \
  template std::vector<rtl_ports::ports::Block::Params> rtl_builds<rtl_ports::ports::Block>();             \
  template std::unique_ptr<policy::PolicyImpl<rtl_ports::ports::Block>> make_rtl<rtl_ports::ports::Block>( \
      const rtl_ports::ports::Block::Params&, RtlWaves*, const std::string&);                              \
  template std::string describe_rtl_builds<rtl_ports::ports::Block>();
#include "rtl_loop_builds.inc"
#undef NUMAGPU_RTL_LOOP_BLOCK
#undef NUMAGPU_RTL_LOOP_BUILD

}  // namespace numagpu
