// A scripted neighbour for a component test bench: one component built alone (no System), with endpoints
// around it. An endpoint sends requests into the component through `init` (from the bench's SC_THREAD) and
// records the responses that come back; requests the component sends out arrive at `targ`, are recorded, and
// are answered `respond_after` later when that is set (else accepted and left unanswered). Times are
// recorded in picoseconds of simulated time (at 1 GHz, 1000 ps = 1 cycle). ScriptedBench holds what every
// such bench gives its component (a SimContext, statistics, a payload pool) and runs the test's script.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <systemc>
#include <tlm>

#include "common/machine_facts.hpp"
#include "common/sim_context.hpp"
#include "common/txn.hpp"
#include "stats/registry.hpp"

namespace numagpu::testing {

// 128 B lines, 16 B headers (a read request 16 B, a write 144 B; a read's response 144 B), no utilization
// series; and the picoseconds of a cycle at the benches' 1 GHz.
inline const MachineFacts kBenchFacts{128, 16, 0};
constexpr std::uint64_t kPsPerCycle = 1000;

struct Endpoint : sc_core::sc_module {
  struct Event {
    std::uint64_t ps;  // when it arrived (the call's time plus its annotation)
    tlm::tlm_generic_payload* gp;
  };

  tlm_utils::simple_initiator_socket_optional<Endpoint> init{"init"};  // either may stay unbound
  tlm_utils::simple_target_socket_optional<Endpoint> targ{"targ"};
  std::vector<Event> arrivals;                // requests that came in at targ
  std::vector<std::uint8_t> arrival_sectors;  // each arrival's 32 B sectors (NumaAttr::sectors) as it came
  std::vector<Event> responses;               // responses that came back at init
  std::vector<Event> end_reqs;  // END_REQs granted on the backward path (requests that had been held)
  std::optional<sc_core::sc_time> respond_after;

  explicit Endpoint(const sc_core::sc_module_name& n) : sc_module(n) {
    init.register_nb_transport_bw(this, &Endpoint::bw);
    targ.register_nb_transport_fw(this, &Endpoint::fw);
  }

  // Sends a request now; true if it was accepted at once (END_REQ on the return path), false if held.
  bool send(tlm::tlm_generic_payload& gp) {
    tlm::tlm_phase p = tlm::BEGIN_REQ;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    const auto status = init->nb_transport_fw(gp, p, d);
    return status != tlm::TLM_ACCEPTED;
  }

 private:
  static std::uint64_t at(const sc_core::sc_time& d) { return (sc_core::sc_time_stamp() + d).value(); }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& p, sc_core::sc_time& d) {
    if (p == tlm::BEGIN_RESP) {
      responses.push_back({at(d), &gp});
      return tlm::TLM_COMPLETED;
    }
    if (p == tlm::END_REQ) end_reqs.push_back({at(d), &gp});
    return tlm::TLM_ACCEPTED;
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& p, sc_core::sc_time& d) {
    arrivals.push_back({at(d), &gp});
    arrival_sectors.push_back(attr(gp).sectors);
    if (!respond_after) {
      p = tlm::END_REQ;
      return tlm::TLM_UPDATED;
    }
    // The response on the return path, completing the transaction: END_REQ is implied.
    gp.set_response_status(tlm::TLM_OK_RESPONSE);
    p = tlm::BEGIN_RESP;
    d += *respond_after;
    return tlm::TLM_COMPLETED;
  }
};

// A bench module deriving from ScriptedBench<Bench> builds its component on `ctx`, `reg` and `pool` and binds
// its endpoints; `script` then runs as the bench's SC_THREAD once the simulation starts.
template <class Bench>
struct ScriptedBench : sc_core::sc_module {
  SimContext ctx;  // 1 GHz; made first, as a System makes its own
  stats::Registry reg;
  TxnPool pool;
  std::function<void(Bench&)> script;

  ScriptedBench(const sc_core::sc_module_name& n, std::function<void(Bench&)> s)
      : sc_module(n), script(std::move(s)) {
    SC_HAS_PROCESS(ScriptedBench);
    SC_THREAD(run);
  }
  void run() {
    if (script) script(static_cast<Bench&>(*this));
  }
  // A payload for line `n` (pooled, with its NumaAttr: homed at socket 0, issued by an SM).
  tlm::tlm_generic_payload& line(MemOp op, std::uint64_t n) {
    return pool.allocate(op, n * kBenchFacts.line_bytes, kBenchFacts.line_bytes);
  }
  std::uint64_t counter(const std::string& path) const { return reg.find_counter(path)->value(); }
};

}  // namespace numagpu::testing
