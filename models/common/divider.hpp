// Division by a number fixed at construction (a line size, a bank or channel count). Every request divides
// its address several times on its way; a 64-bit `div` costs tens of cycles where a power of two needs a
// shift or a mask, and line sizes, banks and channels are powers of two in every shipped configuration.
#pragma once

#include <cstdint>
#include <stdexcept>

namespace numagpu {

class Divider {
 public:
  explicit Divider(std::uint64_t divisor) : divisor_(divisor) {
    if (divisor == 0) throw std::invalid_argument("Divider: division by zero");
    power_of_two_ = (divisor & (divisor - 1)) == 0;
    shift_ = static_cast<unsigned>(__builtin_ctzll(divisor));
  }
  std::uint64_t divisor() const { return divisor_; }
  std::uint64_t quotient(std::uint64_t x) const { return power_of_two_ ? x >> shift_ : x / divisor_; }
  std::uint64_t remainder(std::uint64_t x) const { return power_of_two_ ? x & (divisor_ - 1) : x % divisor_; }

 private:
  std::uint64_t divisor_;
  unsigned shift_ = 0;
  bool power_of_two_ = false;
};

}  // namespace numagpu
