// Line-by-line reading of a (possibly compressed) text trace through one growing buffer: no allocation per
// line, no copy of a line that fits in the buffer.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "trace/input_stream.hpp"

namespace numagpu::trace {

class LineReader {
 public:
  // Longer lines are an error: a text trace line is at most a few hundred bytes, so a giant one means the
  // file is not a text trace (and reading on would exhaust memory).
  static constexpr size_t kMaxLineBytes = 16u << 20;

  explicit LineReader(std::unique_ptr<InputStream> input, size_t initial_buffer = 1u << 20);

  // The next line without its terminator ("\n" or "\r\n"), valid until the next call; false at the end of
  // the input. A last line without a final newline is still a line.
  bool next(std::string_view& line);

  // 1-based number of the line last returned (0 before the first).
  uint64_t line_number() const { return line_number_; }
  const std::string& path() const { return input_->path(); }
  const InputStream& input() const { return *input_; }

 private:
  // Reads more input behind the unconsumed bytes; returns false at the end of the input.
  bool fill();

  std::unique_ptr<InputStream> input_;
  std::vector<char> buffer_;
  size_t begin_ = 0;    // first unconsumed byte
  size_t end_ = 0;      // one past the last valid byte
  size_t scanned_ = 0;  // bytes from begin_ already known to hold no newline
  bool eof_ = false;
  uint64_t line_number_ = 0;
};

}  // namespace numagpu::trace
