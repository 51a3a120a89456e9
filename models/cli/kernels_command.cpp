#include "cli/kernels_command.hpp"

#include "kernels/application.hpp"
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
  out << "\nApplications (workload.kernels[].app, with args and input; docs/kernels.md):\n";
  for (const auto& [name, entry] : kernels::apps()) {
    out << name << "\n  " << entry.source << "\n";
    if (!entry.default_input.empty()) out << "  input: " << entry.default_input << "\n";
    for (const kernels::ArgSpec& a : entry.args) {
      out << "  " << a.name << "=" << a.default_value << "  (" << a.min << ".." << a.max << ") " << a.doc
          << "\n";
    }
  }
  return 0;
}

}  // namespace numagpu
