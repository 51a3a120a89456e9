// The DRAM's parameters, in two forms: DramParams is the `dram` section as the user writes it (GB/s and ns,
// each key declared once with its default and documentation, config/keys.hpp); DramSpec is what a Dram
// module is built from (bytes per cycle as an exact fraction, cycles), derived by the system at its clock
// (system/derive_spec.hpp). Plain C++, no SystemC.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/cycles.hpp"

namespace numagpu {

// HBM2 command timing, in cycles of the DRAM's command clock (docs/memory-system.md, Banks and rows).
struct HbmTiming {
  unsigned ccd = 1;    // column command to column command, different bank groups
  unsigned ccdl = 1;   // the same, within a bank group
  unsigned rrd = 0;    // activate to activate, different banks
  unsigned rcd = 0;    // activate to column command (row to column delay)
  unsigned ras = 0;    // activate to precharge
  unsigned rp = 0;     // precharge to activate
  unsigned rc = 0;     // activate to activate, the same bank
  unsigned cl = 0;     // read command to its first data
  unsigned wl = 0;     // write command to its first data
  unsigned cdlr = 0;   // last write data to a read command
  unsigned wr = 0;     // last write data to precharge
  unsigned rtp = 0;    // read command to precharge
  unsigned burst = 1;  // data bus cycles of one column command (burst length / data rate)
  // All-bank refresh: every refresh_interval cycles (0: none) for refresh cycles.
  std::uint64_t refresh_interval = 0;
  std::uint64_t refresh = 0;
};

// The bank model of one channel (mem/hbm_channel.hpp); banks == 0: none (the channel is a bandwidth pipe).
struct HbmSpec {
  unsigned banks = 0;
  unsigned bank_groups = 1;  // a bank's group is its number mod bank_groups
  std::uint64_t clock_mhz = 0;
  unsigned burst_bytes = 32;    // bytes one column command moves
  unsigned queue_entries = 64;  // the scheduler's queue, in column commands' worth of requests
  // The channel-local address's bits (its line number within the channel, then the byte in the line), least
  // significant first: the positions of the bank number's bits and of the row number's bits; the bits from
  // map_bits up are the row's higher bits.
  std::vector<unsigned> bank_bits;
  std::vector<unsigned> row_bits;
  unsigned map_bits = 0;
  HbmTiming t;
};

struct DramSpec {
  std::uint64_t bandwidth_bytes_num = 768;  // bandwidth = num / den bytes per cycle (whole socket)
  std::uint64_t bandwidth_den = 1;
  unsigned channels = 8;
  Cycles latency = 100;
  unsigned queue_depth = 32;  // line transfers of backlog per channel
  // All-bank refresh: every refresh_interval_ps (0: none) each channel stops for refresh_ps.
  std::uint64_t refresh_interval_ps = 0;
  std::uint64_t refresh_ps = 0;
  HbmSpec hbm;
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
  // Banks, rows and their scheduler (docs/memory-system.md, Banks and rows); banks 0: off.
  unsigned banks = 0;
  unsigned bank_groups = 1;
  std::uint64_t clock_mhz = 0;
  unsigned burst_bytes = 32;
  unsigned burst_cycles = 1;
  unsigned scheduler_queue = 64;
  std::string address_map;
  HbmTiming timing;

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
    k.integer(
         "banks", banks,
         "Banks per channel, each with one open row, served by an FR-FCFS scheduler (docs/memory-system.md, "
         "Banks and rows); 0: no banks, a channel is a pipe of bandwidth_gbps / channels")
        .range(0, 256);
    k.integer("bank_groups", bank_groups, "Bank groups per channel (a bank's group: its number mod this)")
        .range(1, 256);
    k.integer("clock_mhz", clock_mhz, "Command clock of the DRAM, which dram.timing counts in (with banks)")
        .range(0, 100000)
        .unit("MHz");
    k.integer("burst_bytes", burst_bytes, "Bytes one column command moves on a channel (with banks)")
        .range(1, 4096)
        .unit("bytes");
    k.integer("burst_cycles", burst_cycles, "Command-clock cycles one column command's data takes on the bus")
        .range(1, 64)
        .unit("cycles");
    k.integer("scheduler_queue", scheduler_queue,
              "Requests a channel's scheduler holds, counted in column commands, before inputs are "
              "back-pressured (with banks; dram.queue_depth without)")
        .range(1, 4096);
    k.string(
        "address_map", address_map,
        "A channel-local address's bits, most significant first (dots ignored): R row, B bank, C column, "
        "S byte in a burst; bits above the map are row bits (with banks)");
    Keys& t = k.section("timing", "HBM command timing in dram.clock_mhz cycles (with banks)");
    t.integer("ccd", timing.ccd, "Column to column command, different bank groups (tCCDS)").range(1, 1000);
    t.integer("ccdl", timing.ccdl, "Column to column command, the same bank group (tCCDL)").range(1, 1000);
    t.integer("rrd", timing.rrd, "Activate to activate, different banks (tRRD)").range(0, 1000);
    t.integer("rcd", timing.rcd, "Activate to column command (tRCD)").range(0, 1000);
    t.integer("ras", timing.ras, "Activate to precharge (tRAS)").range(0, 1000);
    t.integer("rp", timing.rp, "Precharge to activate (tRP)").range(0, 1000);
    t.integer("rc", timing.rc, "Activate to activate, the same bank (tRC)").range(0, 1000);
    t.integer("cl", timing.cl, "Read command to its data (CAS latency)").range(0, 1000);
    t.integer("wl", timing.wl, "Write command to its data (write latency)").range(0, 1000);
    t.integer("cdlr", timing.cdlr, "Last write data to a read command (tCDLR, write-to-read turnaround)")
        .range(0, 1000);
    t.integer("wr", timing.wr, "Last write data to precharge (tWR)").range(0, 1000);
    t.integer("rtp", timing.rtp, "Read command to precharge (tRTP)").range(0, 1000);
  }
};

}  // namespace numagpu
