// Byte input from a trace file that may be plain, gzip- or xz-compressed. Decompression streams through a
// fixed-size buffer: a trace is never loaded whole.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "trace/warnings.hpp"

namespace numagpu::trace {

enum class Compression { kNone, kGzip, kXz };

const char* to_string(Compression compression);

// What the first bytes of a file say (gzip: 1F 8B; xz: FD 37 7A 58 5A 00); kNone for anything else.
Compression compression_from_magic(const unsigned char* bytes, size_t size);
// What the name says: ".gz" or ".xz" suffix, else kNone.
Compression compression_from_extension(std::string_view path);

class InputStream {
 public:
  // Opens `path` and picks the decoder from its content, checked against its name:
  //   - a ".gz"/".xz" name whose content is not of that kind is an error (a renamed or half-written file);
  //   - compressed content under another name is decompressed by content, with a warning.
  // Throws TraceError ("<path>: cannot open (<reason>)", ...).
  static std::unique_ptr<InputStream> open(const std::string& path, Warnings* warnings = nullptr);

  virtual ~InputStream() = default;
  InputStream(const InputStream&) = delete;
  InputStream& operator=(const InputStream&) = delete;

  // Reads up to `size` decompressed bytes into `dst`; returns 0 only at the end of the data. Throws
  // TraceError on read errors, corrupt data and compressed streams that end before their end marker.
  size_t read(char* dst, size_t size) {
    const size_t n = read_some(dst, size);
    position_ += n;
    return n;
  }

  const std::string& path() const { return path_; }
  Compression compression() const { return compression_; }
  // Decompressed bytes returned so far.
  uint64_t position() const { return position_; }

 protected:
  InputStream(std::string path, Compression compression)
      : path_(std::move(path)), compression_(compression) {}

 private:
  virtual size_t read_some(char* dst, size_t size) = 0;

  std::string path_;
  Compression compression_;
  uint64_t position_ = 0;
};

// A stream just opened, with what opening it warned of, for a reader to take over (so a caller can look at
// the start of a file before choosing its reader, and the file is opened once).
struct OpenedInput {
  explicit OpenedInput(const std::string& path) : stream(InputStream::open(path, &warnings)) {}
  Warnings warnings;  // before stream: opening may already warn
  std::unique_ptr<InputStream> stream;
};

// `stream` with `head`, the bytes already read from it, served again before the rest: its reader sees the
// data from its start.
std::unique_ptr<InputStream> with_head_again(std::unique_ptr<InputStream> stream, std::string head);

}  // namespace numagpu::trace
