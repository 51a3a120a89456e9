#include "config/emit_yaml.hpp"

#include <cstdint>
#include <stdexcept>

namespace numagpu::config {
namespace {

using json = nlohmann::ordered_json;

// The code point starting at text[i] (advancing i), or throws: overlong forms, surrogates, values above
// U+10FFFF and cut sequences are not UTF-8.
std::uint32_t next_code_point(const std::string& text, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const std::size_t start = i;
  const unsigned char lead = byte(i++);
  if (lead < 0x80) return lead;
  int more = 0;
  std::uint32_t cp = 0, min = 0;
  if ((lead & 0xE0) == 0xC0) {
    more = 1, cp = lead & 0x1F, min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    more = 2, cp = lead & 0x0F, min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    more = 3, cp = lead & 0x07, min = 0x10000;
  }
  bool ok = more != 0;
  for (int k = 0; ok && k < more; ++k, ++i) {
    ok = i < text.size() && (byte(i) & 0xC0) == 0x80;
    if (ok) cp = (cp << 6) | (byte(i) & 0x3F);
  }
  if (!ok || cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    throw std::runtime_error("cannot write YAML: a string is not valid UTF-8 (at byte " +
                             std::to_string(start) + ")");
  }
  return cp;
}

// Keys the program chose ("workload", "name") are written plain when they are identifiers that YAML reads
// as strings (not null, a boolean or a number).
bool plain_key(const std::string& key) {
  if (key.empty() || (key[0] >= '0' && key[0] <= '9')) return false;
  std::string lower;
  for (char c : key) {
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
      return false;
    lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  }
  for (const char* word : {"null", "true", "false", "yes", "no", "on", "off", "y", "n"}) {
    if (lower == word) return false;
  }
  return true;
}

std::string key_text(const std::string& key) {
  return plain_key(key) ? key : yaml_double_quoted(key);
}

std::string scalar_text(const json& value) {
  switch (value.type()) {
    case json::value_t::string:
      return yaml_double_quoted(value.get_ref<const std::string&>());
    case json::value_t::null:
      return "null";
    default:
      return value.dump();  // booleans and numbers: JSON's forms are YAML's
  }
}

bool is_collection(const json& value) {
  return (value.is_object() || value.is_array()) && !value.empty();
}

// A value on the line of its key or dash: a scalar, or an empty collection in flow style.
std::string inline_text(const json& value) {
  if (value.is_object()) return "{}";
  if (value.is_array()) return "[]";
  return scalar_text(value);
}

// A non-empty collection's members, one per line at `indent` (nested collections two columns deeper).
void write(const json& value, std::size_t indent, std::string& out) {
  const std::string pad(indent, ' ');
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      out += pad + key_text(key) + ":";
      if (is_collection(member)) {
        out += "\n";
        write(member, indent + 2, out);
      } else {
        out += " " + inline_text(member) + "\n";
      }
    }
    return;
  }
  for (const json& item : value) {
    out += pad + "- ";
    if (is_collection(item)) {
      // The item's members go two columns deeper; its first line continues after the dash.
      std::string nested;
      write(item, indent + 2, nested);
      out += nested.substr(indent + 2);
    } else {
      out += inline_text(item) + "\n";
    }
  }
}

}  // namespace

std::string yaml_double_quoted(const std::string& text) {
  static const char kHex[] = "0123456789abcdef";
  std::string out = "\"";
  for (std::size_t i = 0; i < text.size();) {
    const std::uint32_t cp = next_code_point(text, i);
    if (cp == '"' || cp == '\\') {
      out += '\\';
      out += static_cast<char>(cp);
    } else if (cp >= 0x20 && cp <= 0x7E) {
      out += static_cast<char>(cp);
    } else {
      const int digits = cp <= 0xFF ? 2 : cp <= 0xFFFF ? 4 : 8;
      out += digits == 2 ? "\\x" : digits == 4 ? "\\u" : "\\U";
      for (int d = digits - 1; d >= 0; --d)
        out += kHex[(cp >> (4 * d)) & 0xF];
    }
  }
  return out + "\"";
}

std::string emit_yaml(const nlohmann::ordered_json& document) {
  if (!is_collection(document)) return inline_text(document) + "\n";
  std::string out;
  write(document, 0, out);
  return out;
}

}  // namespace numagpu::config
