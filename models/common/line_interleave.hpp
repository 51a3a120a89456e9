// How a line picks its L2 slice and its DRAM channel (memory.interleave, docs/memory-system.md,
// "Interleaving"). Both take index(line) mod their count, so a slice always feeds the same channel when the
// slices are a multiple of the channels.
//
// - plain (the default): index(line) is the line number itself, so a slice is `line mod banks` and a channel
//   `line mod channels`. Any stride that is a multiple of the count lands on one slice: all the SMs of a
//   streaming kernel whose warps stride by a multiple of 32 lines queue on the same few channels (partition
//   camping).
// - ipoly: index(line) is the line number as a polynomial over GF(2) (bit i the coefficient of x^i) modulo a
//   primitive polynomial P(x) of degree `bits` (B. R. Rau, "Pseudo-randomly interleaved memory", ISCA
//   1991), the hash Accel-Sim selects for the GV100's memory partitions (-gpgpu_memory_partition_indexing
//   2, with these polynomials for 16, 32 and 64 partitions). Since P(x) is irreducible, x^s is invertible
//   modulo it: the 2^bits lines i x 2^s (i = 0 .. 2^bits - 1) of any power-of-two stride 2^s land on
//   2^bits different partitions.
//
// The low `bits` bits of a line pass through the remainder unchanged (x^i mod P = x^i below the degree) and
// are XORed with a function of the bits above them. A slice of 2^m (m <= bits) lines can therefore keep a
// line as `line >> m` (its tag line): the slice number and the upper bits give back the low bits
// (line_of()). Plain C++, no SystemC.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>

namespace numagpu {

class LineInterleave {
 public:
  static constexpr unsigned kMaxBits = 12;  // 4,096 partitions: the primitive polynomials below

  LineInterleave() = default;  // plain

  // ipoly over 2^bits partitions; bits 0 (one partition) is plain.
  static LineInterleave ipoly(unsigned bits) {
    if (bits > kMaxBits) throw std::invalid_argument("ipoly interleave over more than 2^12 partitions");
    LineInterleave h;
    h.bits_ = bits;
    if (bits == 0) return h;
    h.low_mask_ = (std::uint64_t(1) << bits) - 1;
    // residue_[j] = x^(bits + j) mod P: start from x^bits = P - x^bits (the terms below the degree), and
    // multiply by x, reducing by P whenever the degree reaches `bits`.
    const std::uint32_t p = kPrimitive[bits];
    std::uint32_t r = p & ~(std::uint32_t(1) << bits);
    for (unsigned j = 0; j + bits < 64; ++j) {
      h.residue_[j] = static_cast<std::uint16_t>(r);
      r <<= 1;
      if (r & (std::uint32_t(1) << bits)) r ^= p;
    }
    return h;
  }

  bool hashed() const { return bits_ != 0; }
  unsigned bits() const { return bits_; }

  // The line's interleave index: its partition among n (a power of two at most 2^bits when hashed) is
  // index mod n.
  std::uint64_t index(std::uint64_t line) const {
    if (bits_ == 0) return line;
    std::uint64_t h = line & low_mask_;
    for (std::uint64_t up = line >> bits_; up; up &= up - 1)
      h ^= residue_[unsigned(__builtin_ctzll(up))];
    return h;
  }

  // The line of partition `partition` among 2^m (m <= bits when hashed) whose bits above the low m are
  // `upper`: the inverse of (line >> m, index(line) mod 2^m). The low m bits of index(upper << m) are what
  // the upper bits contribute; XORed with the partition they give the line's own low bits.
  std::uint64_t line_of(std::uint64_t upper, std::uint64_t partition, unsigned m) const {
    const std::uint64_t mask = (std::uint64_t(1) << m) - 1;
    const std::uint64_t base = upper << m;
    return base | ((partition ^ index(base)) & mask);
  }

 private:
  // Primitive polynomials over GF(2) of degree 1 .. 12 with the fewest terms (bit i: the coefficient of
  // x^i), W. W. Peterson and E. J. Weldon, "Error-Correcting Codes", 2nd ed., MIT Press 1972, Appendix C;
  // degrees 4, 5 and 6 (x^4+x+1, x^5+x^2+1, x^6+x+1) are the ones Accel-Sim's IPOLY hash uses for 16, 32 and
  // 64 partitions.
  static constexpr std::array<std::uint32_t, kMaxBits + 1> kPrimitive = {
      0x0,     // (none)
      0x3,     // x + 1
      0x7,     // x^2 + x + 1
      0xb,     // x^3 + x + 1
      0x13,    // x^4 + x + 1
      0x25,    // x^5 + x^2 + 1
      0x43,    // x^6 + x + 1
      0x89,    // x^7 + x^3 + 1
      0x11d,   // x^8 + x^4 + x^3 + x^2 + 1
      0x211,   // x^9 + x^4 + 1
      0x409,   // x^10 + x^3 + 1
      0x805,   // x^11 + x^2 + 1
      0x1053,  // x^12 + x^6 + x^4 + x + 1
  };
  unsigned bits_ = 0;
  std::uint64_t low_mask_ = 0;
  std::array<std::uint16_t, 64> residue_{};
};

}  // namespace numagpu
