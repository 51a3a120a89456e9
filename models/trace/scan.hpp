// Hand-written tokenizing and number parsing for text traces: the hot loop of the Accel-Sim reader. No
// locale, no allocation, no exceptions; overflow and stray characters are detected, never wrapped.
#pragma once

#include <cstdint>
#include <string_view>

namespace numagpu::trace {

// Splits a line into tokens separated by spaces and tabs.
class Tokenizer {
 public:
  explicit Tokenizer(std::string_view line) : line_(line) {}

  // The next token, or an empty view at the end of the line.
  std::string_view next() {
    size_t i = pos_;
    while (i < line_.size() && is_blank(line_[i])) ++i;
    size_t j = i;
    while (j < line_.size() && !is_blank(line_[j])) ++j;
    pos_ = j;
    return line_.substr(i, j - i);
  }

  // True when only blanks are left.
  bool at_end() {
    while (pos_ < line_.size() && is_blank(line_[pos_])) ++pos_;
    return pos_ == line_.size();
  }

  // What is left of the line, from the next token on.
  std::string_view rest() {
    at_end();
    return line_.substr(pos_);
  }

 private:
  static bool is_blank(char c) { return c == ' ' || c == '\t'; }

  std::string_view line_;
  size_t pos_ = 0;
};

// Unsigned hexadecimal with an optional "0x"/"0X" prefix, at most 64 bits.
inline bool parse_hex(std::string_view s, uint64_t& value) {
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  // Leading zeros beyond 16 digits still make a 64-bit value.
  while (s.size() > 16 && s.front() == '0') s.remove_prefix(1);
  if (s.empty() || s.size() > 16) return false;
  uint64_t v = 0;
  for (const char c : s) {
    unsigned d;
    if (c >= '0' && c <= '9') {
      d = static_cast<unsigned>(c - '0');
    } else if (c >= 'a' && c <= 'f') {
      d = static_cast<unsigned>(c - 'a' + 10);
    } else if (c >= 'A' && c <= 'F') {
      d = static_cast<unsigned>(c - 'A' + 10);
    } else {
      return false;
    }
    v = (v << 4) | d;
  }
  value = v;
  return true;
}

// Unsigned decimal, no sign, at most 64 bits.
inline bool parse_dec(std::string_view s, uint64_t& value) {
  if (s.empty()) return false;
  uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    const uint64_t d = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - d) / 10) return false;
    v = v * 10 + d;
  }
  value = v;
  return true;
}

// Signed decimal with an optional '-' or '+', within int64_t.
inline bool parse_signed_dec(std::string_view s, int64_t& value) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  uint64_t magnitude = 0;
  if (!parse_dec(s, magnitude)) return false;
  const uint64_t limit = negative ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (magnitude > limit) return false;
  value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

template <typename T>
bool parse_dec_as(std::string_view s, T& value) {
  uint64_t v = 0;
  if (!parse_dec(s, v) || v > static_cast<uint64_t>(static_cast<T>(~T{0}))) return false;
  value = static_cast<T>(v);
  return true;
}

template <typename T>
bool parse_hex_as(std::string_view s, T& value) {
  uint64_t v = 0;
  if (!parse_hex(s, v) || v > static_cast<uint64_t>(static_cast<T>(~T{0}))) return false;
  value = static_cast<T>(v);
  return true;
}

}  // namespace numagpu::trace
