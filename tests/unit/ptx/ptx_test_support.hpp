// A WarpSink that records what the executor reports and a GlobalMemory over host vectors, for the PTX tests.
#pragma once

#include <cstdint>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "ptx/kernel.hpp"
#include "ptx/module.hpp"

namespace numagpu::ptx::test {

struct RecordingSink : WarpSink {
  struct Compute {
    unsigned warp;
    InstrClass cls;
    std::uint32_t lanes, operands_ready;
    unsigned latency;
  };
  struct Access {
    unsigned warp;
    Step::Kind kind;
    std::uint32_t lanes;
    std::vector<std::uint64_t> addresses;  // active lanes' only, in lane order
    unsigned bytes;
  };
  std::vector<Compute> computes;
  std::vector<Access> globals, shared, constants;
  std::vector<std::pair<unsigned, std::uint32_t>> barriers;
  std::uint32_t result_cycle = 0;  // what compute() returns

  static std::vector<std::uint64_t> active(std::uint32_t lanes, const std::uint64_t* a) {
    std::vector<std::uint64_t> v;
    for (unsigned l = 0; l < 32; ++l)
      if (lanes >> l & 1) v.push_back(a[l]);
    return v;
  }
  std::uint32_t compute(unsigned w, InstrClass cls, std::uint32_t lanes, std::uint32_t ready,
                        unsigned latency) override {
    computes.push_back({w, cls, lanes, ready, latency});
    return result_cycle;
  }
  void global_access(unsigned w, Step::Kind kind, std::uint32_t lanes, const std::uint64_t* a, unsigned bytes,
                     std::uint32_t) override {
    globals.push_back({w, kind, lanes, active(lanes, a), bytes});
  }
  std::uint32_t shared_access(unsigned w, std::uint32_t lanes, const std::uint64_t* a, unsigned bytes,
                              std::uint32_t) override {
    shared.push_back({w, Step::Kind::kLoad, lanes, active(lanes, a), bytes});
    return 0;
  }
  std::uint32_t constant_access(unsigned w, std::uint32_t lanes, const std::uint64_t* a,
                                std::uint32_t) override {
    constants.push_back({w, Step::Kind::kLoad, lanes, active(lanes, a), 0});
    return 0;
  }
  void barrier(unsigned w, std::uint32_t lanes) override { barriers.push_back({w, lanes}); }
  unsigned count(InstrClass cls) const {
    unsigned n = 0;
    for (const auto& c : computes)
      n += c.cls == cls;
    return n;
  }
};

// Allocations at fixed simulated addresses, backed by host bytes.
struct VectorMemory : GlobalMemory {
  struct Block {
    std::uint64_t base;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<Block> blocks;
  std::uint64_t next = 0x10000;
  template <class T>
  std::uint64_t add(const std::vector<T>& v) {
    Block b{next, std::vector<std::uint8_t>(v.size() * sizeof(T))};
    std::memcpy(b.bytes.data(), v.data(), b.bytes.size());
    next += (b.bytes.size() + 0xffff) / 0x10000 * 0x10000 + 0x10000;
    blocks.push_back(std::move(b));
    return blocks.back().base;
  }
  template <class T>
  std::vector<T> get(std::uint64_t base) const {
    for (const Block& b : blocks)
      if (b.base == base) {
        std::vector<T> v(b.bytes.size() / sizeof(T));
        std::memcpy(v.data(), b.bytes.data(), b.bytes.size());
        return v;
      }
    return {};
  }
  std::uint8_t* resolve(std::uint64_t a, std::uint64_t n) override {
    for (Block& b : blocks)
      if (a >= b.base && a + n <= b.base + b.bytes.size() && a + n >= a) return b.bytes.data() + (a - b.base);
    return nullptr;
  }
};

// Kernel parameters laid out as the entry's .param list says.
struct Params {
  std::vector<std::uint8_t> bytes;
  template <class T>
  Params& add(const Kernel& k, unsigned i, T v) {
    const ParamInfo& p = k.params().at(i);
    if (bytes.size() < p.offset + sizeof(T)) bytes.resize(p.offset + sizeof(T));
    std::memcpy(bytes.data() + p.offset, &v, sizeof(T));
    return *this;
  }
};

inline std::string read_data(const std::string& name) {
  std::ifstream f(std::string(NUMAGPU_PTX_DATA) + "/" + name);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A module of one kernel `k` with body `body` (registers declared by the caller).
inline std::string kernel_text(const std::string& params, const std::string& body) {
  return ".version 6.0\n.target sm_70\n.address_size 64\n.visible .entry k(" + params + ")\n{\n" + body +
         "}\n";
}

}  // namespace numagpu::ptx::test
