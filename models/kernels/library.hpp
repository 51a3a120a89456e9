// The kernel library: CUDA-style kernels written in C++ (kernels/simt.hpp), selected from the configuration
// by name (`workload.kernels[].kernel: rodinia/hotspot`) with their arguments (`args: "rows=1024 ..."`).
// One small file per kernel, named after its suite and kernel (docs/kernels.md).
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/address_space.hpp"
#include "kernels/metis_graph.hpp"
#include "kernels/simt.hpp"
#include "runtime/lasp.hpp"
#include "runtime/placement.hpp"

namespace numagpu::kernels {

// Generating a kernel's input (prepare(), or its constructor) runs for seconds at large arguments in host
// time in which no simulated time passes, so no interrupt poller runs: its loops call interrupt_point(), a
// counter that every 2^20 calls (tens of milliseconds of generation) asks the process's interrupt check
// (kernels/metis_graph.hpp, interrupt_requested) and throws RecordingStopped when the run is being
// interrupted. From prepare() that ends the CTA being recorded, as an interrupt of the recording does; from
// a constructor make_kernel turns it into a KernelError, which the program reports as the interrupt.
inline void interrupt_point() {
  static thread_local std::uint32_t calls = 0;
  if ((++calls & 0xFFFFFu) == 0 && interrupt_requested()) throw RecordingStopped{};
}
// `v` grown to `n` value-initialized elements (zeros) 4 MiB at a time, asking the interrupt check between
// steps: zero-filling a GiB array is seconds of page faults that no loop of the generation's can look into.
template <class T>
void resize_interruptibly(std::vector<T>& v, std::size_t n) {
  const std::size_t step = std::max<std::size_t>(1, (std::size_t(4) << 20) / sizeof(T));
  v.reserve(n);
  while (v.size() < n) {
    if (interrupt_requested()) throw RecordingStopped{};
    v.resize(std::min(n, v.size() + step));
  }
  v.resize(n);
}
// `v` as n zeros, as v.assign(n, 0) makes it, interruptibly (resize_interruptibly).
template <class T>
void zeros_interruptibly(std::vector<T>& v, std::size_t n) {
  v.clear();
  resize_interruptibly(v, n);
}

// A bad kernel name or argument: one line, said at the configuration key by the caller.
class KernelError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct ArgSpec {
  std::string name;
  std::int64_t default_value;
  std::int64_t min, max;
  std::string doc;
};

// An array of someone else's (an application's, kernels/application.hpp) that a kernel uses in place of one
// of its own: the kernel's array of that name takes this address (and these values, if `data` is set) and is
// not one of the kernel's allocations. This is how an application's kernels share its arrays.
struct BoundArray {
  std::uint64_t base = 0;
  std::uint64_t bytes = 0;
  std::size_t element_bytes = 0;
  void* data = nullptr;  // a std::vector<T>* of the element type, or null (the kernel's own values, if any)
  // The values live in the System's functional store (memory.functional): the kernel holds them in an array
  // of its own, read from the store at its launch and written back at its end (KernelProgram::load_data).
  // With element_bytes 0, the array has the kernel's element type and count (a host gives its address only).
  bool in_store = false;
};
using Bindings = std::map<std::string, BoundArray>;

// Argument values by name, parsed from "name=value name=value" against the kernel's ArgSpecs.
class Args {
 public:
  // Throws KernelError. `base`: the first byte of the kernel's arrays in the simulated address space;
  // `bindings`: arrays the kernel takes from its caller (by the kernel's array name).
  Args(const std::vector<ArgSpec>& specs, const std::string& text, std::uint64_t base,
       Bindings bindings = {});
  std::int64_t operator[](const std::string& name) const;
  // Whether the text gave the argument (else it has its default).
  bool given(const std::string& name) const { return given_.count(name) != 0; }
  std::uint64_t base() const { return base_; }
  const Bindings& bindings() const { return bindings_; }

 private:
  std::map<std::string, std::int64_t> values_;
  std::map<std::string, std::string> given_;  // name -> its name=value as written
  std::uint64_t base_;
  Bindings bindings_;
};

// One launch of a kernel: its shape, what it declares for occupancy, and its body (run once per CTA).
struct Launch {
  Dim3 grid, block;
  unsigned regs_per_thread = 32;
  std::uint64_t shared_bytes = 0;  // per CTA
  std::function<void(Cta&)> body;
  // LASP (runtime/lasp.hpp): each array's index terms, as the body's index expressions decompose into
  // prime variables (LADM §III-C), at this launch's sizes; made with lasp_access(). Empty: not stated (the
  // runtime's default, kernel-wide, applies to the kernel).
  std::vector<runtime::ArrayAccess> accesses;
};

// `a` accessed with `index`, each CTA touching `datablock_bytes` of it per iteration (LADM §III-B).
template <class T>
runtime::ArrayAccess lasp_access(const Array<T>& a, const runtime::IndexTerms& index,
                                 std::uint64_t datablock_bytes = 0) {
  return runtime::ArrayAccess{a.name, a.base, index, datablock_bytes};
}

// A kernel with its arguments applied: the arrays it uses (placed as workload allocations, so every
// placement policy applies) and its launch. Arrays whose values matter are filled by prepare(), which runs
// once, before the first CTA executes (not when the configuration is checked).
class Kernel {
 public:
  explicit Kernel(const Args& args) : space_(args.base()), bindings_(args.bindings()) {}
  virtual ~Kernel() = default;
  virtual Launch launch() = 0;
  virtual void prepare() {}
  const std::vector<runtime::Allocation>& allocations() const { return space_.allocations(); }
  // The first byte after the kernel's arrays (2 MiB aligned): where the next kernel's may start.
  std::uint64_t end_address() const { return space_.end(); }
  // The contents of the array `name` if it carries data (null otherwise, or if T is not its element
  // type): what prepare() generated and the CTAs executed so far stored, for tests of data-dependent
  // kernels.
  template <class T>
  const std::vector<T>* contents(const std::string& name) const {
    return space_.contents<T>(name);
  }
  // The arrays bound with BoundArray::in_store: where they are and their values' bytes.
  struct StoreArray {
    std::string name;
    std::uint64_t base = 0;
    std::uint64_t bytes = 0;
    void* values = nullptr;
  };
  const std::vector<StoreArray>& store_arrays() const { return store_arrays_; }

 protected:
  // An array of `count` elements, placed in the kernel's address space (AddressSpace::place). `rows`/`cols`
  // give a 2-D shape for LADM's placements. An array the caller bound (Args::bindings) is the caller's: its
  // address, its values if it has them.
  template <class T>
  Array<T> array(const std::string& name, std::uint64_t count, std::uint64_t rows = 0, std::uint64_t cols = 0,
                 std::vector<T>* data = nullptr) {
    const auto bound = bindings_.find(name);
    if (bound == bindings_.end()) return space_.place<T>(name, count, rows, cols, data);
    const BoundArray& b = bound->second;
    const bool sized_by_kernel = b.in_store && b.element_bytes == 0;  // a host's address alone
    if (!sized_by_kernel && (b.element_bytes != sizeof(T) || b.bytes < count * sizeof(T))) {
      throw KernelError("array '" + name + "' is bound to one of " + std::to_string(b.bytes) + " B of " +
                        std::to_string(b.element_bytes) + "-byte elements; the kernel needs " +
                        std::to_string(count * sizeof(T)) + " B of " + std::to_string(sizeof(T)) + "-byte");
    }
    Array<T> a;
    a.name = name;
    a.base = b.base;
    a.count = count;
    a.data = b.data ? static_cast<std::vector<T>*>(b.data) : data;
    if (b.in_store) {
      auto values = std::make_shared<std::vector<T>>(count);
      store_arrays_.push_back({name, b.base, count * sizeof(T), values->data()});
      a.data = values.get();
      held_.push_back(std::move(values));
    }
    if (a.data) space_.keep_contents(name, a.data);
    return a;
  }

 private:
  AddressSpace space_;
  Bindings bindings_;
  std::vector<StoreArray> store_arrays_;
  std::vector<std::shared_ptr<void>> held_;  // the values of store_arrays_
};

struct LibraryEntry {
  std::string name;    // suite/kernel
  std::string source;  // what it was learned from, and the reference input
  std::vector<ArgSpec> args;
  std::function<std::unique_ptr<Kernel>(const Args&)> make;
};

// Every kernel, by name.
const std::map<std::string, LibraryEntry>& library();
// The kernel `name` with `args` applied, its arrays from `base` on; throws KernelError naming what is wrong.
std::unique_ptr<Kernel> make_kernel(const std::string& name, const std::string& args, std::uint64_t base,
                                    Bindings bindings = {});

// Each kernel's file, models/kernels/<suite>/<kernel>.cpp, defines `LibraryEntry <suite>_<kernel>()`;
// kernels/library.cpp calls them from a list generated from the file names (models/CMakeLists.txt). An
// explicit list, because static registration objects in a static library are dropped by the linker when
// nothing refers to them.

}  // namespace numagpu::kernels
