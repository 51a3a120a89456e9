#include "cli/hw_csv.hpp"

#include <sys/stat.h>

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace numagpu {

namespace {

// A field of a line and the 1-based byte where it starts (its opening quote, if quoted).
struct Field {
  std::string text;
  std::size_t column;
};

// Bytes of the input quoted in a message: control bytes as \xHH, at most 40 bytes shown.
std::string shown(const std::string& s) {
  std::string r = "'";
  for (std::size_t i = 0; i < s.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f || c == '\\') {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      r += buf;
    } else {
      r += static_cast<char>(c);
    }
  }
  return r + (s.size() > 40 ? "...'" : "'");
}

class Table {
 public:
  explicit Table(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(std::size_t line, std::size_t column, const std::string& key,
                         const std::string& what) const {
    throw HwCsvError(path_ + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + key + ": " +
                     what);
  }

  // The whole file: a regular file (a FIFO would block, a directory reads as nothing) of bounded size.
  std::string read() const {
    struct stat st {};
    if (::stat(path_.c_str(), &st) != 0)
      throw HwCsvError(path_ + ": cannot open (" + std::strerror(errno) + ")");
    if (!S_ISREG(st.st_mode)) throw HwCsvError(path_ + ": not a regular file");
    if (static_cast<unsigned long long>(st.st_size) > kHwCsvMaxBytes)
      throw HwCsvError(path_ + ": larger than 16 MiB: not a hardware table");
    std::ifstream in(path_, std::ios::binary);
    if (!in) throw HwCsvError(path_ + ": cannot open (" + std::strerror(errno) + ")");
    std::ostringstream all;
    all << in.rdbuf();
    std::string text = all.str();
    if (text.size() > kHwCsvMaxBytes) throw HwCsvError(path_ + ": larger than 16 MiB: not a hardware table");
    return text;
  }

  // One line's fields (RFC 4180 quoting, within the line).
  std::vector<Field> split(const std::string& line, std::size_t n) const {
    std::vector<Field> fields;
    std::size_t i = 0;
    while (true) {
      Field f{"", i + 1};
      if (i < line.size() && line[i] == '"') {
        ++i;
        while (true) {
          if (i >= line.size())
            fail(n, f.column, "field",
                 "a quoted field without its closing quote (a field cannot span lines)");
          if (line[i] == '"') {
            if (i + 1 < line.size() && line[i + 1] == '"') {
              f.text += '"';
              i += 2;
              continue;
            }
            ++i;
            break;
          }
          f.text += line[i++];
        }
        if (i < line.size() && line[i] != ',')
          fail(n, i + 1, "field",
               "expected a comma after the closing quote, not " + shown(line.substr(i, 1)));
      } else {
        while (i < line.size() && line[i] != ',') {
          if (line[i] == '"')
            fail(n, i + 1, "field",
                 "a quote inside an unquoted field (quote the whole field, doubling the quote)");
          f.text += line[i++];
        }
      }
      fields.push_back(std::move(f));
      if (i >= line.size()) break;
      ++i;  // the comma
    }
    return fields;
  }

  // The lines: number (1-based) and text without its '\n' and a trailing '\r'; blank lines left out.
  std::vector<std::pair<std::size_t, std::string>> lines(const std::string& text) const {
    std::vector<std::pair<std::size_t, std::string>> r;
    std::size_t n = 1, start = 0;
    while (start < text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      std::string line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (!line.empty()) r.emplace_back(n, std::move(line));
      start = end + 1;
      ++n;
    }
    return r;
  }

  // A header: its fields, each non-empty name once (an empty one too when `names_required`).
  std::vector<Field> header(const std::vector<std::pair<std::size_t, std::string>>& lines,
                            bool names_required) const {
    if (lines.empty()) fail(1, 1, "header", "an empty file, expected a header line");
    std::vector<Field> h = split(lines[0].second, lines[0].first);
    for (std::size_t i = 0; i < h.size(); ++i) {
      if (h[i].text.empty()) {
        if (names_required) fail(lines[0].first, h[i].column, "header", "a column without a name");
        continue;
      }
      for (std::size_t j = 0; j < i; ++j) {
        if (h[j].text == h[i].text)
          fail(lines[0].first, h[i].column, h[i].text,
               "the column appears twice (first at column " + std::to_string(h[j].column) + ")");
      }
    }
    return h;
  }

  std::vector<Field> row(const std::string& line, std::size_t n, std::size_t header_size) const {
    std::vector<Field> f = split(line, n);
    if (f.size() != header_size) {
      fail(n, 1, "row",
           std::to_string(f.size()) + " fields, expected " + std::to_string(header_size) +
               " as the header has");
    }
    return f;
  }

  void name(const Field& f, std::size_t n, const std::string& key, const std::string& expected) const {
    if (f.text.empty()) fail(n, f.column, key, "an empty name, expected " + expected);
    for (std::size_t i = 0; i < f.text.size(); ++i) {
      const unsigned char c = static_cast<unsigned char>(f.text[i]);
      if (c < 0x20 || c == 0x7f) {
        char buf[8];
        std::snprintf(buf, sizeof buf, "0x%02x", c);
        fail(n, f.column, key, std::string("a control byte (") + buf + ") in the name");
      }
    }
  }

  // A non-negative decimal number: digits with an optional fraction and exponent; 0, or from `min` to `max`.
  double number(const Field& f, std::size_t n, const std::string& key, double min, double max,
                const std::string& expected) const {
    const std::string& s = f.text;
    std::size_t i = 0, digits = 0;
    const auto is_digit = [&](std::size_t k) { return k < s.size() && s[k] >= '0' && s[k] <= '9'; };
    while (is_digit(i))
      ++i, ++digits;
    if (i < s.size() && s[i] == '.') {
      ++i;
      while (is_digit(i))
        ++i, ++digits;
    }
    bool ok = digits > 0;
    if (ok && i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      std::size_t exponent_digits = 0;
      while (is_digit(i))
        ++i, ++exponent_digits;
      ok = exponent_digits > 0;
    }
    if (!ok || i != s.size()) fail(n, f.column, key, "expected " + expected + ", not " + shown(s));
    errno = 0;
    const double v = std::strtod(s.c_str(), nullptr);
    if (errno == ERANGE || v > max || (v != 0 && v < min)) {
      std::ostringstream range;
      range << "expected " << expected << " from " << min << " to " << max << ", not " << shown(s);
      fail(n, f.column, key, range.str());
    }
    return v;
  }

 private:
  std::string path_;
};

}  // namespace

std::vector<HwRow> read_hw_csv(const std::string& path) {
  const Table t(path);
  const auto lines = t.lines(t.read());
  const std::vector<Field> header = t.header(lines, true);
  std::size_t bench_col = header.size(), kernel_col = header.size();
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i].text == "Benchmark") bench_col = i;
    if (header[i].text == "Kernel") kernel_col = i;
  }
  if (bench_col == header.size() || kernel_col == header.size())
    t.fail(lines[0].first, 1, "header", "expected the columns Benchmark and Kernel, then counters");
  std::vector<HwRow> rows;
  std::map<std::pair<std::string, std::string>, std::size_t> line_of;  // each kernel's row
  for (std::size_t l = 1; l < lines.size(); ++l) {
    const std::size_t n = lines[l].first;
    const std::vector<Field> f = t.row(lines[l].second, n, header.size());
    t.name(f[bench_col], n, "Benchmark", "the benchmark's name");
    t.name(f[kernel_col], n, "Kernel", "the kernel's name");
    HwRow row;
    row.benchmark = f[bench_col].text;
    row.kernel = f[kernel_col].text;
    const auto [first, added] = line_of.emplace(std::pair{row.benchmark, row.kernel}, n);
    if (!added) {
      t.fail(
          n, f[kernel_col].column, "Kernel",
          "a second row of kernel " + shown(row.kernel) + " of benchmark " + shown(row.benchmark) +
              " (first on line " + std::to_string(first->second) +
              "): each kernel has one row, a mean over its launches, and rows without launch counts cannot "
              "be merged");
    }
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (i == bench_col || i == kernel_col || f[i].text.empty()) continue;
      const std::string& counter = header[i].text;
      double min = 1e-12, max = kHwCounterMax;
      std::string expected = "a non-negative decimal number";
      if (counter == "Elapsed_Cycles")
        min = 1, expected = "a decimal number of cycles (a kernel lasts one at least)";
      if (counter == "Num_Idle_SMs") max = kHwIdleSmsMax, expected = "a non-negative decimal number of SMs";
      const double v = t.number(f[i], n, counter, min, max, expected);
      if (counter == "Elapsed_Cycles" && v == 0)
        t.fail(n, f[i].column, counter, "expected at least 1 cycle, not 0");
      row.counters[counter] = v;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<HwPowerRow> read_hw_power_csv(const std::string& path) {
  const Table t(path);
  const auto lines = t.lines(t.read());
  const std::vector<Field> header = t.header(lines, false);
  std::size_t watts_col = header.size();
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i].text == "mean HW_power") watts_col = i;
  if (watts_col == header.size() || watts_col == 0)
    t.fail(lines[0].first, 1, "header", "expected the row names first, then a column 'mean HW_power'");
  std::vector<HwPowerRow> rows;
  std::map<std::string, std::size_t> line_of;
  for (std::size_t l = 1; l < lines.size(); ++l) {
    const std::size_t n = lines[l].first;
    const std::vector<Field> f = t.row(lines[l].second, n, header.size());
    const std::string key = header[0].text.empty() ? "name" : header[0].text;
    t.name(f[0], n, key, "<app>_k<N>");
    const auto [first, added] = line_of.emplace(f[0].text, n);
    if (!added) {
      t.fail(n, f[0].column, key,
             "a second row of " + shown(f[0].text) + " (first on line " + std::to_string(first->second) +
                 "): each kernel has one row, a mean over its runs, and rows without their sample counts "
                 "cannot be merged");
    }
    const double w = t.number(f[watts_col], n, "mean HW_power", kHwPowerMinW, kHwPowerMaxW,
                              "a positive decimal number of watts");
    if (w == 0) t.fail(n, f[watts_col].column, "mean HW_power", "expected a positive number of watts, not 0");
    rows.push_back({f[0].text, w});
  }
  return rows;
}

std::string function_name(const std::string& kernel) {
  if (kernel.rfind("_Z", 0) != 0) return kernel;
  const bool nested = kernel.size() > 2 && kernel[2] == 'N';
  std::size_t i = nested ? 3 : 2;
  std::string name;
  do {
    std::size_t length = 0;
    while (i < kernel.size() && std::isdigit(static_cast<unsigned char>(kernel[i])))
      length = length * 10 + static_cast<std::size_t>(kernel[i++] - '0');
    if (length == 0 || i + length > kernel.size()) break;
    name = kernel.substr(i, length);
    i += length;
  } while (nested && i < kernel.size() && std::isdigit(static_cast<unsigned char>(kernel[i])));
  return name.empty() ? kernel : name;
}

}  // namespace numagpu
