// numagpu's own trace format, .ngt: binary, little-endian, versioned, every record length-prefixed and
// CRC-32 checked, so truncation and corruption are reported rather than simulated. Addresses are stored as
// base + stride when a warp's accesses are uniform, else as per-thread deltas; the layout is specified in
// docs/trace-format.md.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "trace/input_stream.hpp"
#include "trace/trace.hpp"
#include "trace/warnings.hpp"

namespace numagpu::trace {

inline constexpr unsigned char kNgtMagic[8] = {0x89, 'N', 'G', 'T', '\r', '\n', 0x1a, '\n'};
inline constexpr uint16_t kNgtVersion = 1;

// True when `bytes` start with the .ngt magic.
bool is_ngt_magic(const unsigned char* bytes, size_t size);

// Writes one kernel. The file appears under its name only once finish() succeeds (it is written to a
// temporary name and renamed), so a crashed conversion never leaves a plausible-looking partial trace.
class NgtWriter {
 public:
  // Throws TraceError when the file cannot be created or `info` has impossible dimensions.
  NgtWriter(std::string path, const KernelInfo& info);
  ~NgtWriter();  // without finish(): removes the temporary file
  NgtWriter(const NgtWriter&) = delete;
  NgtWriter& operator=(const NgtWriter&) = delete;

  // Checks the invariants of trace.hpp (warp count, coordinates, address counts) and appends the block.
  // Throws TraceError naming the offending block, warp and instruction.
  void write_block(const ThreadBlock& block);
  // Writes the end record, flushes and renames into place. Throws TraceError.
  void finish();

  uint64_t blocks_written() const { return blocks_; }
  uint64_t instructions_written() const { return instructions_; }
  uint64_t bytes_written() const { return bytes_; }

 private:
  void check_block(const ThreadBlock& block) const;
  void write_record(uint8_t type, const std::string& payload);
  void write_raw(const void* data, size_t size);
  [[noreturn]] void fail(const std::string& message) const;

  std::string path_;
  std::string temp_path_;
  std::FILE* file_ = nullptr;
  KernelInfo info_;
  std::string payload_;  // reused record buffer
  uint64_t blocks_ = 0;
  uint64_t instructions_ = 0;
  uint64_t bytes_ = 0;
};

// Streams a .ngt file (plain, or compressed with gzip or xz).
class NgtReader final : public KernelTraceReader {
 public:
  // Reads and checks the file header and the kernel record. Throws TraceError.
  explicit NgtReader(const std::string& path);
  // The same from a file already opened (open_kernel_trace), read from its start.
  explicit NgtReader(OpenedInput input);

  const KernelInfo& info() const override { return info_; }
  bool next_block(ThreadBlock& block) override;
  const std::vector<std::string>& warnings() const override { return warnings_.messages(); }

  uint16_t version() const { return version_; }

 private:
  // Reads the next record into payload_; returns its type.
  uint8_t read_record();
  // Reads the current record's payload of `size` bytes into payload_, else reports truncation.
  void read_payload(uint32_t size);
  // Reads exactly `size` bytes, else reports truncation while reading `what`.
  void read_exact(void* dst, size_t size, const std::string& what);
  void decode_kernel();
  void decode_block(ThreadBlock& block);
  void finish_at_end_record();
  std::string record_name() const;
  [[noreturn]] void fail(uint64_t offset, const std::string& message) const;

  Warnings warnings_;
  std::unique_ptr<InputStream> input_;
  KernelInfo info_;
  uint16_t version_ = 0;
  std::vector<unsigned char> payload_;
  uint8_t record_type_ = 0;
  uint64_t record_offset_ = 0;  // where the current record starts in the (decompressed) stream
  uint64_t records_ = 0;
  uint64_t blocks_ = 0;
  uint64_t instructions_ = 0;
  bool done_ = false;
};

// Streams every block of `reader` into a new .ngt file at `path`; returns the counts written. Throws
// TraceError (from either side).
TraceCounts write_ngt(KernelTraceReader& reader, const std::string& path);

}  // namespace numagpu::trace
