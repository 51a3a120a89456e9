// `numagpu export`: a run's activity.json in the action-count formats of architecture-level energy tools, so
// that their own energy tables can be applied to what numagpu simulated (docs/power.md, "Exporting
// activity").
//
// The formats are in cli/accelergy_export.hpp and cli/mcpat_export.hpp. They follow the counters present in
// the file, not a list compiled in here: every counter of every instance (of the kinds a format covers) is
// exported, so an activity.json with more counters (new SM instruction classes, cache sector counts)
// exports them with no change here. Only the totals are exported; the per-window counts stay in
// activity.json.
#pragma once

#include <iosfwd>
#include <string>

namespace numagpu {

struct ExportOptions {
  std::string format;  // accelergy (action counts), accelergy-arch (architecture and classes) or mcpat
  std::string activity_file;
  int technology_nm = 22;  // process node of the Accelergy and McPAT descriptions
  std::string out_file;
  bool quiet = false;
};
int export_command(const ExportOptions& options, std::ostream& out, std::ostream& err);

}  // namespace numagpu
