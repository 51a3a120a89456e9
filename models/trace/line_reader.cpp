#include "trace/line_reader.hpp"

#include <algorithm>
#include <cstring>

#include "trace/trace.hpp"

namespace numagpu::trace {

LineReader::LineReader(std::unique_ptr<InputStream> input, size_t initial_buffer)
    : input_(std::move(input)), buffer_(std::max<size_t>(initial_buffer, 64)) {}

bool LineReader::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const size_t available = end_ - begin_;
    const void* nl = std::memchr(start + scanned_, '\n', available - scanned_);
    if (nl != nullptr) {
      size_t length = static_cast<size_t>(static_cast<const char*>(nl) - start);
      begin_ += length + 1;
      scanned_ = 0;
      if (length > 0 && start[length - 1] == '\r') --length;
      line = std::string_view(start, length);
      ++line_number_;
      return true;
    }
    scanned_ = available;
    if (!fill()) {
      if (begin_ == end_) return false;
      line = std::string_view(buffer_.data() + begin_, end_ - begin_);
      if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
      begin_ = end_;
      scanned_ = 0;
      ++line_number_;
      return true;
    }
  }
}

bool LineReader::fill() {
  if (eof_) return false;
  // Slide the partial line to the front, then grow only if the line alone fills the buffer.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buffer_.size()) {
    if (buffer_.size() >= kMaxLineBytes) {
      throw TraceError(path() + ":" + std::to_string(line_number_ + 1) + ": line longer than " +
                       std::to_string(kMaxLineBytes >> 20) + " MiB: not a text trace");
    }
    buffer_.resize(std::min(buffer_.size() * 2, kMaxLineBytes));
  }
  const size_t n = input_->read(buffer_.data() + end_, buffer_.size() - end_);
  if (n == 0) {
    eof_ = true;
    return false;
  }
  end_ += n;
  return true;
}

}  // namespace numagpu::trace
