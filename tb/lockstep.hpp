// Lockstep comparison of a Verilated RTL policy block with its C++ reference class.
//
// Every cycle: compare ALL outputs of the two (the outputs are registered, so they are compared before the
// cycle's inputs are applied), then apply the same inputs to both. The stimulus may look at the reference
// model (to react to a quiescing lane, or to place counts exactly on a window's threshold), so it is a
// deterministic function of its seed and of the reference's state: a failing run can be replayed exactly.
// On a mismatch the run stops, reports the cycle, the differing outputs and the recent inputs, and is
// replayed with waveforms on (RTL: every signal, via Verilator --trace; reference: its outputs, same names
// and time base) for the cycles leading up to the mismatch.
//
// A Block describes one policy block to the engine:
//   using Model (the Verilated class), Ref (the C++ class), Params, Inputs, Outputs;
//   kDecisions; drive(Model&, bool reset, const Inputs&); sample(const Model&) -> Outputs;
//   output_fields(const Params&) / output_values(const Outputs&) (RTL port names, widths, values);
//   input_fields(const Params&) / input_values(bool reset, const Inputs&).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <limits>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "tb/ref_vcd.hpp"
#include "tb/verilated_dut.hpp"

namespace numagpu::tb {

struct Field {
  const char* name;
  unsigned width;
};

inline unsigned count_width(std::uint32_t max_value) {
  unsigned w = 1;
  while (w < 32 && (std::uint64_t{1} << w) <= max_value)
    ++w;
  return w;
}

// One cycle of stimulus: rst_ni low (`reset`), or the block's inputs.
template <class Inputs>
struct Cycle {
  bool reset = false;
  Inputs in{};
};

// Scripted stimulus: a fixed list of cycles for a reference class `Ref` (idle inputs after its end).
template <class Ref>
class ScriptStim {
 public:
  using Step = Cycle<typename Ref::Inputs>;
  explicit ScriptStim(std::vector<Step> cycles) : cycles_(std::move(cycles)) {}
  Step next(std::uint64_t n, const Ref&) { return n < cycles_.size() ? cycles_[n] : Step{}; }
  std::size_t size() const { return cycles_.size(); }

 private:
  std::vector<Step> cycles_;
};

inline constexpr std::uint64_t kNever = std::numeric_limits<std::uint64_t>::max();

// Size of every constrained-random lockstep run: at least 2M cycles and at least 4000 sample windows (20M
// cycles at the paper's 5000-cycle windows), for each of three seeds per parameter set (docs/rtl.md).
inline constexpr std::uint64_t kMinCycles = 2'000'000;
inline constexpr std::uint64_t kMinWindows = 4000;
inline constexpr std::uint64_t kSeeds[] = {1, 2, 3};

inline std::uint64_t random_cycles(std::uint32_t sample_cycles) {
  return std::max(kMinCycles, kMinWindows * sample_cycles);
}

// Names typed tests after the verilated variant they run on.
struct VariantName {
  template <class T>
  static std::string GetName(int) {
    return T::kName;
  }
};

template <class Block>
struct RunOptions {
  std::string name;                   // names reports and waveform files
  std::uint64_t cycles = 0;           // cycles to compare after the initial reset
  std::uint64_t trace_from = kNever;  // write waveforms from this cycle on (replays, NUMAGPU_RTL_WAVES)
  std::uint64_t trace_to = kNever;    // ... up to and including this cycle
  std::uint64_t trace_cycles = 2000;  // how far before a mismatch the replay starts tracing
  // Test hook: corrupts the reference's copy of the inputs, to show that a divergence is caught.
  std::function<void(std::uint64_t cycle, typename Block::Inputs& ref_inputs)> ref_fault;
};

template <class Block, class Stim>
struct RunResult {
  bool ok = true;
  std::uint64_t cycles = 0;          // cycles compared
  std::uint64_t mismatch_cycle = 0;  // first cycle whose outputs differ (when !ok)
  std::string report;
  // Decision codes seen on the RTL's own outputs (decision_o while decision_valid_o).
  std::array<std::uint64_t, Block::kDecisions> rtl_decisions{};
  // The reference after the run (coverage counters, counters()).
  std::unique_ptr<typename Block::Ref> ref;
  std::unique_ptr<Stim> stim;  // the stimulus after the run (its own coverage bins)
};

inline std::string vcd_dir() {
  const char* env = std::getenv("NUMAGPU_RTL_VCD_DIR");
  return env != nullptr && *env != '\0' ? std::string(env) : std::string("rtl_vcd");
}

// Waveforms on demand for passing runs: NUMAGPU_RTL_WAVES=all (every cycle) or FIRST:LAST (cycles FIRST ..
// LAST after the initial reset) makes every lockstep run of the process write <name>.rtl.vcd and
// <name>.ref.vcd to vcd_dir() for that window (select runs with --gtest_filter). Unset or empty: none. A
// value that is neither stops the run with a message naming the variable.
struct WaveWindow {
  std::uint64_t first = kNever;
  std::uint64_t last = kNever;
};

inline WaveWindow waves_on_demand() {
  const char* env = std::getenv("NUMAGPU_RTL_WAVES");
  WaveWindow w;
  if (env == nullptr || *env == '\0') return w;
  const std::string v(env);
  if (v == "all") return WaveWindow{0, kNever};
  const std::size_t colon = v.find(':');
  const auto number = [&](const std::string& text) -> std::uint64_t {
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos) {
      std::fprintf(stderr, "NUMAGPU_RTL_WAVES=%s: expected 'all' or FIRST:LAST (cycle numbers)\n", env);
      std::exit(2);
    }
    return std::stoull(text);
  };
  w.first = number(v.substr(0, colon));
  w.last = colon == std::string::npos ? number("") : number(v.substr(colon + 1));  // "" reports the form
  return w;
}

// NUMAGPU_RTL_COVERAGE_DIR: every lockstep run writes its model's `verilator --coverage` counters to
// <dir>/<name>.dat (only the variants built with COVERAGE in cmake/Rtl.cmake have any). Empty: none.
inline std::string coverage_dir() {
  const char* env = std::getenv("NUMAGPU_RTL_COVERAGE_DIR");
  return env != nullptr ? std::string(env) : std::string();
}

namespace detail {

inline std::string format_fields(const std::vector<Field>& fields, const std::vector<std::uint64_t>& values) {
  std::ostringstream os;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i != 0) os << ' ';
    os << fields[i].name << '=';
    if (fields[i].width > 8) {
      os << "0x" << std::hex << values[i] << std::dec;
    } else {
      os << values[i];
    }
  }
  return os.str();
}

template <class Block, class Stim>
RunResult<Block, Stim> run_once(const typename Block::Params& params, const std::function<Stim()>& make_stim,
                                const RunOptions<Block>& opt, std::uint64_t stop_after) {
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;
  RunResult<Block, Stim> r;
  r.ref = std::make_unique<typename Block::Ref>(params);
  r.stim = std::make_unique<Stim>(make_stim());
  VerilatedDut<typename Block::Model> dut;
  // Bring the RTL out of its power-up state; the reference is constructed in the reset state.
  Block::drive(dut.top(), true, Inputs{});
  dut.tick();

  const std::vector<Field> out_fields = Block::output_fields(params);
  const std::vector<Field> in_fields = Block::input_fields(params);
  RefVcd ref_vcd;
  std::vector<std::size_t> ref_handles;
  for (const Field& f : out_fields)
    ref_handles.push_back(ref_vcd.add(f.name, f.width));

  // The inputs of the last kHistory cycles, for the report (a ring: no allocation per cycle).
  constexpr std::size_t kHistory = 8;
  std::array<Cycle<Inputs>, kHistory> history{};

  for (std::uint64_t n = 0; n < opt.cycles && n <= stop_after; ++n) {
    if (n == opt.trace_from) {
      std::filesystem::create_directories(vcd_dir());
      const std::string base = vcd_dir() + "/" + opt.name;
      dut.open_vcd(base + ".rtl.vcd");
      ref_vcd.open(base + ".ref.vcd");
    }
    if (opt.trace_to != kNever && n == opt.trace_to + 1) {
      dut.close_vcd();
      ref_vcd.close();
    }
    // VerilatedDut counts the initial reset as its cycle 0, so cycle n here is its cycle n + 1, and the
    // outputs of cycle n appear at the rising edge that ended cycle n - 1, at time 10 * n + 5.
    const std::uint64_t time = 10 * n + 5;
    const Outputs rtl = Block::sample(dut.top());
    const Outputs ref = r.ref->outputs();
    if (ref_vcd.is_open()) {
      const std::vector<std::uint64_t> ref_values = Block::output_values(ref);
      for (std::size_t i = 0; i < ref_handles.size(); ++i)
        ref_vcd.set(time, ref_handles[i], ref_values[i]);
    }
    const auto code = static_cast<std::size_t>(rtl.decision);
    if (rtl.decision_valid && code < r.rtl_decisions.size()) ++r.rtl_decisions[code];
    if (rtl != ref && r.ok) {
      r.ok = false;
      r.mismatch_cycle = n;
      const std::vector<std::uint64_t> rtl_values = Block::output_values(rtl);
      const std::vector<std::uint64_t> ref_values = Block::output_values(ref);
      std::ostringstream os;
      os << "lockstep mismatch in " << opt.name << " at cycle " << n
         << " (registered outputs: they depend on the inputs of cycles < " << n << ")\n";
      for (std::size_t i = 0; i < out_fields.size(); ++i) {
        if (rtl_values[i] != ref_values[i]) {
          os << "  " << out_fields[i].name << ": rtl=" << rtl_values[i] << " ref=" << ref_values[i] << '\n';
        }
      }
      os << "  rtl: " << format_fields(out_fields, rtl_values) << '\n';
      os << "  ref: " << format_fields(out_fields, ref_values) << '\n';
      const std::uint64_t first = n > kHistory ? n - kHistory : 0;
      os << "  inputs of the last " << n - first << " cycles:\n";
      for (std::uint64_t c = first; c < n; ++c) {
        const Cycle<Inputs>& h = history[c % kHistory];
        os << "    cycle " << c << ": " << format_fields(in_fields, Block::input_values(h.reset, h.in))
           << '\n';
      }
      r.report = os.str();
    }
    r.cycles = n + 1;
    if (!r.ok && stop_after == kNever) break;  // a replay goes on to stop_after

    const Cycle<Inputs> c = r.stim->next(n, *r.ref);
    history[n % kHistory] = c;
    Block::drive(dut.top(), c.reset, c.in);
    dut.tick();
    if (c.reset) {
      r.ref->reset();
    } else {
      Inputs ref_in = c.in;
      if (opt.ref_fault) opt.ref_fault(n, ref_in);
      r.ref->step(ref_in);
    }
  }
  if (const std::string dir = coverage_dir(); !dir.empty() && stop_after == kNever) {
    std::filesystem::create_directories(dir);
    dut.write_coverage(dir + "/" + opt.name + ".dat");
  }
  return r;
}

}  // namespace detail

// Runs `opt.cycles` cycles in lockstep. On a mismatch, replays the same run with waveforms for the last
// `opt.trace_cycles` cycles before it (and two after) and adds the file names to the report.
template <class Block, class Stim>
RunResult<Block, Stim> run_lockstep(const typename Block::Params& params,
                                    const std::function<Stim()>& make_stim, const RunOptions<Block>& opt) {
  RunOptions<Block> run = opt;
  if (const WaveWindow w = waves_on_demand(); w.first != kNever && run.trace_from == kNever) {
    run.trace_from = w.first;
    run.trace_to = w.last;
  }
  RunResult<Block, Stim> r = detail::run_once<Block, Stim>(params, make_stim, run, kNever);
  if (r.ok) return r;
  RunOptions<Block> replay = opt;
  replay.trace_to = kNever;
  replay.trace_from = r.mismatch_cycle > opt.trace_cycles ? r.mismatch_cycle - opt.trace_cycles : 0;
  detail::run_once<Block, Stim>(params, make_stim, replay, r.mismatch_cycle + 2);
  const std::string base = vcd_dir() + "/" + opt.name;
  r.report += "  waveforms (cycles " + std::to_string(replay.trace_from) + " .. " +
              std::to_string(r.mismatch_cycle + 2) + ", cycle n starts at time 10 x (n + 1)): " + base +
              ".rtl.vcd, " + base + ".ref.vcd\n";
  return r;
}

}  // namespace numagpu::tb
