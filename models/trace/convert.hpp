// Format-independent entry points: open any kernel trace, convert Accel-Sim kernels to .ngt.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "trace/trace.hpp"

namespace numagpu::trace {

// Opens a kernel trace of either format, told apart by content (after decompression): the .ngt magic, or
// else an Accel-Sim .traceg. Throws TraceError.
std::unique_ptr<KernelTraceReader> open_kernel_trace(const std::string& path);

struct ConversionResult {
  TraceCounts counts;                 // what was written
  uint64_t bytes_written = 0;         // size of the .ngt file
  std::vector<std::string> warnings;  // the Accel-Sim reader's
};

// Converts one Accel-Sim kernel trace (.traceg, .traceg.gz or .traceg.xz) into a .ngt file, streaming
// block by block. Throws TraceError; on error no file is left at `ngt_path`.
ConversionResult convert_accelsim_kernel(const std::string& traceg_path, const std::string& ngt_path);

}  // namespace numagpu::trace
