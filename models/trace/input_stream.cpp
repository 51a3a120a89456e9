#include "trace/input_stream.hpp"

#include <lzma.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "trace/trace.hpp"

namespace numagpu::trace {
namespace {

constexpr unsigned char kGzipMagic[] = {0x1f, 0x8b};
constexpr unsigned char kXzMagic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr size_t kMagicBytes = sizeof(kXzMagic);
constexpr size_t kCompressedChunk = 256 * 1024;

std::string errno_text(int err) {
  return std::generic_category().message(err);
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The file itself. The first bytes are read ahead to identify the content, then served again, so
// non-seekable inputs (pipes) work too.
class RawFile {
 public:
  explicit RawFile(const std::string& path) : path_(path), file_(std::fopen(path.c_str(), "rb")) {
    if (file_ == nullptr) throw TraceError(path + ": cannot open (" + errno_text(errno) + ")");
    while (head_size_ < kMagicBytes) {
      const size_t n = fill(head_ + head_size_, kMagicBytes - head_size_);
      if (n == 0) break;
      head_size_ += n;
    }
  }
  ~RawFile() { std::fclose(file_); }
  RawFile(const RawFile&) = delete;
  RawFile& operator=(const RawFile&) = delete;

  const unsigned char* head() const { return head_; }
  size_t head_size() const { return head_size_; }

  size_t read(char* dst, size_t size) {
    if (head_pos_ < head_size_) {
      const size_t n = std::min(size, head_size_ - head_pos_);
      std::memcpy(dst, head_ + head_pos_, n);
      head_pos_ += n;
      return n;
    }
    return fill(dst, size);
  }

 private:
  size_t fill(void* dst, size_t size) {
    const size_t n = std::fread(dst, 1, size, file_);
    if (n == 0 && std::ferror(file_)) throw TraceError(path_ + ": cannot read (" + errno_text(errno) + ")");
    return n;
  }

  std::string path_;
  std::FILE* file_;
  unsigned char head_[kMagicBytes] = {};
  size_t head_size_ = 0;
  size_t head_pos_ = 0;
};

class PlainStream final : public InputStream {
 public:
  PlainStream(const std::string& path, std::unique_ptr<RawFile> file)
      : InputStream(path, Compression::kNone), file_(std::move(file)) {}

 private:
  size_t read_some(char* dst, size_t size) override { return file_->read(dst, size); }

  std::unique_ptr<RawFile> file_;
};

// Compressed input: the raw bytes go through `in_`, refilled by the decoders below.
class CompressedInput {
 public:
  explicit CompressedInput(std::unique_ptr<RawFile> file)
      : file_(std::move(file)), buffer_(new unsigned char[kCompressedChunk]) {}

  // Reads the next chunk of compressed bytes; returns an empty chunk (size 0) at the end of the file.
  size_t refill() {
    const size_t n = file_->read(reinterpret_cast<char*>(buffer_.get()), kCompressedChunk);
    eof_ = n == 0;
    return n;
  }
  unsigned char* data() { return buffer_.get(); }
  bool eof() const { return eof_; }

 private:
  std::unique_ptr<RawFile> file_;
  std::unique_ptr<unsigned char[]> buffer_;
  bool eof_ = false;
};

class GzipStream final : public InputStream {
 public:
  GzipStream(const std::string& path, std::unique_ptr<RawFile> file)
      : InputStream(path, Compression::kGzip), in_(std::move(file)) {
    // 16 + 15: gzip wrapper only, 32 KiB window (the maximum, so any gzip file decodes).
    if (inflateInit2(&z_, 16 + MAX_WBITS) != Z_OK) throw TraceError(path + ": cannot start gzip decoder");
  }
  ~GzipStream() override { inflateEnd(&z_); }

 private:
  size_t read_some(char* dst, size_t size) override {
    for (;;) {
      if (z_.avail_in == 0 && !in_.eof()) {
        z_.avail_in = static_cast<uInt>(in_.refill());
        z_.next_in = in_.data();
      }
      if (member_ended_) {
        if (z_.avail_in == 0) return 0;
        // `gzip a b > c` concatenates members; gunzip decodes them all, and so do we.
        inflateReset(&z_);
        member_ended_ = false;
      }
      z_.next_out = reinterpret_cast<Bytef*>(dst);
      z_.avail_out = static_cast<uInt>(std::min<size_t>(size, 1u << 30));
      const uInt room = z_.avail_out;
      const int rc = inflate(&z_, Z_NO_FLUSH);
      const size_t produced = room - z_.avail_out;
      if (rc == Z_STREAM_END) {
        member_ended_ = true;
      } else if (rc == Z_OK || rc == Z_BUF_ERROR) {
        // No output and no input left: the file ended inside the stream.
        if (produced == 0 && z_.avail_in == 0 && in_.eof()) {
          throw TraceError(path() +
                           ": truncated gzip stream: the compressed data ends before its end marker");
        }
      } else {
        throw TraceError(path() + ": corrupt gzip data (" + (z_.msg ? z_.msg : "inflate error") + ")");
      }
      if (produced > 0) return produced;
    }
  }

  CompressedInput in_;
  z_stream z_{};
  bool member_ended_ = false;
};

const char* lzma_error_text(lzma_ret rc) {
  switch (rc) {
    case LZMA_MEM_ERROR:
      return "out of memory";
    case LZMA_FORMAT_ERROR:
      return "not xz data";
    case LZMA_OPTIONS_ERROR:
      return "unsupported xz options";
    case LZMA_DATA_ERROR:
      return "corrupt xz data";
    case LZMA_BUF_ERROR:
      return "truncated xz stream: the compressed data ends before its end marker";
    default:
      return "xz decoder error";
  }
}

class XzStream final : public InputStream {
 public:
  XzStream(const std::string& path, std::unique_ptr<RawFile> file)
      : InputStream(path, Compression::kXz), in_(std::move(file)) {
    // LZMA_CONCATENATED: like xz -d, decode every stream of a multi-stream file.
    if (lzma_stream_decoder(&s_, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
      throw TraceError(path + ": cannot start xz decoder");
    }
  }
  ~XzStream() override { lzma_end(&s_); }

 private:
  size_t read_some(char* dst, size_t size) override {
    if (done_) return 0;
    s_.next_out = reinterpret_cast<uint8_t*>(dst);
    s_.avail_out = size;
    while (s_.avail_out == size) {
      if (s_.avail_in == 0 && !in_.eof()) {
        s_.avail_in = in_.refill();
        s_.next_in = in_.data();
      }
      // LZMA_FINISH once the file is exhausted: the decoder then reports a missing end as LZMA_BUF_ERROR.
      const lzma_action action = s_.avail_in == 0 && in_.eof() ? LZMA_FINISH : LZMA_RUN;
      const lzma_ret rc = lzma_code(&s_, action);
      if (rc == LZMA_STREAM_END) {
        done_ = true;
        break;
      }
      if (rc != LZMA_OK) throw TraceError(path() + ": " + lzma_error_text(rc));
    }
    return size - s_.avail_out;
  }

  CompressedInput in_;
  lzma_stream s_ = LZMA_STREAM_INIT;
  bool done_ = false;
};

std::string compression_mismatch(const std::string& path, Compression by_name) {
  const std::string magic = by_name == Compression::kXz ? "FD 37 7A 58 5A 00" : "1F 8B";
  return path + ": the name ends in ." + (by_name == Compression::kXz ? "xz" : "gz") +
         " but the content is not " + to_string(by_name) + " data (expected magic bytes " + magic + ")";
}

}  // namespace

const char* to_string(Compression compression) {
  switch (compression) {
    case Compression::kNone:
      return "plain";
    case Compression::kGzip:
      return "gzip";
    case Compression::kXz:
      return "xz";
  }
  return "invalid";
}

Compression compression_from_magic(const unsigned char* bytes, size_t size) {
  if (size >= sizeof(kXzMagic) && std::memcmp(bytes, kXzMagic, sizeof(kXzMagic)) == 0)
    return Compression::kXz;
  if (size >= sizeof(kGzipMagic) && std::memcmp(bytes, kGzipMagic, sizeof(kGzipMagic)) == 0) {
    return Compression::kGzip;
  }
  return Compression::kNone;
}

Compression compression_from_extension(std::string_view path) {
  if (ends_with(path, ".xz")) return Compression::kXz;
  if (ends_with(path, ".gz")) return Compression::kGzip;
  return Compression::kNone;
}

std::unique_ptr<InputStream> InputStream::open(const std::string& path, Warnings* warnings) {
  auto file = std::make_unique<RawFile>(path);
  const Compression by_content = compression_from_magic(file->head(), file->head_size());
  const Compression by_name = compression_from_extension(path);
  if (by_name != Compression::kNone && by_content != by_name) {
    throw TraceError(compression_mismatch(path, by_name));
  }
  if (by_content != by_name && warnings != nullptr) {
    warnings->add(path + ": the content is " + to_string(by_content) +
                  "-compressed but the name does not say so; decompressing by content");
  }
  switch (by_content) {
    case Compression::kGzip:
      return std::make_unique<GzipStream>(path, std::move(file));
    case Compression::kXz:
      return std::make_unique<XzStream>(path, std::move(file));
    case Compression::kNone:
      break;
  }
  return std::make_unique<PlainStream>(path, std::move(file));
}

namespace {

class HeadAgain final : public InputStream {
 public:
  HeadAgain(std::unique_ptr<InputStream> rest, std::string head)
      : InputStream(rest->path(), rest->compression()), rest_(std::move(rest)), head_(std::move(head)) {}

 private:
  size_t read_some(char* dst, size_t size) override {
    if (served_ == head_.size()) return rest_->read(dst, size);
    const size_t n = std::min(size, head_.size() - served_);
    std::memcpy(dst, head_.data() + served_, n);
    served_ += n;
    return n;
  }

  std::unique_ptr<InputStream> rest_;
  std::string head_;
  size_t served_ = 0;
};

}  // namespace

std::unique_ptr<InputStream> with_head_again(std::unique_ptr<InputStream> stream, std::string head) {
  return std::make_unique<HeadAgain>(std::move(stream), std::move(head));
}

}  // namespace numagpu::trace
