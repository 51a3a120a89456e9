// A host's own DRAM model in place of numagpu's (docs/tlm-edges.md, example (c)).
//
// One numagpu socket (8 SMs, the paper's L2 and crossbar) whose DRAM is replaced by this program's target,
// an approximately-timed-agnostic model behind tlm_utils::simple_target_socket that implements only
// b_transport (the socket turns numagpu's nb_transport calls into blocking ones). It counts what it
// receives, and checks it against what the workload must produce, derived by hand:
//
//   kernel "first":  16 CTAs x 8 warps x 8 loads streaming lines 0..1023 (128 KiB), each line once. Every
//                    load misses the cold L2 (4 MiB, 16 ways: 128 KiB cannot evict anything), so the L2
//                    banks send 1,024 line reads to the DRAM, one per line.
//   kernel "again":  the same 1,024 lines again. The L1s were dropped at the kernel boundary (software
//                    coherence), the L2 still holds every line: 1,024 L2 hits, no DRAM access.
//   kernel "store":  16 CTAs x 8 warps x 8 stores over lines 1024..2047. The L2 is write-back and allocates
//                    a store's line without fetching it, and nothing is evicted (256 KiB in all): no DRAM
//                    access either (dirty lines stay in the L2 at the end of the run).
//
// So: exactly 1,024 reads, each of a distinct line below 128 KiB, 128 bytes each, and no write. Exit status
// 0 when the counts match and the run was clean.
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <set>

#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "stats/registry.hpp"
#include "system/derive_spec.hpp"
#include "system/system.hpp"

namespace {

// A plain DRAM: a fixed latency plus a transfer time at a fixed bandwidth per request, no data kept.
struct MyDram : sc_core::sc_module {
  tlm_utils::simple_target_socket<MyDram> socket{"socket"};
  std::uint64_t reads = 0, writes = 0, bytes = 0, other = 0;
  std::set<std::uint64_t> lines_read;
  bool repeated_line = false;
  std::uint64_t highest_address = 0;

  explicit MyDram(const sc_core::sc_module_name& n) : sc_module(n) {
    socket.register_b_transport(this, &MyDram::b_transport);
  }

  void b_transport(tlm::tlm_generic_payload& gp, sc_core::sc_time& delay) {
    if (gp.is_read()) {
      ++reads;
      repeated_line |= !lines_read.insert(gp.get_address() / 128).second;
    } else if (gp.is_write()) {
      ++writes;
    } else {
      ++other;
    }
    bytes += gp.get_data_length();
    highest_address = std::max<std::uint64_t>(highest_address, gp.get_address());
    // 80 ns access + 128 B at 64 B/ns.
    delay +=
        sc_core::sc_time(80, sc_core::SC_NS) + sc_core::sc_time(gp.get_data_length() / 64.0, sc_core::SC_NS);
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
  }
};

numagpu::KernelSpec stream(const char* name, std::uint64_t base, std::uint32_t write_percent) {
  numagpu::KernelSpec k;
  k.name = name;
  k.pattern = "stream";
  k.ctas = 16;
  k.warps_per_cta = 8;
  k.accesses_per_warp = 8;
  k.base_address = base;
  k.write_percent = write_percent;
  return k;
}

}  // namespace

int sc_main(int, char*[]) {
  using namespace numagpu;
  SystemParams params;  // the paper's socket, one of it, 8 SMs
  params.sockets = 1;
  params.sms_per_socket = 8;
  params.protocol_checks = true;
  ExternalPortParams dram;  // external: [{attach: dram, socket: 0, name: my_dram}]
  dram.attach = ExternalAttach::kDram;
  dram.socket = 0;
  dram.name = "my_dram";
  params.external.push_back(dram);
  params.workload.kernels = {stream("first", 0, 0), stream("again", 0, 0), stream("store", 1024 * 128, 100)};

  stats::Registry stats;
  System system("system", derive_system_spec(params), stats, std::cerr);
  MyDram mine("my_dram_model");
  system.external_target("my_dram").bind(mine.socket);
  system.run();

  const bool clean = system.context().health.ok() && system.dispatcher().finished();
  std::printf(
      "user_dram: %llu reads (%zu distinct lines), %llu writes, %llu bytes; expected 1024 reads of "
      "1024 distinct lines, 0 writes, 131072 bytes; run %s\n",
      static_cast<unsigned long long>(mine.reads), mine.lines_read.size(),
      static_cast<unsigned long long>(mine.writes), static_cast<unsigned long long>(mine.bytes),
      clean ? "clean" : "NOT clean");
  const bool as_derived = mine.reads == 1024 && mine.lines_read.size() == 1024 && !mine.repeated_line &&
                          mine.writes == 0 && mine.other == 0 && mine.bytes == 1024 * 128 &&
                          mine.highest_address < 1024 * 128;
  return clean && as_derived ? 0 : 1;
}
