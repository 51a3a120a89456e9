#include "cli/export_activity.hpp"

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <ostream>

#include "cli/accelergy_export.hpp"
#include "cli/mcpat_export.hpp"
#include "cli/power_outputs.hpp"
#include "cli/run.hpp"
#include "common/printable.hpp"
#include "stats/atomic_write.hpp"

namespace numagpu {

int export_command(const ExportOptions& o, std::ostream& out, std::ostream& err) {
  auto bad = [&err](const std::string& what) {
    err << "numagpu: error: " << what << "\n";
    return kExitBadInput;
  };
  if (o.format != "accelergy" && o.format != "accelergy-arch" && o.format != "mcpat")
    return bad("export: --format " + o.format + ": expected accelergy, accelergy-arch or mcpat");
  if (o.technology_nm <= 0 ||
      (o.format == "mcpat" &&
       std::find(std::begin(kMcpatNodes), std::end(kMcpatNodes), o.technology_nm) == std::end(kMcpatNodes)))
    return bad("export: --technology-nm " + std::to_string(o.technology_nm) +
               (o.format == "mcpat" ? ": McPAT models 22, 32, 45, 65, 90 or 180 nm"
                                    : ": expected a positive number"));
  power::Activity activity;
  if (auto error = read_activity_file(o.activity_file, activity)) return bad(*error);
  std::error_code ec;
  if (std::filesystem::equivalent(o.out_file, o.activity_file, ec))
    return bad(o.out_file +
               ": is the --activity file itself; the export would overwrite it (give another -o)");
  std::string text;
  try {
    if (o.format == "accelergy")
      text = accelergy::action_counts(activity, o.activity_file);
    else if (o.format == "accelergy-arch")
      text = accelergy::architecture(activity, o.activity_file, o.technology_nm);
    else
      text = mcpat_xml(activity, o.activity_file, o.technology_nm);
    write_file_atomically(o.out_file, text);
  } catch (const accelergy::NameError& e) {
    return bad(printable(o.activity_file + ": " + e.what()));
  } catch (const std::exception& e) {  // an unwritable path; a name that is not UTF-8
    return bad(e.what());
  }
  if (!o.quiet) out << "numagpu: wrote " << o.out_file << "\n";
  return kExitOk;
}

}  // namespace numagpu
