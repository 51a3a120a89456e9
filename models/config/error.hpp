// Configuration errors: where a value was written and what is wrong with it.
#pragma once

#include <iosfwd>
#include <stdexcept>
#include <string>

namespace numagpu::config {

// Where a configuration value was written. Lines and columns are 1-based; line 0 means that no
// position is known (a defaulted value, a --set override, an unreadable file).
struct Location {
  std::string file;
  int line = 0;
  int column = 0;
};

bool operator==(const Location& a, const Location& b);
bool operator!=(const Location& a, const Location& b);
std::ostream& operator<<(std::ostream& os, const Location& where);  // same text as the what() prefix

// Every user-facing configuration problem. what() is always a single line:
//   "<file>:<line>:<col>: <key.path>: <message>"
// ":<line>:<col>" is omitted when line == 0 and "<key.path>: " when the key is empty (YAML syntax
// errors, unreadable files). Line breaks in any part are shown as "\n", other control bytes and bytes
// that are not UTF-8 as "\xNN" (common/printable.hpp), so the line stays whole and safe to print.
class ConfigError : public std::runtime_error {
 public:
  ConfigError(Location where, std::string key_path, std::string message);

  const Location& where() const { return where_; }
  const std::string& key() const { return key_; }
  const std::string& message() const { return message_; }

 private:
  Location where_;
  std::string key_;
  std::string message_;
};

}  // namespace numagpu::config
