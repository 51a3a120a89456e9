#include "kernels/library.hpp"

#include <sstream>
#include <utility>

namespace numagpu::kernels {

#define NUMAGPU_KERNEL(id) LibraryEntry id();
#include "kernels/kernel_list.inc"
#undef NUMAGPU_KERNEL

namespace {

const std::map<std::string, LibraryEntry>& registry() {
  static const std::map<std::string, LibraryEntry> entries = [] {
    std::map<std::string, LibraryEntry> m;
#define NUMAGPU_KERNEL(id) id,
    for (LibraryEntry (*entry)() : {
#include "kernels/kernel_list.inc"
         }) {
#undef NUMAGPU_KERNEL
      LibraryEntry e = entry();
      m.emplace(e.name, std::move(e));
    }
    return m;
  }();
  return entries;
}

std::string names_of(const std::vector<ArgSpec>& specs) {
  std::string s;
  for (const ArgSpec& a : specs)
    s += (s.empty() ? "" : ", ") + a.name;
  return s.empty() ? "none" : s;
}

}  // namespace

const std::map<std::string, LibraryEntry>& library() {
  return registry();
}

Args::Args(const std::vector<ArgSpec>& specs, const std::string& text, std::uint64_t base, Bindings bindings)
    : base_(base), bindings_(std::move(bindings)) {
  for (const ArgSpec& a : specs)
    values_[a.name] = a.default_value;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0)
      throw KernelError("'" + item + "' is not name=value (arguments: " + names_of(specs) + ")");
    const std::string name = item.substr(0, eq), value = item.substr(eq + 1);
    const ArgSpec* spec = nullptr;
    for (const ArgSpec& a : specs)
      if (a.name == name) spec = &a;
    if (!spec) throw KernelError("unknown argument '" + name + "' (arguments: " + names_of(specs) + ")");
    const auto [first, fresh] = given_.emplace(name, item);
    if (!fresh)
      throw KernelError("argument '" + name + "' is given twice ('" + first->second + "', then '" + item +
                        "')");
    std::int64_t v = 0;
    std::size_t used = 0;
    try {
      v = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || value.empty())
      throw KernelError("argument '" + name + "': '" + value + "' is not an integer");
    if (v < spec->min || v > spec->max) {
      throw KernelError("argument '" + name + "': " + value + " is outside " + std::to_string(spec->min) +
                        ".." + std::to_string(spec->max));
    }
    values_[name] = v;
  }
}

std::int64_t Args::operator[](const std::string& name) const {
  const auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("kernel asks for an undeclared argument " + name);
  return it->second;
}

std::unique_ptr<Kernel> make_kernel(const std::string& name, const std::string& args, std::uint64_t base,
                                    Bindings bindings) {
  const auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& [n, e] : registry())
      known += (known.empty() ? "" : ", ") + n;
    throw KernelError("unknown kernel '" + name + "' (the library has: " + known +
                      "; numagpu kernels lists them)");
  }
  try {
    return it->second.make(Args(it->second.args, args, base, std::move(bindings)));
  } catch (const RecordingStopped&) {  // generation stopped by an interrupt (interrupt_point)
    throw KernelError(name + ": interrupted while its input was generated");
  }
}

}  // namespace numagpu::kernels
