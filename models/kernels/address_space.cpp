#include "kernels/address_space.hpp"

#include <algorithm>

#include "kernels/library.hpp"

namespace numagpu::kernels {

std::uint64_t AddressSpace::reserve(const std::string& name, std::uint64_t count, std::size_t element_bytes,
                                    std::uint64_t rows, std::uint64_t cols) {
  // count x element_bytes compared without the product, which can wrap for a count near 2^64.
  const std::uint64_t room = kMaxBytes - total_bytes_;
  if (count > room / element_bytes) {
    throw KernelError("array '" + name + "' brings the arrays to more than " + std::to_string(kMaxBytes) +
                      " B (1 TiB) together, more than any modelled GPU holds; smaller arguments fit");
  }
  runtime::Allocation al;
  al.name = name;
  al.base = next_;
  al.bytes = count * element_bytes;
  al.element_bytes = static_cast<std::uint32_t>(element_bytes);
  if (rows && cols) al.shape = runtime::Shape{rows, cols, 1};
  allocations_.push_back(al);
  total_bytes_ += al.bytes;
  next_ += (std::max<std::uint64_t>(al.bytes, 1) + kAlign - 1) / kAlign * kAlign;
  return al.base;
}

}  // namespace numagpu::kernels
