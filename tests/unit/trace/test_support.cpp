#include "test_support.hpp"

#include <lzma.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace numagpu::trace::testing {

std::string data_path(const std::string& name) {
  return std::string(NUMAGPU_TRACE_TEST_DATA) + "/" + name;
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  const auto dir = std::filesystem::temp_directory_path() /
                   ("numagpu-trace-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir);
  dir_ = dir.string();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

std::string TempDir::write(const std::string& name, std::string_view contents) const {
  const std::string p = path(name);
  // A new file rather than a truncated one: ext4 flushes a file truncated and rewritten in place
  // (auto_da_alloc), which made the loops of robustness_test.cpp wait on the disk.
  std::error_code ignored;
  std::filesystem::remove(p, ignored);
  std::ofstream out(p, std::ios::binary);
  out.write(contents.data(), static_cast<std::streamsize>(contents.size()));
  if (!out) throw std::runtime_error("cannot write " + p);
  return p;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string gzip_bytes(std::string_view data) {
  z_stream z{};
  if (deflateInit2(&z, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, data.size()), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  if (deflate(&z, Z_FINISH) != Z_STREAM_END) throw std::runtime_error("deflate");
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

std::string xz_bytes(std::string_view data) {
  std::string out(lzma_stream_buffer_bound(data.size()), '\0');
  size_t written = 0;
  if (lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, nullptr, reinterpret_cast<const uint8_t*>(data.data()),
                              data.size(), reinterpret_cast<uint8_t*>(out.data()), &written,
                              out.size()) != LZMA_OK) {
    throw std::runtime_error("lzma_easy_buffer_encode");
  }
  out.resize(written);
  return out;
}

std::vector<ThreadBlock> read_all(KernelTraceReader& reader) {
  std::vector<ThreadBlock> blocks;
  ThreadBlock block;
  while (reader.next_block(block))
    blocks.push_back(block);
  return blocks;
}

}  // namespace numagpu::trace::testing
