// IEEE binary16 (PTX .f16) conversions, done in integer arithmetic so they do not depend on the host's
// half-precision support.
#pragma once

#include <cstdint>
#include <cstring>

namespace numagpu::ptx {

inline float bits_to_float(std::uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
inline std::uint32_t float_to_bits(float f) {
  std::uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline double bits_to_double(std::uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
inline std::uint64_t double_to_bits(double d) {
  std::uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

inline float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
  const std::uint32_t exp = (h >> 10) & 0x1f;
  std::uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f) return bits_to_float(sign | 0x7f800000u | (mant << 13));  // inf, NaN
  if (exp == 0) {
    if (mant == 0) return bits_to_float(sign);
    int e = -14;  // subnormal: normalize
    while (!(mant & 0x400u)) {
      mant <<= 1;
      --e;
    }
    mant &= 0x3ffu;
    return bits_to_float(sign | std::uint32_t(e + 127) << 23 | mant << 13);
  }
  return bits_to_float(sign | (exp + 112) << 23 | mant << 13);
}

// Round to nearest even (cvt.rn.f16.f32); `mode` 1: toward zero, 2: down, 3: up.
inline std::uint16_t float_to_half(float f, int mode = 0) {
  const std::uint32_t b = float_to_bits(f);
  const std::uint16_t sign = static_cast<std::uint16_t>((b >> 16) & 0x8000u);
  const std::uint32_t abs = b & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0);  // inf, NaN (quiet)
  const bool negative = sign != 0;
  auto round_up = [&](std::uint32_t rest, std::uint32_t half, bool odd) {
    switch (mode) {
      case 1:
        return false;
      case 2:
        return negative && rest != 0;
      case 3:
        return !negative && rest != 0;
      default:
        return rest > half || (rest == half && odd);
    }
  };
  const int e = int(abs >> 23) - 127;
  if (e > 15) {  // overflow: inf, or the largest finite value when rounding toward zero / away from it
    const bool to_inf = mode == 0 || (mode == 2 && negative) || (mode == 3 && !negative);
    return sign | (to_inf ? 0x7c00u : 0x7bffu);
  }
  std::uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
  unsigned shift;
  std::uint32_t base;
  if (e >= -14) {
    shift = 13;
    base = std::uint32_t(e + 15) << 10;
    mant &= 0x7fffffu;
  } else {
    if (abs == 0) return sign;
    shift = static_cast<unsigned>(-e - 14 + 13);
    if (shift > 31) return sign | (round_up(1, 2, false) ? 1 : 0);
    base = 0;
  }
  const std::uint32_t q = mant >> shift;
  const std::uint32_t rest = mant & ((1u << shift) - 1);
  std::uint32_t h = base + q;
  if (round_up(rest, 1u << (shift - 1), q & 1)) ++h;  // a carry into the exponent is right
  return static_cast<std::uint16_t>(sign | h);
}

}  // namespace numagpu::ptx
