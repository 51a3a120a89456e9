#include "trace/convert.hpp"

#include <filesystem>

#include "trace/accelsim_reader.hpp"
#include "trace/input_stream.hpp"
#include "trace/ngt.hpp"

namespace numagpu::trace {

std::unique_ptr<KernelTraceReader> open_kernel_trace(const std::string& path) {
  // Sniff the decompressed start; the chosen reader reopens the file (cheap, and keeps readers simple).
  auto input = InputStream::open(path);
  unsigned char head[sizeof(kNgtMagic)] = {};
  size_t got = 0;
  while (got < sizeof(head)) {
    const size_t n = input->read(reinterpret_cast<char*>(head) + got, sizeof(head) - got);
    if (n == 0) break;
    got += n;
  }
  input.reset();
  if (is_ngt_magic(head, got)) return std::make_unique<NgtReader>(path);
  return std::make_unique<AccelSimKernelReader>(path);
}

ConversionResult convert_accelsim_kernel(const std::string& traceg_path, const std::string& ngt_path) {
  AccelSimKernelReader reader(traceg_path);
  ConversionResult result;
  result.counts = write_ngt(reader, ngt_path);
  result.bytes_written = std::filesystem::file_size(ngt_path);
  result.warnings = reader.warnings();
  return result;
}

}  // namespace numagpu::trace
