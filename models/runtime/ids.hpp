// Identifier types shared by the runtime's policies.
#pragma once

#include <cstdint>

namespace numagpu::runtime {

using SocketId = std::uint16_t;  // same width as NumaAttr::home_socket
using CtaId = std::uint32_t;     // linear CTA id, as the SM model counts them

}  // namespace numagpu::runtime
