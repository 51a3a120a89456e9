// A traffic generator of the user's own: a KernelProgram class that makes each warp's memory steps in C++,
// with no trace and no pattern of numagpu's, given to a 2-socket System in place of the configuration's
// kernels. It runs a producer/consumer exchange between the sockets and checks the traffic against counts
// derived by hand; a wrong count exits 1.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "numagpu/numagpu.hpp"

namespace {

constexpr std::uint32_t kCtas = 8;          // CTAs per kernel
constexpr std::uint32_t kWarpsPerCta = 2;   // warps per CTA
constexpr std::uint32_t kLinesPerCta = 32;  // one 4 KiB page of 128 B lines per CTA
constexpr std::uint64_t kLineBytes = 128;
constexpr std::uint64_t kBase = 1ull << 30;  // the exchanged buffer

// Each CTA owns one block of kLinesPerCta lines (one page); its warps split the block in halves and take one
// line per step. The producer stores its own block; the consumer loads the block of the CTA half a grid
// away, which the runtime (contiguous CTA blocks) put on the other socket.
class Exchange : public numagpu::KernelProgram {
 public:
  enum class Role { kProduce, kConsume };
  explicit Exchange(Role role) : role_(role), name_(role == Role::kProduce ? "produce" : "consume") {}

  const std::string& name() const override { return name_; }
  std::uint32_t ctas() const override { return kCtas; }
  std::uint32_t warps_per_cta() const override { return kWarpsPerCta; }

  bool step(std::uint32_t cta, std::uint32_t warp, std::uint32_t index, numagpu::Step& out) const override {
    constexpr std::uint32_t kLinesPerWarp = kLinesPerCta / kWarpsPerCta;
    if (index >= kLinesPerWarp) return false;  // the warp exits
    const std::uint32_t block = role_ == Role::kProduce ? cta : (cta + kCtas / 2) % kCtas;
    out = numagpu::Step{};
    out.kind = role_ == Role::kProduce ? numagpu::Step::Kind::kStore : numagpu::Step::Kind::kLoad;
    out.line_count = 1;
    out.lines[0] = kBase + (std::uint64_t(block) * kLinesPerCta + warp * kLinesPerWarp + index) * kLineBytes;
    return true;
  }

 private:
  Role role_;
  std::string name_;
};

int failures = 0;

void expect(bool ok, const std::string& what) {
  std::cout << (ok ? "ok:   " : "FAIL: ") << what << "\n";
  if (!ok) ++failures;
}

int run() {
  // Two sockets of 4 SMs; the paper's runtime: contiguous CTA blocks, pages homed where first touched.
  const numagpu::Configuration config = numagpu::Configuration::from_yaml(
      "system: {sockets: 2}\nsm: {per_socket: 4}\nruntime: {cta_schedule: contiguous}\n"
      "memory: {placement: first_touch, page_bytes: 4096}\n");
  std::vector<std::unique_ptr<numagpu::KernelProgram>> kernels;
  kernels.push_back(std::make_unique<Exchange>(Exchange::Role::kProduce));
  kernels.push_back(std::make_unique<Exchange>(Exchange::Role::kConsume));

  numagpu::stats::Registry stats;
  numagpu::System gpu("gpu", config, stats, std::move(kernels));
  sc_core::sc_start();  // no clock of the host's here: the simulation ends when the System has drained
  const numagpu::RunFacts& facts = gpu.summary();

  // Derivation. Contiguous blocks over 2 sockets: CTAs 0-3 on socket 0, 4-7 on socket 1, in both kernels.
  // produce: 8 CTAs x 32 lines = 256 stores, 0 loads. Block b is page b (32 lines x 128 B = 4 KiB from a
  //   page boundary), first touched by CTA b's store, so pages 0-3 are homed on socket 0 and 4-7 on socket 1:
  //   every store is local.
  // consume: 8 CTAs x 32 lines = 256 loads. CTA c loads block (c + 4) mod 8: CTAs 0-3 (socket 0) read pages
  //   4-7 (socket 1) and CTAs 4-7 read pages 0-3: every load goes over the link, 128 per socket.
  expect(gpu.done() && gpu.healthy(), "done, no protocol, audit or watchdog report");
  expect(facts.kernels_done == 2 && facts.kernels_total == 2, "2 of 2 kernels (the user's) done");
  expect(facts.stores == 256, "256 stores (" + std::to_string(facts.stores) + ")");
  expect(facts.loads == 256, "256 loads (" + std::to_string(facts.loads) + ")");
  expect(facts.sockets.size() == 2, "2 sockets");
  for (unsigned s = 0; s < facts.sockets.size(); ++s)
    expect(facts.sockets[s].remote_requests == 128,
           "socket " + std::to_string(s) + ": 128 remote requests (" +
               std::to_string(facts.sockets[s].remote_requests) + ")");
  gpu.write_stats("traffic_generator-out");
  std::cout << (failures ? "traffic_generator: FAILED\n" : "traffic_generator: all checks passed\n");
  return failures ? 1 : 0;
}

}  // namespace

int sc_main(int, char*[]) {
  try {
    return run();
  } catch (const std::exception& e) {
    std::cerr << "traffic_generator: error: " << e.what() << "\n";
    return 2;
  }
}
