// Small text helpers: number parsing with YAML-strict syntax, formatting, path handling.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace numagpu::config::detail {

enum class ParseStatus { kOk, kInvalid, kOutOfRange };

struct IntegerParse {
  ParseStatus status = ParseStatus::kInvalid;
  int64_t value = 0;
};
// Decimal or 0x/0X hexadecimal with an optional sign; nothing else (no 1.0, 1e3, 1_000).
IntegerParse parse_integer(const std::string& text);

struct RealParse {
  ParseStatus status = ParseStatus::kInvalid;
  double value = 0.0;
};
// Decimal notation with optional fraction and exponent; finite values only.
RealParse parse_real(const std::string& text);

std::string format_real(
    double value);  // shortest text that parses back to the same double, always with '.' or 'e'

std::size_t edit_distance(const std::string& a, const std::string& b);  // Levenshtein

std::string in_quotes(const std::string& text);  // 'text', control characters escaped, long text shortened
std::string join(const std::vector<std::string>& parts, const std::string& separator);
std::string count_of(std::size_t count, const std::string& noun);  // "1 item", "3 items"

bool is_index(const std::string& segment);  // a list index: decimal digits only
std::vector<std::string> split_path(const std::string& path);
std::string child_path(const std::string& parent, const std::string& key);

}  // namespace numagpu::config::detail
