// A socket's link to the switch: `lanes` lanes of `lane_bytes` per cycle, split evenly between the two
// directions (lane turnaround and the link balancer come with the fabric issue). A packet occupies its
// direction for ceil(bytes / (lanes_in_direction * lane_bytes)) whole cycles; the egress traversal
// (socket -> switch) then takes `latency` cycles, so socket-to-socket latency is `latency` plus
// serialization.
//
// Ports (numbered by binding order: the socket binds its side first): input 0 takes this socket's requests
// from the crossbar and output 1 sends them to the switch (egress); input 1 takes other sockets' requests
// from the switch and output 0 hands them to the crossbar (ingress). Responses retrace those paths.
#pragma once

#include <cstdint>

#include <systemc>

#include "common/ports.hpp"
#include "common/time.hpp"
#include "common/watchdog.hpp"
#include "stats/registry.hpp"

namespace numagpu {

struct LinkSpec {
  unsigned lanes = 16;
  unsigned lane_bytes = 8;
  Cycles latency = 128;
  unsigned header_bytes = 16;
  unsigned line_bytes = 128;
  unsigned queue_depth = 64;
  Cycles sample_cycles = 5000;
};

class Link : public sc_core::sc_module, public InputOwner, public OutputOwner, public QueueReporter {
 public:
  static constexpr unsigned kSocketSide = 0;  // input from / output to the crossbar
  static constexpr unsigned kSwitchSide = 1;  // input from / output to the switch

  Link(const sc_core::sc_module_name& name, const LinkSpec& spec, stats::Registry& stats);

  RequestInputs in;
  RequestOutputs out;

  void report_queues(std::ostream& os) const override;
  void start_sampling();
  void stop_sampling();

 private:
  struct Direction {
    Cycles free_cycle = 0;
    std::uint64_t bytes = 0;
    std::uint64_t busy_cycles = 0;
    std::uint64_t busy_at_last_sample = 0;
    stats::Counter* bytes_stat = nullptr;
    stats::Counter* packets_stat = nullptr;
    stats::TimeSeries* utilization = nullptr;
  };
  enum Dir { kEgress = 0, kIngress = 1 };

  bool try_accept(unsigned port, Payload& gp) override;
  void on_request(unsigned port, Payload& gp) override;
  void on_response(unsigned port, Payload& gp) override;
  void on_request_accepted(unsigned port, Payload& gp) override;
  // Serializes a packet on a direction; returns the delay from now until it has fully left.
  sc_core::sc_time transmit(Dir dir, std::uint64_t bytes);
  void sample();

  LinkSpec spec_;
  unsigned lanes_per_direction_;
  Direction dirs_[2];
  unsigned reserved_[2] = {0, 0};
  sc_core::sc_event sample_event_;
  bool sampling_ = false;
};

}  // namespace numagpu
