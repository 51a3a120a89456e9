// Config::dump_yaml(): the resolved configuration as commented YAML that loads back unchanged.
#include <string>
#include <vector>

#include "config/config.hpp"
#include "schema_detail.hpp"
#include "text.hpp"

namespace numagpu::config {
namespace {

using detail::Entry;
using detail::Kind;
using json = nlohmann::json;

std::string comment(const Entry& entry) {
  std::string text = entry.doc;
  for (char& c : text) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  if (!entry.unit.empty()) text += (text.empty() ? "[" : " [") + entry.unit + "]";
  return text.empty() ? "" : "  # " + text;
}

// Identifiers can be written plain; anything else (and words YAML might read as null or a
// boolean) is written as a double-quoted string, whose escapes JSON's are a subset of.
bool plain_is_safe(const std::string& text) {
  static const std::vector<std::string> kReserved = {
      "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no",
      "No",   "NO",   "on",   "On",   "ON",   "off",  "Off",   "OFF",   "y",     "Y",   "n",   "N"};
  if (text.empty()) return false;
  for (const std::string& word : kReserved) {
    if (text == word) return false;
  }
  const char first = text[0];
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '_')) return false;
  for (char c : text) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
                    c == '-' || c == '.';
    if (!ok) return false;
  }
  return true;
}

std::string scalar_text(const Entry& entry, const json& value) {
  switch (entry.kind) {
    case Kind::kInteger:
      return std::to_string(value.get<int64_t>());
    case Kind::kReal:
      return detail::format_real(value.get<double>());
    case Kind::kBoolean:
      return value.get<bool>() ? "true" : "false";
    case Kind::kChoice:
      if (plain_is_safe(value.get<std::string>())) return value.get<std::string>();
      break;
    default:
      break;
  }
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

class YamlWriter {
 public:
  void map(const Schema& schema, const json& value, std::size_t indent) {
    for (const auto& entry : detail::entries(schema)) {
      const json& member = value.at(entry->key);
      const std::string head = std::string(indent, ' ') + entry->key + ":";
      switch (entry->kind) {
        case Kind::kSection:
          section(*entry, member, head, indent);
          break;
        case Kind::kList:
          list(*entry, member, head, indent);
          break;
        default:
          lines_.push_back(head + " " + scalar_text(*entry, member) + comment(*entry));
      }
    }
  }

  std::string text() const {
    if (lines_.empty()) return "{}\n";
    std::string out;
    for (const std::string& line : lines_) {
      out += line + "\n";
    }
    return out;
  }

 private:
  void section(const Entry& entry, const json& value, const std::string& head, std::size_t indent) {
    if (entry.children.empty()) {
      lines_.push_back(head + " {}" + comment(entry));
      return;
    }
    lines_.push_back(head + comment(entry));
    map(entry.children, value, indent + 2);
  }

  // Items are written as "- key: value" blocks: the item map is written two columns deeper than
  // its dash, and the dash then replaces the indentation of its first line.
  void list(const Entry& entry, const json& value, const std::string& head, std::size_t indent) {
    if (value.empty()) {
      lines_.push_back(head + " []" + comment(entry));
      return;
    }
    lines_.push_back(head + comment(entry));
    for (const json& item : value) {
      const std::size_t first = lines_.size();
      map(entry.children, item, indent + 4);
      if (lines_.size() == first) {
        lines_.push_back(std::string(indent + 2, ' ') + "- {}");
      } else {
        lines_[first].replace(indent + 2, 2, "- ");
      }
    }
  }

  std::vector<std::string> lines_;
};

}  // namespace

std::string Config::dump_yaml() const {
  YamlWriter writer;
  writer.map(*schema_, resolved_, 0);
  return writer.text();
}

}  // namespace numagpu::config
