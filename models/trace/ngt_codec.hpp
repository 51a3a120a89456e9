// Byte-level pieces of the .ngt format shared by its writer and reader: record types, instruction head
// bits, little-endian integers, LEB128 varints and zigzag signed values. Internal to models/trace.
#pragma once

#include <cstdint>
#include <string>

namespace numagpu::trace::ngt {

// Record types (one byte, printable so a hex dump is readable).
inline constexpr uint8_t kKernelRecord = 'K';
inline constexpr uint8_t kBlockRecord = 'B';
inline constexpr uint8_t kEndRecord = 'E';

inline constexpr size_t kFileHeaderBytes = 12;   // magic, u16 version, u16 flags
inline constexpr size_t kRecordHeaderBytes = 5;  // u8 type, u32 payload length
inline constexpr uint32_t kMaxPayloadBytes = 1u << 30;

// Instruction head byte:  bits 0-2 kind | bits 3-4 mask mode | bit 5 pc follows | bit 6 cycles | bit 7 deltas
inline constexpr uint8_t kKindMask = 0x07;
inline constexpr int kMaskModeShift = 3;
inline constexpr uint8_t kMaskSame = 0;          // same active mask as the warp's previous instruction
inline constexpr uint8_t kMaskFull = 1;          // 0xffffffff
inline constexpr uint8_t kMaskExplicit = 2;      // u32 follows
inline constexpr uint8_t kPcSequential = 0x20;   // pc = previous pc + 16 (no field)
inline constexpr uint8_t kHasCycles = 0x40;      // compute_cycles != 1: varint follows
inline constexpr uint8_t kAddressDeltas = 0x80;  // per-thread deltas instead of one stride
inline constexpr uint32_t kPcStep = 16;          // SASS instruction size since Volta

// Per-warp context that the delta encodings are relative to; both sides start every warp from this state.
struct WarpContext {
  uint32_t mask = 0xffffffffu;
  uint32_t next_pc = 0;
  uint64_t base = 0;
};

inline uint64_t zigzag(int64_t v) {
  return (static_cast<uint64_t>(v) << 1) ^ static_cast<uint64_t>(v >> 63);
}
inline int64_t unzigzag(uint64_t v) {
  return static_cast<int64_t>(v >> 1) ^ -static_cast<int64_t>(v & 1);
}

inline void put_u8(std::string& out, uint8_t v) {
  out.push_back(static_cast<char>(v));
}

inline void put_u16(std::string& out, uint16_t v) {
  put_u8(out, static_cast<uint8_t>(v));
  put_u8(out, static_cast<uint8_t>(v >> 8));
}

inline void put_u32(std::string& out, uint32_t v) {
  for (int i = 0; i < 4; ++i)
    put_u8(out, static_cast<uint8_t>(v >> (8 * i)));
}

inline void put_varint(std::string& out, uint64_t v) {
  while (v >= 0x80) {
    put_u8(out, static_cast<uint8_t>(v | 0x80));
    v >>= 7;
  }
  put_u8(out, static_cast<uint8_t>(v));
}

inline void put_signed(std::string& out, int64_t v) {
  put_varint(out, zigzag(v));
}

inline void put_string(std::string& out, const std::string& s) {
  put_varint(out, s.size());
  out += s;
}

inline uint32_t get_u32(const unsigned char* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

// Reads a record payload; every getter throws DecodeError past the end or on an over-long varint, which
// the reader turns into a TraceError with the file and offset.
struct DecodeError {
  std::string what;
};

class ByteCursor {
 public:
  ByteCursor(const unsigned char* begin, const unsigned char* end) : begin_(begin), p_(begin), end_(end) {}

  size_t offset() const { return static_cast<size_t>(p_ - begin_); }
  bool at_end() const { return p_ == end_; }

  uint8_t u8() {
    need(1);
    return *p_++;
  }
  uint32_t u32() {
    need(4);
    const uint32_t v = get_u32(p_);
    p_ += 4;
    return v;
  }
  uint64_t varint() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      need(1);
      const uint8_t byte = *p_++;
      if (shift == 63 && byte > 1) break;  // bits beyond 64
      v |= uint64_t{byte & 0x7fu} << shift;
      if ((byte & 0x80) == 0) return v;
    }
    throw DecodeError{"varint exceeds 64 bits"};
  }
  int64_t signed_varint() { return unzigzag(varint()); }
  // A varint that must fit in T.
  template <typename T>
  T varint_as(const char* what) {
    const uint64_t v = varint();
    if (v > static_cast<uint64_t>(static_cast<T>(~T{0})))
      throw DecodeError{std::string(what) + " out of range"};
    return static_cast<T>(v);
  }
  std::string string() {
    const uint64_t size = varint();
    need(size);
    std::string s(reinterpret_cast<const char*>(p_), size);
    p_ += size;
    return s;
  }

 private:
  void need(uint64_t n) const {
    if (static_cast<uint64_t>(end_ - p_) < n) throw DecodeError{"record ends in the middle of a field"};
  }

  const unsigned char* begin_;
  const unsigned char* p_;
  const unsigned char* end_;
};

}  // namespace numagpu::trace::ngt
