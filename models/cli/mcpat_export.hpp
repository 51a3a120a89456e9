// A complete McPAT input (XML) for the simulated GPU, configured the way GPUWattch and AccelWattch
// configure McPAT for a GPU: one McPAT core per SM (homogeneous, the SM's L1 as the core's dcache), the L2
// banks as homogeneous L2s, each socket's crossbar as a NoC, one memory controller component with
// `number_mcs`, and the components McPAT's parser requires at their positions (docs/power.md, "McPAT").
//
// McPAT's parser (XML_Parse.cc) reads the system's child components by position, not by name: the core(s),
// then L1 directories, L2 directories, L2s, L3s, NoCs (one each when homogeneous), then mc, niu, pcie and
// flashc, and stops with "some value(s) of number_of_cores/... is/are not correct!" when a position holds
// another component. kMcpatOrder is that order; mcpat_xml writes it.
#pragma once

#include <string>
#include <string_view>

#include "power/activity.hpp"

namespace numagpu {

// The system's children in McPAT's parsing order: their id (`system.<id>`) and the text McPAT looks for in
// the id or name attribute to accept the component at that position.
struct McpatSlot {
  const char* id;
  const char* name;
};
inline constexpr McpatSlot kMcpatOrder[] = {{"core0", "core0"},
                                            {"L1Directory0", "L1Directory0"},
                                            {"L2Directory0", "L2Directory0"},
                                            {"L20", "L20"},
                                            {"L30", "L30"},
                                            {"NoC0", "noc0"},
                                            {"mc", "mc"},
                                            {"niu", "niu"},
                                            {"pcie", "pcie"},
                                            {"flashc", "flashc"}};

// The process nodes McPAT has technology models for.
inline constexpr int kMcpatNodes[] = {22, 32, 45, 65, 90, 180};

// One row of the stat table: counter `counter` of kind `kind` is McPAT's stat `stat`.
struct McpatStat {
  const char* kind;
  const char* counter;
  const char* stat;
};
inline constexpr McpatStat kMcpatStats[] = {
    {"l1", "reads", "read_accesses"},           {"l1", "writes", "write_accesses"},
    {"l1", "read_misses", "read_misses"},       {"l1", "bank_conflicts", "conflicts"},
    {"l2", "reads", "read_accesses"},           {"l2", "writes", "write_accesses"},
    {"l2", "read_misses", "read_misses"},       {"l2", "bank_conflicts", "conflicts"},
    {"dram", "reads", "memory_reads"},          {"dram", "writes", "memory_writes"},
    {"crossbar", "requests", "total_accesses"},
};

// The McPAT XML. Homogeneous components carry the average over their instances (McPAT multiplies a
// homogeneous component by its count); the memory controller carries the totals over all of them.
std::string mcpat_xml(const power::Activity& activity, std::string_view source, int technology_nm);

}  // namespace numagpu
