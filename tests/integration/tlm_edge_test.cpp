// Standard TLM-2.0 at numagpu's edges (docs/tlm-edges.md): plain payloads (no numagpu extension) into a
// DRAM and through the plug points, b_transport with an annotated delay, transport_dbg on real data, error
// responses for malformed payloads, a host target replacing a socket's DRAM, and the unbound-port error.
// Every expected figure is derived by hand in the comment above its test.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <tlm_utils/simple_target_socket.h>

#include "common/protocol_checker.hpp"
#include "common/tlm_edge.hpp"
#include "host_core.hpp"
#include "mem/dram.hpp"
#include "scripted_endpoint.hpp"
#include "small_system.hpp"
#include "system/derive_spec.hpp"

extern "C" int sc_main(int, char*[]) {
  return 0;
}

namespace numagpu {
namespace {

using numagpu::testing::Endpoint;
using numagpu::testing::HostCore;
using sc_core::SC_NS;
using sc_core::sc_time;
constexpr std::uint64_t kNs = numagpu::testing::kPsPerCycle;

// ------------------------------------------------------------------------------- one DRAM, plain payloads

// 64 B per cycle over 2 channels: 32 B per cycle per channel, a 128 B line in 4 cycles; 100-cycle latency.
DramSpec bench_dram() {
  DramSpec d;
  d.bandwidth_bytes_num = 64;
  d.channels = 2;
  d.latency = 100;
  d.queue_depth = 32;
  return d;
}

struct DramEdgeBench : numagpu::testing::ScriptedBench<DramEdgeBench> {
  Endpoint a{"a"};
  std::unique_ptr<Dram> dram;
  FunctionalMemory memory;
  numagpu::testing::PlainPayloads plain;

  DramEdgeBench(const sc_core::sc_module_name& n, bool functional, std::function<void(DramEdgeBench&)> f)
      : ScriptedBench(n, std::move(f)) {
    dram = std::make_unique<Dram>("dram", ctx, bench_dram(), numagpu::testing::kBenchFacts, reg);
    a.init.bind(dram->in.socket);
    ctx.edge.memory = functional ? &memory : nullptr;
  }
  std::uint64_t counter(const char* leaf) const {
    return ScriptedBench::counter(std::string("bench.dram.") + leaf);
  }
};

// A payload on the stack (no memory manager), as a loosely-timed initiator makes one.
void set_up(tlm::tlm_generic_payload& gp, tlm::tlm_command cmd, std::uint64_t address, unsigned char* data,
            unsigned length) {
  gp.set_command(cmd);
  gp.set_address(address);
  gp.set_data_ptr(data);
  gp.set_data_length(length);
  gp.set_streaming_width(length);
}

// b_transport books the line's channel from the caller's time (now + delay) and returns the delay to the
// response: the wait for the channel, the 4-cycle transfer, the 100-cycle latency.
//   line 0 (channel 0), called at 0 with delay 0: transfer 0-4, delay 4 + 100 = 104 cycles;
//   line 2 (channel 0 again), delay 0: the channel is booked until 4, transfer 4-8, delay 108;
//   line 1 (channel 1), write, delay 10: transfer 10-14, delay 114;
//   8 bytes at 0x208 (line 4, channel 0): a whole line moves (unsectored), transfer 8-12, delay 112.
// Reads 3, writes 1, 3 x 128 B read, 128 B written.
TEST(TlmEdgeDram, BTransportAnnotatesTheDelayOfItsTimingParameters) {
  std::vector<std::uint64_t> delays;
  std::vector<tlm::tlm_response_status> statuses;
  DramEdgeBench d("bench", false, [&](DramEdgeBench& self) {
    unsigned char buf[128] = {};
    const struct {
      tlm::tlm_command cmd;
      std::uint64_t address;
      unsigned length;
      std::uint64_t delay_cycles;
    } calls[] = {{tlm::TLM_READ_COMMAND, 0, 128, 0},
                 {tlm::TLM_READ_COMMAND, 256, 128, 0},
                 {tlm::TLM_WRITE_COMMAND, 128, 128, 10},
                 {tlm::TLM_READ_COMMAND, 0x208, 8, 0}};
    for (const auto& c : calls) {
      tlm::tlm_generic_payload gp;
      set_up(gp, c.cmd, c.address, buf, c.length);
      sc_time delay(double(c.delay_cycles), SC_NS);
      self.a.init->b_transport(gp, delay);
      delays.push_back(delay.value());
      statuses.push_back(gp.get_response_status());
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(delays, (std::vector<std::uint64_t>{104 * kNs, 108 * kNs, 114 * kNs, 112 * kNs}));
  for (auto s : statuses)
    EXPECT_EQ(s, tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d.counter("reads"), 3u);
  EXPECT_EQ(d.counter("writes"), 1u);
  EXPECT_EQ(d.counter("read_bytes"), 3u * 128);
  EXPECT_EQ(d.counter("write_bytes"), 128u);
}

// A plain payload (its own memory manager, no extension) through nb_transport: taken at once (END_REQ on
// the return path) and answered at 4 + 100 = 104 cycles, as a pooled one. Malformed ones are answered at
// once (TLM_COMPLETED) with an error status and never reach the channels: length 0, a line crossed
// (120 + 16 > 128), streaming width 4 below the length 8 -> burst errors; 2^48 -> address error; a byte
// enable pointer without a length -> byte enable error; no data pointer -> generic error. A good read after
// them (line 1, channel 1, at cycle 200) is answered at 200 + 4 + 100 = 304. Reads: the 2 good ones.
TEST(TlmEdgeDram, PlainPayloadsAreServedAndMalformedOnesGetErrorResponses) {
  std::vector<tlm::tlm_response_status> errors;
  tlm::tlm_generic_payload* first = nullptr;
  tlm::tlm_generic_payload* second = nullptr;
  DramEdgeBench d("bench", false, [&](DramEdgeBench& self) {
    first = &self.plain.get(128);
    first->set_command(tlm::TLM_READ_COMMAND);
    first->set_address(0);
    EXPECT_TRUE(self.a.send(*first));
    EXPECT_EQ(first->get_extension<NumaAttr>() != nullptr, true);  // numagpu's attributes, added
    auto bad = [&](auto&& mutate) {
      tlm::tlm_generic_payload& gp = self.plain.get(8);
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(0x40);
      mutate(gp);
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_time delay = sc_core::SC_ZERO_TIME;
      EXPECT_EQ(self.a.init->nb_transport_fw(gp, phase, delay), tlm::TLM_COMPLETED);
      errors.push_back(gp.get_response_status());
      gp.release();
    };
    bad([](tlm::tlm_generic_payload& gp) { gp.set_data_length(0); });
    bad([](tlm::tlm_generic_payload& gp) {
      gp.set_address(120);
      gp.set_data_length(16);
      gp.set_streaming_width(16);
    });
    bad([](tlm::tlm_generic_payload& gp) { gp.set_streaming_width(4); });
    bad([](tlm::tlm_generic_payload& gp) { gp.set_address(std::uint64_t(1) << 48); });
    static unsigned char enables[8] = {};
    bad([](tlm::tlm_generic_payload& gp) { gp.set_byte_enable_ptr(enables); });
    bad([](tlm::tlm_generic_payload& gp) { gp.set_data_ptr(nullptr); });
    sc_core::wait(200, SC_NS);
    second = &self.plain.get(128);
    second->set_command(tlm::TLM_READ_COMMAND);
    second->set_address(128);
    EXPECT_TRUE(self.a.send(*second));
  });
  sc_core::sc_start();
  EXPECT_EQ(errors, (std::vector<tlm::tlm_response_status>{
                        tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
                        tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_ADDRESS_ERROR_RESPONSE,
                        tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE, tlm::TLM_GENERIC_ERROR_RESPONSE}));
  ASSERT_EQ(d.a.responses.size(), 2u);
  EXPECT_EQ(d.a.responses[0].gp, first);
  EXPECT_EQ(d.a.responses[0].ps, 104 * kNs);
  EXPECT_EQ(d.a.responses[1].gp, second);
  EXPECT_EQ(d.a.responses[1].ps, 304 * kNs);
  EXPECT_EQ(first->get_response_status(), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(d.counter("reads"), 2u);
  EXPECT_EQ(d.dram->in.foreign_requests(), 8u);
  EXPECT_EQ(d.dram->in.foreign_errors(), 6u);
  first->release();
  second->release();
  EXPECT_EQ(d.plain.live(), 0u);
}

// Back-pressure reaches a foreign initiator as the base protocol says: END_REQ withheld, then sent on the
// backward path. queue_depth 1 allows one line transfer (4 cycles) of backlog per channel. Plain reads of
// channel 0: line 0 at cycle 0 (transfer 0-4); line 2 at cycle 1, accepted with 4 - 1 = 3 cycles of backlog
// (transfer 4-8); line 4 at cycle 2 finds 8 - 2 = 6 > 4 cycles of backlog and is held until the backlog has
// drained to 4, at cycle 4, when its END_REQ comes back (transfer 8-12). Responses at 4 + 100 = 104,
// 8 + 100 = 108 and 12 + 100 = 112.
TEST(TlmEdgeDram, HeldPlainPayloadGetsItsEndReqOnTheBackwardPath) {
  std::vector<bool> taken;
  std::vector<tlm::tlm_generic_payload*> sent;
  DramSpec one = bench_dram();
  one.queue_depth = 1;
  struct Bench : numagpu::testing::ScriptedBench<Bench> {
    Endpoint a{"a"};
    std::unique_ptr<Dram> dram;
    numagpu::testing::PlainPayloads plain;
    Bench(const sc_core::sc_module_name& n, const DramSpec& s, std::function<void(Bench&)> f)
        : ScriptedBench(n, std::move(f)) {
      dram = std::make_unique<Dram>("dram", ctx, s, numagpu::testing::kBenchFacts, reg);
      a.init.bind(dram->in.socket);
    }
  };
  Bench d("bench", one, [&](Bench& self) {
    for (std::uint64_t line : {0, 2, 4}) {
      tlm::tlm_generic_payload& gp = self.plain.get(128);
      gp.set_command(tlm::TLM_READ_COMMAND);
      gp.set_address(line * 128);
      sent.push_back(&gp);
      taken.push_back(self.a.send(gp));
      sc_core::wait(1, SC_NS);
    }
  });
  sc_core::sc_start();
  EXPECT_EQ(taken, (std::vector<bool>{true, true, false}));
  ASSERT_EQ(d.a.end_reqs.size(), 1u);
  EXPECT_EQ(d.a.end_reqs[0].gp, sent[2]);
  EXPECT_EQ(d.a.end_reqs[0].ps, 4 * kNs);
  ASSERT_EQ(d.a.responses.size(), 3u);
  for (unsigned i = 0; i < 3; ++i) {
    EXPECT_EQ(d.a.responses[i].gp, sent[i]);
    EXPECT_EQ(d.a.responses[i].ps, (104 + 4 * i) * kNs);
    EXPECT_EQ(sent[i]->get_response_status(), tlm::TLM_OK_RESPONSE);
    sent[i]->release();
  }
  EXPECT_EQ(d.plain.live(), 0u);
}

// transport_dbg moves real data when the memory holds data: 16 bytes written at 0x1000 read back equal
// (16 bytes moved each way), a range never written reads as zeros, and a b_transport write is seen by a
// debug read (and the reverse). Without memory.functional, debug accesses move nothing (0).
TEST(TlmEdgeDram, DebugTransportRoundTripsRealData) {
  unsigned moved_without = 99;
  DramEdgeBench d("bench", true, [&](DramEdgeBench& self) {
    unsigned char out[16], in[16], zeros[16] = {};
    for (unsigned i = 0; i < 16; ++i)
      out[i] = static_cast<unsigned char>(0xa0 + i);
    tlm::tlm_generic_payload w;
    set_up(w, tlm::TLM_WRITE_COMMAND, 0x1000, out, 16);
    EXPECT_EQ(self.a.init->transport_dbg(w), 16u);
    tlm::tlm_generic_payload r;
    set_up(r, tlm::TLM_READ_COMMAND, 0x1000, in, 16);
    EXPECT_EQ(self.a.init->transport_dbg(r), 16u);
    EXPECT_EQ(std::memcmp(in, out, 16), 0);
    std::memset(in, 0xff, 16);
    tlm::tlm_generic_payload r2;
    set_up(r2, tlm::TLM_READ_COMMAND, 0x9000, in, 16);
    EXPECT_EQ(self.a.init->transport_dbg(r2), 16u);
    EXPECT_EQ(std::memcmp(in, zeros, 16), 0);
    // b_transport write, debug read.
    unsigned char word[4] = {1, 2, 3, 4}, back[4] = {};
    tlm::tlm_generic_payload bw;
    set_up(bw, tlm::TLM_WRITE_COMMAND, 0x2004, word, 4);
    sc_time delay = sc_core::SC_ZERO_TIME;
    self.a.init->b_transport(bw, delay);
    EXPECT_EQ(bw.get_response_status(), tlm::TLM_OK_RESPONSE);
    tlm::tlm_generic_payload br;
    set_up(br, tlm::TLM_READ_COMMAND, 0x2004, back, 4);
    EXPECT_EQ(self.a.init->transport_dbg(br), 4u);
    EXPECT_EQ(std::memcmp(back, word, 4), 0);
    // Debug write, b_transport read.
    tlm::tlm_generic_payload bw2;
    set_up(bw2, tlm::TLM_READ_COMMAND, 0x1004, back, 4);
    self.a.init->b_transport(bw2, delay);
    EXPECT_EQ(std::memcmp(back, out + 4, 4), 0);
    self.ctx.edge.memory = nullptr;
    moved_without = self.a.init->transport_dbg(r);
  });
  sc_core::sc_start();
  EXPECT_EQ(moved_without, 0u);
  EXPECT_EQ(d.memory.pages(), 2u);  // 0x1000 and 0x2000
}

// --------------------------------------------------------------------------------- systems with hosts

// One socket's small system (tests/integration/small_system.hpp, protocol checks on) with memory that holds
// data and the given plug points.
SystemSpec host_spec(unsigned sockets, std::vector<ExternalPortSpec> external) {
  SystemSpec s = numagpu::testing::small_spec(sockets);
  s.functional_memory = true;
  s.external = std::move(external);
  // The SMs stream 8 CTAs x 4 warps x 16 loads over lines 0..511 (64 KiB) meanwhile.
  s.kernels.push_back(numagpu::testing::stream_kernel("stream", 8, 4, 16));
  return s;
}

// A host module whose thread runs `script` with its core.
struct Host : sc_core::sc_module {
  HostCore core{"core"};
  std::function<void(HostCore&)> script;
  bool done = false;
  Host(const sc_core::sc_module_name& n, std::function<void(HostCore&)> s)
      : sc_module(n), script(std::move(s)) {
    SC_HAS_PROCESS(Host);
    SC_THREAD(run);
  }
  void run() {
    script(core);
    done = true;
  }
};

std::vector<unsigned char> pattern(std::uint64_t line, unsigned bytes) {
  std::vector<unsigned char> v(bytes);
  for (unsigned i = 0; i < bytes; ++i)
    v[i] = static_cast<unsigned char>(line * 7 + i * 13 + 1);
  return v;
}

// A third-party initiator (plain payloads, no numagpu extension) at socket 0's crossbar of a 2-socket system,
// through a protocol checker of its own, while the SMs stream: it writes 64 lines at 1 MiB (pages of 32 lines
// interleaved over the sockets: lines 0-31 homed at socket 0, 32-63 at socket 1, so half cross the link),
// even lines blocking and odd ones non-blocking, then reads them all back the other way round, and finally
// overwrites 4 bytes at offset 8 of line 0 with byte enables selecting 2 of them. Every read equals what was
// written; the enabled bytes changed and the disabled ones did not. 64 + 64 + 1 + 1 = 130 requests, 65
// blocking (32 writes, 32 reads, the final read), none refused; no protocol violation, the SMs' kernel done,
// every transaction completed.
TEST(TlmEdgeHost, ThirdPartyInitiatorSharesMemoryWithTheSmsUnderProtocolChecks) {
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", host_spec(2, {{ExternalPortSpec::Kind::kXbarInitiator, 0, "cpu", ""}}), reg, diag);
  int mismatches = 0;
  Host host("host", [&](HostCore& core) {
    const std::uint64_t base = 1 << 20;
    for (std::uint64_t l = 0; l < 64; ++l) {
      std::vector<unsigned char> data = pattern(l, 128);
      const auto status = l % 2 ? core.non_blocking(tlm::TLM_WRITE_COMMAND, base + l * 128, data.data(), 128)
                                : core.blocking(tlm::TLM_WRITE_COMMAND, base + l * 128, data.data(), 128);
      mismatches += status != tlm::TLM_OK_RESPONSE;
    }
    for (std::uint64_t l = 0; l < 64; ++l) {
      std::vector<unsigned char> data(128, 0);
      const auto status = l % 2 ? core.blocking(tlm::TLM_READ_COMMAND, base + l * 128, data.data(), 128)
                                : core.non_blocking(tlm::TLM_READ_COMMAND, base + l * 128, data.data(), 128);
      mismatches += status != tlm::TLM_OK_RESPONSE || data != pattern(l, 128);
    }
    // Byte enables: of bytes 8..11, only 9 and 11 are written.
    static unsigned char enables[4] = {0x00, 0xff, 0x00, 0xff};
    tlm::tlm_generic_payload& gp = core.payloads.get(4);
    gp.set_command(tlm::TLM_WRITE_COMMAND);
    gp.set_address(base + 8);
    std::memset(gp.get_data_ptr(), 0xee, 4);
    gp.set_byte_enable_ptr(enables);
    gp.set_byte_enable_length(4);
    mismatches += core.non_blocking(gp) != tlm::TLM_OK_RESPONSE;
    gp.release();
    std::vector<unsigned char> expect = pattern(0, 128), line(128, 0);
    expect[9] = expect[11] = 0xee;
    mismatches += core.blocking(tlm::TLM_READ_COMMAND, base, line.data(), 128) != tlm::TLM_OK_RESPONSE;
    mismatches += line != expect;
  });
  ProtocolChecker check("host_check", sys.context().health);
  host.core.socket.bind(check.target);
  check.initiator.bind(sys.external_initiator("cpu"));
  sys.run();
  EXPECT_TRUE(host.done);
  EXPECT_EQ(mismatches, 0);
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_TRUE(sys.dispatcher().finished());
  EXPECT_GT(check.phases_checked(), 0u);
  EXPECT_EQ(reg.find_counter("system.socket0.cpu.requests")->value(), 130u);
  EXPECT_EQ(reg.find_counter("system.socket0.cpu.blocking_requests")->value(), 65u);
  EXPECT_EQ(reg.find_counter("system.socket0.cpu.error_responses")->value(), 0u);
  EXPECT_EQ(host.core.payloads.live(), 0u);
  EXPECT_EQ(sys.pool().live(), 0u);
}

// A malformed payload from the host (a line crossed: 0x78 + 16 > 128; an address beyond memory.address_bits)
// is answered with an error status (TLM_COMPLETED on BEGIN_REQ, or at once for b_transport) and never enters
// the model; the host's next good request and the SMs' kernel go on. Error responses 3, requests 4.
TEST(TlmEdgeHost, MalformedPayloadGetsAnErrorResponseAndTheRunGoesOn) {
  stats::Registry reg;
  std::ostringstream diag;
  SystemSpec spec = host_spec(1, {{ExternalPortSpec::Kind::kXbarInitiator, 0, "cpu", ""}});
  spec.address_bits = 32;
  System sys("system", spec, reg, diag);
  std::vector<tlm::tlm_response_status> got;
  Host host("host", [&](HostCore& core) {
    unsigned char data[16] = {5};
    got.push_back(core.non_blocking(tlm::TLM_WRITE_COMMAND, 0x78, data, 16));
    got.push_back(core.blocking(tlm::TLM_READ_COMMAND, 0x78, data, 16));
    got.push_back(core.non_blocking(tlm::TLM_READ_COMMAND, std::uint64_t(1) << 32, data, 8));
    got.push_back(core.blocking(tlm::TLM_WRITE_COMMAND, 0x80, data, 16));
  });
  host.core.socket.bind(sys.external_initiator("cpu"));
  sys.run();
  EXPECT_EQ(got, (std::vector<tlm::tlm_response_status>{
                     tlm::TLM_BURST_ERROR_RESPONSE, tlm::TLM_BURST_ERROR_RESPONSE,
                     tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_OK_RESPONSE}));
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_TRUE(sys.dispatcher().finished());
  EXPECT_EQ(reg.find_counter("system.socket0.cpu.requests")->value(), 4u);
  EXPECT_EQ(reg.find_counter("system.socket0.cpu.error_responses")->value(), 3u);
}

// Functional memory, read after write: through the timed path the SMs use (crossbar, L2, DRAM) and read by
// debug access, and written by debug access and read through the timed path; at a switch port too (2
// sockets, the paper's switch). Each read returns what was written.
TEST(TlmEdgeHost, FunctionalMemoryReadsAfterWritesThroughTheTimedAndDebugPaths) {
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system",
             host_spec(2, {{ExternalPortSpec::Kind::kXbarInitiator, 1, "gpu_side", ""},
                           {ExternalPortSpec::Kind::kSwitchInitiator, 0, "nic", ""}}),
             reg, diag);
  int mismatches = 0;
  Host a("a", [&](HostCore& core) {
    std::vector<unsigned char> w = pattern(3, 64), r(64, 0);
    mismatches += core.non_blocking(tlm::TLM_WRITE_COMMAND, 0x4000, w.data(), 64) != tlm::TLM_OK_RESPONSE;
    mismatches += core.debug(tlm::TLM_READ_COMMAND, 0x4000, r.data(), 64) != 64;
    mismatches += r != w;
    std::vector<unsigned char> w2 = pattern(9, 32), r2(32, 0);
    mismatches += core.debug(tlm::TLM_WRITE_COMMAND, 0x5020, w2.data(), 32) != 32;
    mismatches += core.blocking(tlm::TLM_READ_COMMAND, 0x5020, r2.data(), 32) != tlm::TLM_OK_RESPONSE;
    mismatches += r2 != w2;
  });
  Host b("b", [&](HostCore& core) {
    std::vector<unsigned char> w = pattern(5, 128), r(128, 0);
    mismatches += core.blocking(tlm::TLM_WRITE_COMMAND, 0x7000, w.data(), 128) != tlm::TLM_OK_RESPONSE;
    mismatches += core.non_blocking(tlm::TLM_READ_COMMAND, 0x7000, r.data(), 128) != tlm::TLM_OK_RESPONSE;
    mismatches += r != w;
  });
  a.core.socket.bind(sys.external_initiator("gpu_side"));
  b.core.socket.bind(sys.external_initiator("nic"));
  sys.run();
  EXPECT_TRUE(a.done && b.done);
  EXPECT_EQ(mismatches, 0);
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_EQ(reg.find_counter("system.nic.requests")->value(), 2u);
  EXPECT_EQ(reg.find_counter("system.nic.blocking_requests")->value(), 1u);
  // The two timed accesses; debug accesses are not requests.
  EXPECT_EQ(reg.find_counter("system.socket1.gpu_side.requests")->value(), 2u);
}

// A host's DRAM target (a b_transport-only target behind simple_target_socket) replaces socket 0's DRAM
// under protocol checks. The SMs stream 8 CTAs x 4 warps x 16 loads = 512 distinct lines once each, which
// all miss the cold 64 KiB L2 (512 lines: it holds them all, so nothing is evicted, and loads write nothing
// back): the host's target receives exactly 512 reads and no write; numagpu's own DRAM, unbound, none.
struct CountingDram : sc_core::sc_module {
  tlm_utils::simple_target_socket<CountingDram> socket{"socket"};
  std::uint64_t reads = 0, writes = 0;
  explicit CountingDram(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_b_transport(this, &CountingDram::access);
  }
  void access(tlm::tlm_generic_payload& gp, sc_time& delay) {
    (gp.is_read() ? reads : writes)++;
    delay += sc_time(50, SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

TEST(TlmEdgeHost, HostTargetReplacesASocketsDram) {
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", host_spec(1, {{ExternalPortSpec::Kind::kDramTarget, 0, "mydram", ""}}), reg, diag);
  CountingDram mine("mine");
  sys.external_target("mydram").bind(mine.socket);
  sys.run();
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  EXPECT_TRUE(sys.dispatcher().finished());
  EXPECT_EQ(mine.reads, 512u);
  EXPECT_EQ(mine.writes, 0u);
  EXPECT_EQ(reg.find_counter("system.socket0.mydram.requests")->value(), 512u);
  EXPECT_EQ(reg.find_counter("system.socket0.dram.reads")->value(), 0u);
}

// A host's target that answers without setting the response status breaks the base protocol (a target sets
// it before responding): under checks.protocol (host_spec's small system has them on) the run's health
// records one protocol violation per such answer, naming the port and its key; all 512 reads (as above)
// still complete, so nothing else is reported.
struct SilentDram : sc_core::sc_module {
  tlm_utils::simple_target_socket<SilentDram> socket{"socket"};
  explicit SilentDram(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_b_transport(this, &SilentDram::access);
  }
  void access(tlm::tlm_generic_payload&, sc_time& delay) { delay += sc_time(50, SC_NS); }
};

TEST(TlmEdgeHost, HostTargetLeavingTheStatusIncompleteIsAProtocolViolation) {
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", host_spec(1, {{ExternalPortSpec::Kind::kDramTarget, 0, "mydram", "external.0"}}), reg,
             diag);
  SilentDram silent("silent");
  sys.external_target("mydram").bind(silent.socket);
  sys.run();
  const RunHealth& health = sys.context().health;
  EXPECT_EQ(health.count(RunHealth::Kind::kProtocol), 512u);
  EXPECT_EQ(health.count(RunHealth::Kind::kAudit), 0u);
  ASSERT_FALSE(health.messages(RunHealth::Kind::kProtocol).empty());
  const std::string& first = health.messages(RunHealth::Kind::kProtocol).front();
  EXPECT_NE(first.find("system.socket0.mydram (external.0)"), std::string::npos) << first;
  EXPECT_NE(first.find("TLM_INCOMPLETE_RESPONSE"), std::string::npos) << first;
  EXPECT_TRUE(sys.dispatcher().finished());
}

// An external port nobody bound stops the simulation at the end of elaboration with its configuration key.
TEST(TlmEdgeHost, UnboundExternalPortIsAnErrorNamingItsKey) {
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", host_spec(1, {{ExternalPortSpec::Kind::kXbarInitiator, 0, "cpu", "external.0"}}), reg,
             diag);
  ASSERT_EQ(sys.unbound_external_ports().size(), 1u);
  std::string message;
  try {
    sc_core::sc_start(sc_time(1, SC_NS));
  } catch (const std::exception& e) {
    message = e.what();
  }
  EXPECT_NE(message.find("external.0"), std::string::npos) << message;
  EXPECT_NE(message.find("system.socket0.cpu is not bound"), std::string::npos) << message;
}

// The configuration's rules for plug points, each at its key.
TEST(TlmEdgeConfig, ExternalEntriesAreCheckedAtTheirKeys) {
  auto key_of = [](std::vector<ExternalPortParams> external, unsigned sockets) {
    SystemParams p;
    p.sockets = sockets;
    p.external = std::move(external);
    try {
      derive_system_spec(p);
    } catch (const SpecError& e) {
      return e.key();
    }
    return std::string("(accepted)");
  };
  using A = ExternalAttach;
  EXPECT_EQ(key_of({{A::kDram, 5, 0, ""}}, 4), "external.0.socket");
  EXPECT_EQ(key_of({{A::kDram, 1, 0, ""}, {A::kDram, 1, 0, "other"}}, 4), "external.1.socket");
  EXPECT_EQ(key_of({{A::kSwitch, 0, 0, ""}}, 1), "external.0.switch");  // one socket: no switch
  EXPECT_EQ(key_of({{A::kXbar, 0, 0, "cpu"}, {A::kXbar, 1, 0, "cpu"}}, 4), "external.1.name");
  EXPECT_EQ(key_of({{A::kXbar, 0, 0, "a.b"}}, 4), "external.0.name");
  EXPECT_EQ(key_of({{A::kXbar, 0, 0, ""}, {A::kDram, 2, 0, ""}, {A::kSwitch, 0, 0, ""}}, 4), "(accepted)");
  // A key the entry's attachment does not read must keep its default: `switch` on a DRAM or crossbar entry,
  // `socket` on a switch entry.
  EXPECT_EQ(key_of({{A::kDram, 1, 1, ""}}, 4), "external.0.switch");
  EXPECT_EQ(key_of({{A::kXbar, 1, 1, ""}}, 4), "external.0.switch");
  EXPECT_EQ(key_of({{A::kSwitch, 2, 0, ""}}, 4), "external.0.socket");
  SystemParams p;
  p.external = {{A::kXbar, 2, 0, ""}, {A::kDram, 3, 0, ""}};
  const SystemSpec s = derive_system_spec(p);
  ASSERT_EQ(s.external.size(), 2u);
  EXPECT_EQ(s.external[0].name, "socket2_host0");
  EXPECT_EQ(s.external[1].name, "socket3_dram");
  EXPECT_EQ(s.external[1].key, "external.1");
}

}  // namespace
}  // namespace numagpu
