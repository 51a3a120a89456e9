// The DRAM's parameters, in two forms: DramParams is the `dram` section as the user writes it (GB/s and ns,
// each key declared once with its default and documentation, config/keys.hpp); DramSpec is what a Dram
// module is built from (bytes per cycle as an exact fraction, cycles), derived by the system at its clock
// (system/derive_spec.hpp). Plain C++, no SystemC.
#pragma once

#include <cstdint>

#include "common/cycles.hpp"

namespace numagpu {

struct DramSpec {
  std::uint64_t bandwidth_bytes_num = 768;  // bandwidth = num / den bytes per cycle (whole socket)
  std::uint64_t bandwidth_den = 1;
  unsigned channels = 8;
  Cycles latency = 100;
  unsigned queue_depth = 32;  // line transfers of backlog per channel
  // All-bank refresh: every refresh_interval_ps (0: none) each channel stops for refresh_ps.
  std::uint64_t refresh_interval_ps = 0;
  std::uint64_t refresh_ps = 0;
  bool inject_drop_response = false;  // test hook: swallow the first response (the audit must catch it)
  bool inject_stuck = false;          // test hook: accept requests, never serve them (the watchdog must fire)
};

struct DramParams {
  std::uint64_t bandwidth_gbps = 768;
  std::uint64_t latency_ns = 100;
  unsigned channels = 8;
  unsigned queue_depth = 32;
  std::uint64_t refresh_interval_ns = 0;
  std::uint64_t refresh_ns = 0;

  template <class Keys>
  void keys(Keys& k) {
    k.integer("bandwidth_gbps", bandwidth_gbps, "Peak bandwidth of the socket's DRAM")
        .range(1, 100000)
        .unit("GB/s");
    k.integer("latency_ns", latency_ns, "Access latency after the transfer").range(0, 100000).unit("ns");
    k.integer("channels", channels, "Channels; a line's channel is its line number mod channels")
        .range(1, 256);
    k.integer("queue_depth", queue_depth,
              "Backlog per channel, in line transfers, before inputs are back-pressured")
        .range(1, 4096);
    k.integer("refresh_interval_ns", refresh_interval_ns,
              "All-bank refresh interval (tREFI): each channel refreshes this often and moves no data for "
              "dram.refresh_ns (docs/memory-system.md, Refresh); 0: no refresh")
        .range(0, 1000000000)
        .unit("ns");
    k.integer("refresh_ns", refresh_ns,
              "Time an all-bank refresh takes (tRFC), below dram.refresh_interval_ns when that is set")
        .range(0, 1000000000)
        .unit("ns");
  }
};

}  // namespace numagpu
