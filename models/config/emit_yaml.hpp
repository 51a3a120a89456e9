// YAML text for a JSON tree, for files the program writes for itself to load again (numagpu workload dump).
// Every string is double-quoted and everything outside printable ASCII is escaped (\xHH, \uHHHH,
// \UHHHHHHHH, \" and \\), so that any string loads back unchanged and no value is read as another type
// ("null", "~", "123", "&x", "- a", "k: v" stay strings), and the text itself is plain ASCII.
//
// Not yaml-cpp's YAML::Emitter: version 0.7 (Debian 12) replaces Unicode noncharacters (U+FDD0..U+FDEF and
// U+xxFFFE/U+xxFFFF of every plane) with U+FFFD on output, so a name holding one would come back changed.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace numagpu::config {

// Block-style YAML ending in a newline; objects keep their order (ordered_json). Throws std::runtime_error
// for a string that is not valid UTF-8 (YAML text is Unicode: such a string cannot be written as it is).
std::string emit_yaml(const nlohmann::ordered_json& document);

// One string as a YAML double-quoted scalar, escaped as above. Throws std::runtime_error as above.
std::string yaml_double_quoted(const std::string& text);

}  // namespace numagpu::config
