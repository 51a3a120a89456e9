#include "cli/export_common.hpp"

#include <sstream>

#include "common/printable.hpp"

#ifndef NUMAGPU_VERSION
#define NUMAGPU_VERSION "unknown"
#endif

namespace numagpu {

std::string export_provenance(const power::Activity& a, std::string_view source) {
  const std::string file = printable(source);
  std::ostringstream os;
  os << "numagpu " << NUMAGPU_VERSION << " export of " << file << " (machine hash " << a.machine_hash << ", "
     << a.duration_cycles << " cycles at " << a.clock_mhz << " MHz)";
  return os.str();
}

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

std::string xml_comment_text(std::string text) {
  for (std::size_t p; (p = text.find("--")) != std::string::npos;)
    text.replace(p, 2, "- -");
  return text;
}

}  // namespace numagpu
