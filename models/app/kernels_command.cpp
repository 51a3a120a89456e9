#include "app/kernels_command.hpp"

#include "kernels/library.hpp"

namespace numagpu {

int kernels_command(std::ostream& out) {
  for (const auto& [name, entry] : kernels::library()) {
    out << name << "\n  " << entry.source << "\n";
    for (const kernels::ArgSpec& a : entry.args) {
      out << "  " << a.name << "=" << a.default_value << "  (" << a.min << ".." << a.max << ") " << a.doc
          << "\n";
    }
  }
  return 0;
}

}  // namespace numagpu
