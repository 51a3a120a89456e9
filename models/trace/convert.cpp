#include "trace/convert.hpp"

#include <filesystem>

#include "trace/accelsim_reader.hpp"
#include "trace/input_stream.hpp"
#include "trace/ngt.hpp"

namespace numagpu::trace {

std::unique_ptr<KernelTraceReader> open_kernel_trace(const std::string& path) {
  // Sniff the decompressed start, then hand the same stream, its start served again, to the chosen reader:
  // the file is opened once.
  OpenedInput input(path);
  std::string head(sizeof(kNgtMagic), '\0');
  size_t got = 0;
  while (got < head.size()) {
    const size_t n = input.stream->read(head.data() + got, head.size() - got);
    if (n == 0) break;
    got += n;
  }
  head.resize(got);
  const bool ngt = is_ngt_magic(reinterpret_cast<const unsigned char*>(head.data()), got);
  input.stream = with_head_again(std::move(input.stream), std::move(head));
  if (ngt) return std::make_unique<NgtReader>(std::move(input));
  return std::make_unique<AccelSimKernelReader>(std::move(input));
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
