// Deterministic input generation for the library's kernels: a small, fast, seedable stream (splitmix64,
// Steele, Lea and Flood 2014), so a kernel's generated input depends on its `seed` argument only.
#pragma once

#include <cstdint>

namespace numagpu::kernels {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // Uniform in [0, 1).
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace numagpu::kernels
