#include "trace/ngt.hpp"

#include <zlib.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

#include "trace/ngt_codec.hpp"

namespace numagpu::trace {

using namespace ngt;

namespace {

std::string hex32(uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof(buf), "0x%08x", v);
  return buf;
}

uint32_t record_crc(uint8_t type, const std::vector<unsigned char>& payload) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, &type, 1);
  crc = crc32(crc, payload.data(), static_cast<uInt>(payload.size()));
  return static_cast<uint32_t>(crc);
}

// The inverse of encode_instruction in ngt_writer.cpp.
void decode_instruction(ByteCursor& in, WarpContext& ctx, WarpInstruction& inst) {
  const uint8_t head = in.u8();
  const uint8_t kind = head & kKindMask;
  if (kind >= kOpKindCount) throw DecodeError{"invalid instruction kind " + std::to_string(kind)};
  inst.kind = static_cast<OpKind>(kind);
  switch ((head >> kMaskModeShift) & 3) {
    case kMaskSame:
      inst.active_mask = ctx.mask;
      break;
    case kMaskFull:
      inst.active_mask = 0xffffffffu;
      break;
    case kMaskExplicit:
      inst.active_mask = in.u32();
      break;
    default:
      throw DecodeError{"invalid active-mask mode 3"};
  }
  inst.pc = ctx.next_pc;
  if ((head & kPcSequential) == 0) inst.pc += static_cast<uint32_t>(in.signed_varint());
  inst.compute_cycles = (head & kHasCycles) ? in.varint_as<uint16_t>("compute cycles") : uint16_t{1};
  ctx.mask = inst.active_mask;
  ctx.next_pc = inst.pc + kPcStep;

  std::vector<uint64_t>& addr = inst.addresses;
  if (!is_memory(inst.kind)) {
    if (head & kAddressDeltas) throw DecodeError{"address flag on a non-memory instruction"};
    inst.access_bytes = 0;
    addr.clear();
    return;
  }
  inst.access_bytes = in.u8();
  const uint32_t n = inst.active_threads();
  addr.resize(n);
  if (n == 0) return;
  addr[0] = ctx.base + static_cast<uint64_t>(in.signed_varint());
  ctx.base = addr[0];
  if (head & kAddressDeltas) {
    for (uint32_t i = 1; i < n; ++i)
      addr[i] = addr[i - 1] + static_cast<uint64_t>(in.signed_varint());
  } else if (n > 1) {
    const uint64_t stride = static_cast<uint64_t>(in.signed_varint());
    for (uint32_t i = 1; i < n; ++i)
      addr[i] = addr[0] + stride * i;
  }
}

}  // namespace

NgtReader::NgtReader(const std::string& path) : NgtReader(OpenedInput(path)) {}

NgtReader::NgtReader(OpenedInput input)
    : warnings_(std::move(input.warnings)), input_(std::move(input.stream)) {
  unsigned char header[kFileHeaderBytes];
  size_t got = 0;
  while (got < sizeof(header)) {
    const size_t n = input_->read(reinterpret_cast<char*>(header) + got, sizeof(header) - got);
    if (n == 0) break;
    got += n;
  }
  const size_t compared = std::min(got, sizeof(kNgtMagic));
  if (got == 0 || std::memcmp(header, kNgtMagic, compared) != 0) {
    fail(0, "not a numagpu trace (expected the .ngt magic bytes 89 4E 47 54 0D 0A 1A 0A)");
  }
  if (got < sizeof(header)) {
    fail(got, "truncated: expected the " + std::to_string(sizeof(header)) + "-byte file header");
  }
  version_ = static_cast<uint16_t>(header[8] | header[9] << 8);
  const uint16_t flags = static_cast<uint16_t>(header[10] | header[11] << 8);
  if (version_ != kNgtVersion) {
    fail(8, "unsupported .ngt version " + std::to_string(version_) + " (this numagpu reads version " +
                std::to_string(kNgtVersion) + ")");
  }
  if (flags != 0) fail(10, "unsupported .ngt flags " + std::to_string(flags) + " (version 1 defines none)");
  if (read_record() != kKernelRecord)
    fail(record_offset_, "expected the kernel record, found " + record_name());
  decode_kernel();
}

void NgtReader::fail(uint64_t offset, const std::string& message) const {
  throw TraceError(input_->path() + ": at byte " + std::to_string(offset) + ": " + message);
}

std::string NgtReader::record_name() const {
  switch (record_type_) {
    case kKernelRecord:
      return "the kernel record";
    case kBlockRecord:
      return "thread block record #" + std::to_string(blocks_);
    case kEndRecord:
      return "the end record";
    default:
      return "a record of unknown type " + std::to_string(record_type_);
  }
}

void NgtReader::read_exact(void* dst, size_t size, const std::string& what) {
  size_t got = 0;
  while (got < size) {
    const size_t n = input_->read(static_cast<char*>(dst) + got, size - got);
    if (n == 0) {
      fail(input_->position(), "truncated: expected " + std::to_string(size) + " bytes of " + what +
                                   ", found " + std::to_string(got) + " before the end of the file");
    }
    got += n;
  }
}

// The payload grows with the bytes that actually arrive, one chunk at a time: a corrupt size field in a
// small file cannot make the reader allocate more than the file holds (plus one chunk).
void NgtReader::read_payload(uint32_t size) {
  constexpr size_t kChunk = size_t(1) << 20;
  payload_.clear();
  while (payload_.size() < size) {
    const size_t at = payload_.size();
    const size_t want = std::min<size_t>(kChunk, size - at);
    payload_.resize(at + want);
    size_t got = 0;
    while (got < want) {
      const size_t n = input_->read(reinterpret_cast<char*>(payload_.data()) + at + got, want - got);
      if (n == 0) {
        fail(input_->position(), "truncated: expected " + std::to_string(size) + " bytes of " +
                                     record_name() + ", found " + std::to_string(at + got) +
                                     " before the end of the file");
      }
      got += n;
    }
  }
}

uint8_t NgtReader::read_record() {
  record_offset_ = input_->position();
  unsigned char head[kRecordHeaderBytes];
  if (input_->read(reinterpret_cast<char*>(head), 1) == 0) {
    fail(record_offset_, "truncated: expected " +
                             (records_ == 0 ? std::string("the kernel record")
                                            : "another thread block record or the end record after " +
                                                  std::to_string(blocks_) + " thread blocks") +
                             ", found the end of the file");
  }
  record_type_ = head[0];
  read_exact(head + 1, kRecordHeaderBytes - 1, "the header of " + record_name());
  const uint32_t size = get_u32(head + 1);
  if (size > kMaxPayloadBytes) {
    fail(record_offset_,
         record_name() + " claims " + std::to_string(size) + " bytes (limit 1 GiB): corrupt file");
  }
  read_payload(size);
  unsigned char tail[4];
  read_exact(tail, sizeof(tail), "the checksum of " + record_name());
  const uint32_t stored = get_u32(tail);
  const uint32_t computed = record_crc(record_type_, payload_);
  if (stored != computed) {
    fail(record_offset_, "checksum mismatch in " + record_name() + " (stored " + hex32(stored) +
                             ", computed " + hex32(computed) + "): corrupt file");
  }
  ++records_;
  return record_type_;
}

void NgtReader::decode_kernel() {
  ByteCursor in(payload_.data(), payload_.data() + payload_.size());
  try {
    info_.name = in.string();
    info_.kernel_id = in.varint_as<uint32_t>("kernel id");
    for (Dim3* d : {&info_.grid, &info_.block}) {
      d->x = in.varint_as<uint32_t>("dimension");
      d->y = in.varint_as<uint32_t>("dimension");
      d->z = in.varint_as<uint32_t>("dimension");
    }
    info_.shared_mem_bytes = in.varint_as<uint32_t>("shared memory size");
    info_.registers_per_thread = in.varint_as<uint32_t>("register count");
    info_.shared_mem_base = in.varint();
    info_.local_mem_base = in.varint();
    if (!in.at_end()) throw DecodeError{"bytes left over after the last field"};
  } catch (const DecodeError& e) {
    fail(record_offset_ + kRecordHeaderBytes + in.offset(), "malformed kernel record: " + e.what);
  }
  if (const auto problem = check_launch_dims(info_))
    fail(record_offset_, "malformed kernel record: " + *problem);
}

bool NgtReader::next_block(ThreadBlock& block) {
  if (done_) return false;
  const uint8_t type = read_record();
  if (type == kBlockRecord) {
    decode_block(block);
    ++blocks_;
    return true;
  }
  if (type == kEndRecord) {
    finish_at_end_record();
    return false;
  }
  fail(record_offset_, "expected a thread block record or the end record, found " + record_name());
}

void NgtReader::decode_block(ThreadBlock& block) {
  ByteCursor in(payload_.data(), payload_.data() + payload_.size());
  try {
    block.x = in.varint_as<uint32_t>("block x");
    block.y = in.varint_as<uint32_t>("block y");
    block.z = in.varint_as<uint32_t>("block z");
    if (block.x >= info_.grid.x || block.y >= info_.grid.y || block.z >= info_.grid.z) {
      throw DecodeError{"thread block outside the grid"};
    }
    block.cta_id = info_.linear_cta_id(block.x, block.y, block.z);
    const uint64_t warps = in.varint();
    if (warps != info_.warps_per_cta()) {
      throw DecodeError{std::to_string(warps) + " warps, the kernel has " +
                        std::to_string(info_.warps_per_cta())};
    }
    block.warps.resize(warps);
    for (auto& insts : block.warps) {
      const uint64_t count = in.varint();
      // Every instruction takes at least one byte: a larger count is corruption, not a reason to allocate.
      if (count > payload_.size() - in.offset()) throw DecodeError{"instruction count exceeds the record"};
      insts.resize(count);
      WarpContext ctx;
      for (WarpInstruction& inst : insts)
        decode_instruction(in, ctx, inst);
      instructions_ += count;
    }
    if (!in.at_end()) throw DecodeError{"bytes left over after the last warp"};
  } catch (const DecodeError& e) {
    fail(record_offset_ + kRecordHeaderBytes + in.offset(), "malformed " + record_name() + ": " + e.what);
  }
}

void NgtReader::finish_at_end_record() {
  ByteCursor in(payload_.data(), payload_.data() + payload_.size());
  uint64_t blocks = 0;
  uint64_t instructions = 0;
  try {
    blocks = in.varint();
    instructions = in.varint();
    if (!in.at_end()) throw DecodeError{"bytes left over after the last field"};
  } catch (const DecodeError& e) {
    fail(record_offset_ + kRecordHeaderBytes + in.offset(), "malformed end record: " + e.what);
  }
  if (blocks != blocks_ || instructions != instructions_) {
    fail(record_offset_, "the end record counts " + std::to_string(blocks) + " thread blocks and " +
                             std::to_string(instructions) + " instructions, the file holds " +
                             std::to_string(blocks_) + " and " + std::to_string(instructions_));
  }
  char extra;
  if (input_->read(&extra, 1) != 0) fail(input_->position() - 1, "unexpected data after the end record");
  done_ = true;
}

}  // namespace numagpu::trace
