// Waveforms of the in-loop RTL (`rtl.waves: true`, docs/power.md "Waveforms of the in-loop RTL"): every
// Verilated policy block of a `policy.impl: rtl` run dumps all its signals, for the cycles of one window,
// as VCD text into a buffer held here; the run writes each buffer as rtl_<block>.vcd with its other outputs
// (atomically, as a set). The dumps are the switching activity gate-level power tools read
// (scripts/vcd_activity.py, docs/power.md "Switching activity for gate-level power tools").
//
// Plain C++ (no Verilator): the system holds one whether or not the RTL was compiled in.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace numagpu {

struct RtlWaveWindow {
  bool enabled = false;          // rtl.waves
  std::uint64_t start = 0;       // rtl.waves_start: first cycle dumped
  std::uint64_t cycles = 10000;  // rtl.waves_cycles: cycles dumped

  // Cycle c is dumped.
  bool covers(std::uint64_t c) const { return enabled && c >= start && c - start < cycles; }
  // Some cycle of [first, first + n) is dumped.
  bool overlaps(std::uint64_t first, std::uint64_t n) const {
    return enabled && n != 0 && first < start + cycles && first + n > start;
  }
};

class RtlWaves {
 public:
  RtlWaves(const RtlWaveWindow& window, std::uint64_t period_ps) : window_(window), period_ps_(period_ps) {}

  const RtlWaveWindow& window() const { return window_; }
  std::uint64_t period_ps() const { return period_ps_; }

  // The buffer block `instance` writes its VCD text into (file rtl_<instance>.vcd, '.' made '_'); it lives
  // as long as this object.
  std::string& buffer(const std::string& instance) {
    std::string file = instance;
    for (char& c : file)
      if (c == '.' || c == '/') c = '_';
    return files_["rtl_" + file + ".vcd"];
  }
  // File name -> VCD text, for every block that dumped.
  const std::map<std::string, std::string>& files() const { return files_; }

 private:
  RtlWaveWindow window_;
  std::uint64_t period_ps_;
  std::map<std::string, std::string> files_;  // node-based: buffer() references stay valid
};

}  // namespace numagpu
