// What the exporters of activity.json (cli/export_activity.hpp) share: the provenance line each file starts
// with, and the text rules of XML.
#pragma once

#include <string>
#include <string_view>

#include "power/activity.hpp"

namespace numagpu {

// "numagpu VERSION export of FILE (machine hash H, N cycles at F MHz)", on one line and printable (it goes
// into a YAML or XML comment, which allows no control byte anywhere).
std::string export_provenance(const power::Activity& activity, std::string_view source);

// XML 1.0 text: printable (control and stray bytes as the text \xNN, which XML cannot hold even as a
// character reference), markup escaped.
std::string xml_escaped(std::string_view raw);

// Text for an XML comment, which may not contain "--".
std::string xml_comment_text(std::string text);

}  // namespace numagpu
