#include "trace/ngt.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "trace/ngt_codec.hpp"

namespace numagpu::trace {

using namespace ngt;

bool is_ngt_magic(const unsigned char* bytes, size_t size) {
  return size >= sizeof(kNgtMagic) && std::memcmp(bytes, kNgtMagic, sizeof(kNgtMagic)) == 0;
}

namespace {

std::string errno_text(int err) {
  return std::generic_category().message(err);
}

bool uniform_stride(const std::vector<uint64_t>& a) {
  for (size_t i = 2; i < a.size(); ++i) {
    if (a[i] - a[i - 1] != a[1] - a[0]) return false;
  }
  return true;
}

uint8_t mask_mode(uint32_t mask, const WarpContext& ctx) {
  if (mask == ctx.mask) return kMaskSame;
  return mask == 0xffffffffu ? kMaskFull : kMaskExplicit;
}

// Appends one instruction; the layout is in docs/trace-format.md ("Instruction").
void encode_instruction(const WarpInstruction& inst, WarpContext& ctx, std::string& out) {
  const std::vector<uint64_t>& addr = inst.addresses;
  const uint8_t mode = mask_mode(inst.active_mask, ctx);
  const bool deltas = is_memory(inst.kind) && addr.size() >= 2 && !uniform_stride(addr);
  uint8_t head = static_cast<uint8_t>(static_cast<uint8_t>(inst.kind) | mode << kMaskModeShift);
  if (inst.pc == ctx.next_pc) head |= kPcSequential;
  if (inst.compute_cycles != 1) head |= kHasCycles;
  if (deltas) head |= kAddressDeltas;
  put_u8(out, head);
  if (mode == kMaskExplicit) put_u32(out, inst.active_mask);
  // The pc delta is taken in 32 bits, then sign-extended, so a backward branch costs a byte or two.
  if ((head & kPcSequential) == 0) put_signed(out, static_cast<int32_t>(inst.pc - ctx.next_pc));
  if (head & kHasCycles) put_varint(out, inst.compute_cycles);
  ctx.mask = inst.active_mask;
  ctx.next_pc = inst.pc + kPcStep;
  if (!is_memory(inst.kind)) return;

  put_u8(out, inst.access_bytes);
  if (addr.empty()) return;
  // Bases are relative to the warp's previous base: consecutive accesses of a warp are usually near each
  // other, so the 48-bit virtual address shrinks to a few bytes.
  put_signed(out, static_cast<int64_t>(addr[0] - ctx.base));
  ctx.base = addr[0];
  if (addr.size() < 2) return;
  if (!deltas) {
    put_signed(out, static_cast<int64_t>(addr[1] - addr[0]));
    return;
  }
  for (size_t i = 1; i < addr.size(); ++i)
    put_signed(out, static_cast<int64_t>(addr[i] - addr[i - 1]));
}

void encode_kernel(const KernelInfo& info, std::string& out) {
  put_string(out, info.name);
  put_varint(out, info.kernel_id);
  for (const Dim3* d : {&info.grid, &info.block}) {
    put_varint(out, d->x);
    put_varint(out, d->y);
    put_varint(out, d->z);
  }
  put_varint(out, info.shared_mem_bytes);
  put_varint(out, info.registers_per_thread);
  put_varint(out, info.shared_mem_base);
  put_varint(out, info.local_mem_base);
}

}  // namespace

NgtWriter::NgtWriter(std::string path, const KernelInfo& info)
    : path_(std::move(path)), temp_path_(path_ + ".tmp." + std::to_string(::getpid())), info_(info) {
  if (const auto problem = check_launch_dims(info_)) fail("cannot write kernel: " + *problem);
  file_ = std::fopen(temp_path_.c_str(), "wb");
  if (file_ == nullptr) fail("cannot create " + temp_path_ + " (" + errno_text(errno) + ")");
  std::string header(reinterpret_cast<const char*>(kNgtMagic), sizeof(kNgtMagic));
  put_u16(header, kNgtVersion);
  put_u16(header, 0);  // flags: none defined in version 1
  write_raw(header.data(), header.size());
  payload_.clear();
  encode_kernel(info_, payload_);
  write_record(kKernelRecord, payload_);
}

NgtWriter::~NgtWriter() {
  if (file_ != nullptr) {
    std::fclose(file_);
    std::remove(temp_path_.c_str());
  }
}

void NgtWriter::fail(const std::string& message) const {
  throw TraceError(path_ + ": " + message);
}

void NgtWriter::write_raw(const void* data, size_t size) {
  if (std::fwrite(data, 1, size, file_) != size) fail("cannot write (" + errno_text(errno) + ")");
  bytes_ += size;
}

void NgtWriter::write_record(uint8_t type, const std::string& payload) {
  if (payload.size() > kMaxPayloadBytes) fail("record larger than 1 GiB");
  std::string head;
  put_u8(head, type);
  put_u32(head, static_cast<uint32_t>(payload.size()));
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(&type), 1);
  crc = crc32(crc, reinterpret_cast<const Bytef*>(payload.data()), static_cast<uInt>(payload.size()));
  std::string tail;
  put_u32(tail, static_cast<uint32_t>(crc));
  write_raw(head.data(), head.size());
  write_raw(payload.data(), payload.size());
  write_raw(tail.data(), tail.size());
}

void NgtWriter::check_block(const ThreadBlock& block) const {
  const std::string name = "thread block (" + std::to_string(block.x) + "," + std::to_string(block.y) + "," +
                           std::to_string(block.z) + ")";
  if (block.x >= info_.grid.x || block.y >= info_.grid.y || block.z >= info_.grid.z) {
    fail("cannot write " + name + ": outside the grid");
  }
  if (block.cta_id != info_.linear_cta_id(block.x, block.y, block.z)) {
    fail("cannot write " + name + ": cta_id " + std::to_string(block.cta_id) + " is not its linear id");
  }
  if (block.warps.size() != info_.warps_per_cta()) {
    fail("cannot write " + name + ": " + std::to_string(block.warps.size()) + " warps, the kernel has " +
         std::to_string(info_.warps_per_cta()) + " per block");
  }
  for (size_t w = 0; w < block.warps.size(); ++w) {
    for (size_t i = 0; i < block.warps[w].size(); ++i) {
      const WarpInstruction& inst = block.warps[w][i];
      const char* problem = nullptr;
      if (static_cast<int>(inst.kind) >= kOpKindCount) {
        problem = "invalid kind";
      } else if (is_memory(inst.kind) && inst.addresses.size() != inst.active_threads()) {
        problem = "address count differs from the number of active threads";
      } else if (!is_memory(inst.kind) && (!inst.addresses.empty() || inst.access_bytes != 0)) {
        problem = "a non-memory instruction carries addresses or an access size";
      }
      if (problem != nullptr) {
        fail("cannot write " + name + " warp " + std::to_string(w) + " instruction " + std::to_string(i) +
             ": " + problem);
      }
    }
  }
}

void NgtWriter::write_block(const ThreadBlock& block) {
  if (file_ == nullptr) fail("write_block after finish");
  check_block(block);
  payload_.clear();
  put_varint(payload_, block.x);
  put_varint(payload_, block.y);
  put_varint(payload_, block.z);
  put_varint(payload_, block.warps.size());
  for (const auto& warp : block.warps) {
    put_varint(payload_, warp.size());
    WarpContext ctx;
    for (const WarpInstruction& inst : warp)
      encode_instruction(inst, ctx, payload_);
    instructions_ += warp.size();
  }
  write_record(kBlockRecord, payload_);
  ++blocks_;
}

void NgtWriter::finish() {
  if (file_ == nullptr) fail("finish called twice");
  payload_.clear();
  put_varint(payload_, blocks_);
  put_varint(payload_, instructions_);
  write_record(kEndRecord, payload_);
  std::FILE* f = file_;
  file_ = nullptr;
  // Data on disk before the rename: a power loss leaves the old file or the complete new one.
  int err = 0;
  if (std::fflush(f) != 0 || ::fsync(::fileno(f)) != 0) err = errno;
  if (std::fclose(f) != 0 && err == 0) err = errno;
  if (err != 0) {
    std::remove(temp_path_.c_str());
    fail("cannot write (" + errno_text(err) + ")");
  }
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) {
    const int rename_err = errno;
    std::remove(temp_path_.c_str());
    fail("cannot rename " + temp_path_ + " into place (" + errno_text(rename_err) + ")");
  }
}

TraceCounts write_ngt(KernelTraceReader& reader, const std::string& path) {
  NgtWriter writer(path, reader.info());
  TraceCounts counts;
  ThreadBlock block;
  while (reader.next_block(block)) {
    writer.write_block(block);
    counts.add(block);
  }
  writer.finish();
  return counts;
}

}  // namespace numagpu::trace
