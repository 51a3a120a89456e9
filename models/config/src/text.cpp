#include "text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>

#include "common/printable.hpp"

namespace numagpu::config::detail {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Applies a sign to a magnitude, refusing values outside int64_t (-2^63 is allowed).
IntegerParse signed_value(uint64_t magnitude, bool negative) {
  constexpr uint64_t kMaxPositive = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!negative) {
    if (magnitude > kMaxPositive) return {ParseStatus::kOutOfRange, 0};
    return {ParseStatus::kOk, static_cast<int64_t>(magnitude)};
  }
  if (magnitude > kMaxPositive + 1) return {ParseStatus::kOutOfRange, 0};
  if (magnitude == kMaxPositive + 1) return {ParseStatus::kOk, std::numeric_limits<int64_t>::min()};
  return {ParseStatus::kOk, -static_cast<int64_t>(magnitude)};
}

// Length of the run of decimal digits starting at `pos`.
std::size_t digit_run(const std::string& text, std::size_t pos) {
  std::size_t end = pos;
  while (end < text.size() && is_digit(text[end])) {
    ++end;
  }
  return end - pos;
}

// Checks decimal real syntax by hand because from_chars also takes "inf", "nan" and hex floats.
bool is_decimal_real(const std::string& text, std::size_t pos) {
  const std::size_t int_digits = digit_run(text, pos);
  pos += int_digits;
  std::size_t frac_digits = 0;
  if (pos < text.size() && text[pos] == '.') {
    frac_digits = digit_run(text, pos + 1);
    pos += 1 + frac_digits;
  }
  if (int_digits + frac_digits == 0) return false;
  if (pos < text.size() && (text[pos] == 'e' || text[pos] == 'E')) {
    ++pos;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
    const std::size_t exp_digits = digit_run(text, pos);
    if (exp_digits == 0) return false;
    pos += exp_digits;
  }
  return pos == text.size();
}

}  // namespace

IntegerParse parse_integer(const std::string& text) {
  std::size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
  int base = 10;
  if (text.size() - pos > 2 && text[pos] == '0' && (text[pos + 1] == 'x' || text[pos + 1] == 'X')) {
    base = 16;
    pos += 2;
  }
  if (pos == text.size()) return {};
  const char* first = text.data() + pos;
  const char* last = text.data() + text.size();
  uint64_t magnitude = 0;
  const auto [end, error] = std::from_chars(first, last, magnitude, base);
  if (end != last) return {};
  if (error == std::errc::result_out_of_range) return {ParseStatus::kOutOfRange, 0};
  if (error != std::errc()) return {};
  return signed_value(magnitude, negative);
}

RealParse parse_real(const std::string& text) {
  std::size_t pos = 0;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) ++pos;
  if (!is_decimal_real(text, pos)) return {};
  // from_chars takes '-' but not '+'.
  const std::size_t start = (text[0] == '+') ? 1 : 0;
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data() + start, text.data() + text.size(), value);
  // Overflow and underflow alike: a value that cannot be represented is not silently changed.
  if (error == std::errc::result_out_of_range || !std::isfinite(value)) {
    return {ParseStatus::kOutOfRange, 0.0};
  }
  if (error != std::errc() || end != text.data() + text.size()) return {};
  return {ParseStatus::kOk, value};
}

std::string format_real(double value) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  std::string text(buffer, result.ptr);
  // "4" would read back as an integer-looking value; "4.0" says it is a real.
  if (std::isfinite(value) && text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) {
    previous[j] = j;
  }
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitution});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::string in_quotes(const std::string& text) {
  constexpr std::size_t kMaxShown = 60;  // an error line should stay readable
  if (text.size() > kMaxShown) return "'" + printable(text.substr(0, kMaxShown)) + "...'";
  return "'" + printable(text) + "'";
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += separator;
    out += parts[i];
  }
  return out;
}

std::string count_of(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

bool is_index(const std::string& segment) {
  return !segment.empty() && std::all_of(segment.begin(), segment.end(), is_digit);
}

std::vector<std::string> split_path(const std::string& path) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = path.find('.', start);
    segments.push_back(path.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return segments;
    start = dot + 1;
  }
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

}  // namespace numagpu::config::detail
