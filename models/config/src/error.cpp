#include "config/error.hpp"

#include <ostream>

#include "common/printable.hpp"

namespace numagpu::config {
namespace {

// Keeps what() on one line and safe for a terminal even when a file name or a quoted value carries a line
// break, a control byte or bytes that are not UTF-8.
std::string one_line(const std::string& text) {
  return printable(text);
}

std::string location_prefix(const Location& where) {
  std::string out = one_line(where.file);
  if (where.line > 0) out += ":" + std::to_string(where.line) + ":" + std::to_string(where.column);
  return out;
}

std::string compose(const Location& where, const std::string& key, const std::string& message) {
  std::string out = location_prefix(where);
  if (!out.empty()) out += ": ";
  if (!key.empty()) out += one_line(key) + ": ";
  return out + one_line(message);
}

}  // namespace

bool operator==(const Location& a, const Location& b) {
  return a.file == b.file && a.line == b.line && a.column == b.column;
}

bool operator!=(const Location& a, const Location& b) {
  return !(a == b);
}

std::ostream& operator<<(std::ostream& os, const Location& where) {
  return os << location_prefix(where);
}

ConfigError::ConfigError(Location where, std::string key_path, std::string message)
    : std::runtime_error(compose(where, key_path, message)),
      where_(std::move(where)),
      key_(std::move(key_path)),
      message_(std::move(message)) {}

}  // namespace numagpu::config
