// Hand-written tokenizing and number parsing for text traces: the hot loop of the Accel-Sim reader. Numbers
// are parsed straight from the line in one pass (no token is split off first), with a digit table instead
// of character-class branches. No locale, no allocation, no exceptions; overflow and stray characters are
// detected, never wrapped.
#pragma once

#include <cstdint>
#include <limits>
#include <string_view>

namespace numagpu::trace {

namespace scan_detail {

constexpr uint8_t kNotDigit = 0xff;

struct HexTable {
  uint8_t value[256];
  constexpr HexTable() : value() {
    for (int c = 0; c < 256; ++c)
      value[c] = kNotDigit;
    for (int c = '0'; c <= '9'; ++c)
      value[c] = static_cast<uint8_t>(c - '0');
    for (int c = 'a'; c <= 'f'; ++c)
      value[c] = static_cast<uint8_t>(c - 'a' + 10);
    for (int c = 'A'; c <= 'F'; ++c)
      value[c] = static_cast<uint8_t>(c - 'A' + 10);
  }
};

inline constexpr HexTable kHex{};

constexpr bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

}  // namespace scan_detail

// Reads whitespace-separated fields of one line. Each typed reader skips leading blanks and consumes one
// whole token of its kind; when the next token is not of that kind it consumes nothing and returns false,
// so the caller can fetch the offending token with token() for its error message.
class LineCursor {
 public:
  explicit LineCursor(std::string_view line) : p_(line.data()), end_(line.data() + line.size()) {}

  // Unsigned hexadecimal, optional "0x"/"0X", at most 64 bits.
  bool hex(uint64_t& value) {
    skip_blanks();
    const char* q = p_;
    if (end_ - q >= 2 && q[0] == '0' && (q[1] == 'x' || q[1] == 'X')) q += 2;
    const char* digits = q;
    uint64_t v = 0;
    for (; q < end_; ++q) {
      const uint8_t d = scan_detail::kHex.value[static_cast<unsigned char>(*q)];
      if (d == scan_detail::kNotDigit) break;
      if (v >> 60) return false;  // a fifth nibble past 64 bits
      v = v << 4 | d;
    }
    if (q == digits || !token_ends_at(q)) return false;
    p_ = q;
    value = v;
    return true;
  }

  // Unsigned decimal, no sign, at most 64 bits.
  bool dec(uint64_t& value) {
    skip_blanks();
    const char* q = p_;
    if (!digits(q, value)) return false;
    p_ = q;
    return true;
  }

  // Decimal with an optional '-' or '+', within int64_t.
  bool signed_dec(int64_t& value) {
    skip_blanks();
    const char* q = p_;
    const bool negative = q < end_ && *q == '-';
    if (q < end_ && (*q == '-' || *q == '+')) ++q;
    uint64_t magnitude = 0;
    if (!digits(q, magnitude)) return false;
    const uint64_t limit = uint64_t{1} << 63;  // |INT64_MIN|; INT64_MAX is one less
    if (magnitude > limit - (negative ? 0 : 1)) return false;
    p_ = q;
    value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return true;
  }

  // The typed readers narrowed to T; values beyond T are rejected like malformed ones.
  template <typename T>
  bool hex_as(T& value) {
    return narrowed<T>(&LineCursor::hex, value);
  }
  template <typename T>
  bool dec_as(T& value) {
    return narrowed<T>(&LineCursor::dec, value);
  }

  // The next token, consumed; empty at the end of the line.
  std::string_view token() {
    skip_blanks();
    const char* start = p_;
    while (p_ < end_ && !scan_detail::is_blank(*p_))
      ++p_;
    return std::string_view(start, static_cast<size_t>(p_ - start));
  }

  // True when only blanks are left.
  bool at_end() {
    skip_blanks();
    return p_ == end_;
  }

 private:
  void skip_blanks() {
    while (p_ < end_ && scan_detail::is_blank(*p_))
      ++p_;
  }
  bool token_ends_at(const char* q) const { return q == end_ || scan_detail::is_blank(*q); }

  // Decimal digits from q up to the end of the token; advances q past them.
  bool digits(const char*& q, uint64_t& value) const {
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    const char* start = q;
    uint64_t v = 0;
    for (; q < end_ && *q >= '0' && *q <= '9'; ++q) {
      const uint64_t d = static_cast<uint64_t>(*q - '0');
      if (v > kMax / 10 || (v == kMax / 10 && d > kMax % 10)) return false;
      v = v * 10 + d;
    }
    if (q == start || !token_ends_at(q)) return false;
    value = v;
    return true;
  }

  template <typename T>
  bool narrowed(bool (LineCursor::*read)(uint64_t&), T& value) {
    const char* saved = p_;
    uint64_t v = 0;
    if (!(this->*read)(v) || v > std::numeric_limits<T>::max()) {
      p_ = saved;
      return false;
    }
    value = static_cast<T>(v);
    return true;
  }

  const char* p_;
  const char* end_;
};

// Whole-string versions for header values and list entries: `s` must be exactly one number.
inline bool parse_hex(std::string_view s, uint64_t& value) {
  LineCursor c(s);
  return c.hex(value) && c.at_end();
}
inline bool parse_dec(std::string_view s, uint64_t& value) {
  LineCursor c(s);
  return c.dec(value) && c.at_end();
}
inline bool parse_signed_dec(std::string_view s, int64_t& value) {
  LineCursor c(s);
  return c.signed_dec(value) && c.at_end();
}
template <typename T>
bool parse_dec_as(std::string_view s, T& value) {
  LineCursor c(s);
  return c.dec_as(value) && c.at_end();
}
template <typename T>
bool parse_hex_as(std::string_view s, T& value) {
  LineCursor c(s);
  return c.hex_as(value) && c.at_end();
}

// The first whitespace-separated token of a line.
inline std::string_view first_token(std::string_view line) {
  return LineCursor(line).token();
}

}  // namespace numagpu::trace
