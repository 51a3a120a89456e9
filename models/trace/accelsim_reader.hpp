// Reader of Accel-Sim SASS traces: the kernelslist.g command list and one post-processed .traceg file per
// kernel, as written by accel-sim-framework's NVBit tracer (tracer versions 3, 4 and 5), plain, .gz or .xz.
// docs/trace-format.md describes the format, the opcode mapping and every warning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "trace/line_reader.hpp"
#include "trace/scan.hpp"
#include "trace/trace.hpp"
#include "trace/warnings.hpp"

namespace numagpu::trace {

// The header fields of a .traceg that KernelInfo does not carry, as written (even when implausible).
struct AccelSimHeader {
  uint32_t tracer_version = 0;  // "-accelsim tracer version"
  uint32_t binary_version = 0;  // "-binary version": the SM architecture (70 Volta, 80 Ampere, ...)
  uint64_t nregs = 0;           // "-nregs"
  bool lineinfo = false;        // "-enable lineinfo": each instruction line starts with a source line number
  uint64_t cuda_stream_id = 0;
  std::string nvbit_version;
};

class AccelSimKernelReader final : public KernelTraceReader {
 public:
  // Opens the trace and reads its header. Throws TraceError.
  explicit AccelSimKernelReader(const std::string& path);
  // The same from a file already opened (open_kernel_trace), read from its start.
  explicit AccelSimKernelReader(OpenedInput input);

  const KernelInfo& info() const override { return info_; }
  bool next_block(ThreadBlock& block) override;
  const std::vector<std::string>& warnings() const override { return warnings_.messages(); }

  const AccelSimHeader& header() const { return header_; }

 private:
  void read_header();
  void parse_header_field(std::string_view line);
  void check_header();
  void read_block(ThreadBlock& block);
  void read_block_id(ThreadBlock& block);
  void read_warp(ThreadBlock& block, std::string_view warp_line);
  void parse_instruction(std::string_view line, WarpInstruction& inst);
  void skip_registers(LineCursor& in, const char* role);
  void parse_addresses(LineCursor& in, uint32_t mask, std::vector<uint64_t>& out);
  void finish();

  // Skips blank lines; false at the end of the file.
  bool next_line(std::string_view& line);
  std::string location() const;
  std::string block_name(const ThreadBlock& block) const;
  [[noreturn]] void fail(const std::string& message) const;
  [[noreturn]] void expected(const std::string& what, std::string_view found) const;

  Warnings warnings_;  // before lines_: opening the file may already warn
  LineReader lines_;
  KernelInfo info_;
  AccelSimHeader header_;
  bool have_grid_ = false;
  bool have_block_ = false;
  uint64_t version_line_ = 0;  // 0: no "-accelsim tracer version" line yet
  uint64_t nregs_line_ = 0;
  uint64_t binary_version_line_ = 0;
  bool begin_pending_ = false;  // the header parse consumed the first "#BEGIN_TB"
  bool finished_ = false;
  uint64_t blocks_read_ = 0;
  std::vector<bool> seen_ctas_;  // duplicate detection (empty for grids too large to track)
  std::vector<bool> seen_warps_;
  std::vector<uint64_t> discarded_addresses_;  // addresses of instructions that are not memory kinds
};

// One line of a kernelslist.g.
struct TraceCommand {
  enum class Kind { kKernel, kMemcpyHtoD };
  Kind kind = Kind::kKernel;
  std::string path;      // kKernel: the kernel trace, resolved against the list's directory
  uint64_t address = 0;  // kMemcpyHtoD: destination device address
  uint64_t bytes = 0;    // kMemcpyHtoD: size
  uint64_t line = 0;
};

struct KernelList {
  std::vector<TraceCommand> commands;  // in file order
  std::vector<std::string> warnings;

  std::vector<std::string> kernel_paths() const;
};

// Reads a kernelslist.g: "MemcpyHtoD,<hex address>,<bytes>" lines and kernel trace file names (lines that
// start with "kernel", like Accel-Sim). Other lines are ignored with a warning. Throws TraceError.
KernelList read_kernel_list(const std::string& path);

}  // namespace numagpu::trace
