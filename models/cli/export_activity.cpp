#include "cli/export_activity.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <vector>

#include "cli/power_outputs.hpp"
#include "cli/run.hpp"
#include "common/printable.hpp"
#include "config/emit_yaml.hpp"
#include "stats/atomic_write.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

namespace {

// Accelergy reads action-count files of this version (its 0.3 and 0.4 releases both do).
constexpr double kAccelergyVersion = 0.3;

std::string provenance(const power::Activity& a, std::string_view source) {
  // It goes into a comment: on one line, and with no control byte or stray byte (neither YAML nor XML allows
  // one anywhere), each shown as numagpu's error messages show it (\xNN).
  const std::string file = printable(source);
  std::ostringstream os;
  os << "numagpu " << NUMAGPU_VERSION << " export of " << file << " (machine hash " << a.machine_hash << ", "
     << a.duration_cycles << " cycles at " << a.clock_mhz << " MHz)";
  return os.str();
}

// XML 1.0 text is UTF-8 without control bytes but tab, newline and return, and cannot hold one even as a
// character reference: a name is first made printable (control and stray bytes as the text \xNN, line
// breaks and tabs as \n \r \t, which an attribute would turn into spaces), then its markup is escaped.
std::string xml_escaped(std::string_view raw) {
  std::string out;
  for (char c : printable(raw)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

// A comment may not contain "--" (its text is already printable: provenance()).
std::string xml_comment_text(std::string text) {
  for (std::size_t p; (p = text.find("--")) != std::string::npos;)
    text.replace(p, 2, "- -");
  return text;
}

const char* mcpat_stat_of(const std::string& kind, const std::string& counter) {
  for (const McpatStat& s : kMcpatStats) {
    if (kind == s.kind && counter == s.counter) return s.stat;
  }
  return nullptr;
}

void write_stats(std::ostream& os, const power::Instance& inst, const std::string& indent) {
  for (std::size_t c = 0; c < inst.counters.size(); ++c) {
    const char* stat = mcpat_stat_of(inst.kind, inst.counters[c]);
    const std::string name = stat ? std::string(stat) : "numagpu." + inst.counters[c];
    os << indent << "<stat name=\"" << xml_escaped(name) << "\" value=\"" << inst.totals[c] << "\"/>\n";
  }
  // McPAT's memory controller also wants the sum of its reads and writes.
  if (inst.kind == "dram") {
    os << indent << "<stat name=\"memory_accesses\" value=\"" << inst.total("reads") + inst.total("writes")
       << "\"/>\n";
  }
}

}  // namespace

std::string accelergy_action_counts(const power::Activity& activity, std::string_view source) {
  nlohmann::ordered_json local = nlohmann::ordered_json::array();
  for (const power::Instance& inst : activity.instances) {
    nlohmann::ordered_json actions = nlohmann::ordered_json::array();
    for (std::size_t c = 0; c < inst.counters.size(); ++c)
      actions.push_back(nlohmann::ordered_json{{"name", inst.counters[c]}, {"counts", inst.totals[c]}});
    local.push_back(nlohmann::ordered_json{{"name", inst.name}, {"action_counts", actions}});
  }
  const nlohmann::ordered_json document = {
      {"action_counts", nlohmann::ordered_json{{"version", kAccelergyVersion}, {"local", local}}}};
  return "# Accelergy action counts: " + provenance(activity, source) +
         ".\n# One entry per component instance, one action per activity counter (docs/power.md).\n" +
         config::emit_yaml(document);
}

std::string mcpat_xml(const power::Activity& activity, std::string_view source) {
  std::map<std::string, std::vector<const power::Instance*>> by_kind;
  for (const power::Instance& inst : activity.instances)
    by_kind[inst.kind].push_back(&inst);
  auto count = [&by_kind](const char* kind) { return by_kind.count(kind) ? by_kind[kind].size() : 0; };

  std::ostringstream os;
  os << "<?xml version=\"1.0\" ?>\n"
     << "<!-- McPAT-style memory hierarchy: " << xml_comment_text(provenance(activity, source)) << ". -->\n"
     << "<!-- Each component's name is the numagpu instance it comes from (docs/power.md). -->\n"
     << "<component id=\"root\" name=\"root\">\n"
     << "  <component id=\"system\" name=\"system\">\n"
     << "    <param name=\"number_of_cores\" value=\"" << count("l1") << "\"/>\n"
     << "    <param name=\"number_of_L2s\" value=\"" << count("l2") << "\"/>\n"
     << "    <param name=\"number_of_NoCs\" value=\"" << count("crossbar") << "\"/>\n"
     << "    <param name=\"number_mcs\" value=\"" << count("dram") << "\"/>\n"
     << "    <param name=\"target_core_clockrate\" value=\"" << activity.clock_mhz << "\"/>\n"
     << "    <stat name=\"total_cycles\" value=\"" << activity.duration_cycles << "\"/>\n";
  // McPAT's own component names, numbered per kind in the order of activity.json.
  const std::vector<const power::Instance*> none;
  const auto& l1s = by_kind.count("l1") ? by_kind["l1"] : none;
  for (std::size_t i = 0; i < l1s.size(); ++i) {
    const std::string core = "system.core" + std::to_string(i);
    os << "    <component id=\"" << core << "\" name=\"core" << i << "\">\n"
       << "      <component id=\"" << core << ".dcache\" name=\"" << xml_escaped(l1s[i]->name) << "\">\n";
    write_stats(os, *l1s[i], "        ");
    os << "      </component>\n    </component>\n";
  }
  for (const auto& [kind, id] : {std::pair<const char*, const char*>{"l2", "system.L2"},
                                 {"dram", "system.mc"},
                                 {"crossbar", "system.NoC"}}) {
    const auto& list = by_kind.count(kind) ? by_kind[kind] : none;
    for (std::size_t i = 0; i < list.size(); ++i) {
      os << "    <component id=\"" << id << i << "\" name=\"" << xml_escaped(list[i]->name) << "\">\n";
      write_stats(os, *list[i], "      ");
      os << "    </component>\n";
    }
  }
  os << "  </component>\n</component>\n";
  return os.str();
}

int export_command(const ExportOptions& o, std::ostream& out, std::ostream& err) {
  auto bad = [&err](const std::string& what) {
    err << "numagpu: error: " << what << "\n";
    return kExitBadInput;
  };
  if (o.format != "accelergy" && o.format != "mcpat")
    return bad("export: --format " + o.format + ": expected accelergy or mcpat");
  power::Activity activity;
  if (auto error = read_activity_file(o.activity_file, activity)) return bad(*error);
  std::error_code ec;
  if (std::filesystem::equivalent(o.out_file, o.activity_file, ec))
    return bad(o.out_file +
               ": is the --activity file itself; the export would overwrite it (give another -o)");
  std::string text;
  try {
    text = o.format == "accelergy" ? accelergy_action_counts(activity, o.activity_file)
                                   : mcpat_xml(activity, o.activity_file);
    write_file_atomically(o.out_file, text);
  } catch (const std::exception& e) {  // an unwritable path; a name that is not UTF-8
    return bad(e.what());
  }
  if (!o.quiet) out << "numagpu: wrote " << o.out_file << "\n";
  return kExitOk;
}

}  // namespace numagpu
