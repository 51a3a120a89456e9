// `numagpu export`: a run's activity.json in the action-count formats of architecture-level energy tools, so
// that their own energy tables can be applied to what numagpu simulated (docs/power.md, "Exporting
// activity").
//
// Both exporters are driven by the counters present in the file, not by a list compiled in here: every
// counter of every instance (of the kinds a format covers) is exported, so an activity.json with more
// counters (new SM instruction classes, cache sector counts) exports them with no change here. Only the
// totals are exported; the per-window counts stay in activity.json.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>

#include "power/activity.hpp"

namespace numagpu {

// Accelergy's action counts (YAML): one `local` entry per instance, named by its hierarchical name, with one
// action per counter (the counter's name and total).
std::string accelergy_action_counts(const power::Activity& activity, std::string_view source);

// McPAT-style XML of the memory hierarchy: every L1 as a core's dcache, L2 banks, DRAM as memory
// controllers, crossbars as NoCs; McPAT's stat names where a counter has one (kMcpatStats), every other
// counter as `numagpu.<counter>`.
std::string mcpat_xml(const power::Activity& activity, std::string_view source);

// One row of the McPAT stat table: the counter of `kind` that McPAT names `stat`.
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

struct ExportOptions {
  std::string format;  // accelergy or mcpat
  std::string activity_file;
  std::string out_file;
  bool quiet = false;
};
int export_command(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
