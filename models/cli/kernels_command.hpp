// numagpu kernels: the C++ kernel library with each kernel's arguments and defaults (docs/kernels.md).
#pragma once

#include <ostream>

namespace numagpu {

int kernels_command(std::ostream& out);

}  // namespace numagpu
