// PartitionController: the reference model of one socket's NUMA-aware cache way partitioning (paper §5.1).
// Once per sample window it compares the socket's DRAM utilization with its incoming link utilization,
// estimated from outgoing read requests times the response size, and moves at most one way between the
// local and the remote group. The split applies to the socket's L1s and L2.
//
// This class is the specification rtl/cache_partition_ctrl.sv is verified against, bit for bit and cycle
// for cycle: docs/policies.md is the shared contract. Plain C++ with integer state.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace numagpu::policy {

class PartitionController {
 public:
  // Defaults: 16 ways, 5K-cycle windows, 99 %, 144 B responses (128 B line + 16 B header) on a 64 B/cycle
  // ingress (8 lanes x 8 B).
  struct Params {
    // Limits as in the RTL (docs/policies.md, "Parameter limits").
    std::uint32_t ways = 16;                     // 2..64
    std::uint32_t sample_cycles = 5000;          // 1..2^31-1
    std::uint32_t sat_num = 99;                  // saturation fraction sat_num / sat_den; 1..65535
    std::uint32_t sat_den = 100;                 // 1..65535
    std::uint32_t resp_bytes = 144;              // bytes of one read response on the link; 1..65535
    std::uint32_t ingress_bytes_per_cycle = 64;  // link ingress capacity; 1..65535

    // Throws std::invalid_argument naming the first parameter out of range.
    void validate() const;
  };

  struct Inputs {
    bool kernel_launch = false;   // strobe: back to the equal split, counters cleared
    bool dram_busy = false;       // the socket's DRAM was busy this cycle
    std::uint16_t read_reqs = 0;  // remote read requests this socket sent this cycle (RTL: ReqW bits)
  };

  // Decision codes: the RTL's decision_o carries the same values.
  enum class Decision : std::uint8_t {
    kNone = 0,              // neither saturated
    kToRemote = 1,          // link saturated alone: one local way becomes remote
    kToLocal = 2,           // DRAM saturated alone: one remote way becomes local
    kEqualizeToRemote = 3,  // both saturated, remote below ways/2: one way toward remote
    kEqualizeToLocal = 4,   // both saturated, remote above ways/2: one way toward local
    kBalanced = 5,          // both saturated, already at ways/2
    kBlockedToRemote = 6,   // link saturated alone, but local is down to one way
    kBlockedToLocal = 7,    // DRAM saturated alone, but remote is down to one way
  };
  static constexpr std::size_t kNumDecisions = 8;

  // Registered outputs (valid for a whole cycle).
  struct Outputs {
    std::uint32_t remote_ways = 0;  // ways remote lines may allocate into
    std::uint32_t local_ways = 0;   // ways - remote_ways
    std::uint64_t remote_mask = 0;  // bit w: way w allocates remote lines (the highest remote_ways ways)
    bool decision_valid = false;    // pulses in the first cycle after a window's decision
    Decision decision = Decision::kNone;  // last decision, held until the next one or a reset/launch

    friend bool operator==(const Outputs& x, const Outputs& y) {
      return x.remote_ways == y.remote_ways && x.local_ways == y.local_ways &&
             x.remote_mask == y.remote_mask && x.decision_valid == y.decision_valid &&
             x.decision == y.decision;
    }
    friend bool operator!=(const Outputs& x, const Outputs& y) { return !(x == y); }
  };

  struct Counters {
    std::uint64_t windows = 0;   // window ends that took a decision
    std::uint64_t launches = 0;  // kernel launches seen
  };

  using Coverage = std::array<std::uint64_t, kNumDecisions>;

  // Validates the parameters (std::invalid_argument) and starts in the reset state.
  PartitionController();  // default Params
  explicit PartitionController(const Params& params);

  // One rising edge with rst_ni low. Coverage and counters are kept.
  void reset();
  // One rising edge: consumes this cycle's inputs, returns the outputs of the next cycle.
  Outputs step(const Inputs& in);
  // The outputs of the current cycle.
  Outputs outputs() const;
  // `windows` whole windows of quiet inputs (DRAM never busy, no read request, no launch) from the quiet
  // fixed point: the first cycle of a window after a quiet window that decided "none". Nothing changes but
  // the window and coverage counts (the same as stepping them). Throws std::logic_error elsewhere.
  void skip_quiet_windows(std::uint64_t windows);
  // `cycles` cycles of quiet inputs inside a window: no decision pulse showing and the window's last cycle
  // not among them. The window position advances and nothing else changes (the same as stepping them).
  // Throws std::logic_error elsewhere.
  void skip_quiet_cycles(std::uint64_t cycles);
  // Whether outputs `out` allow skip_quiet_cycles (no decision pulse).
  static bool quiet_cycles_skippable(const Outputs& out) { return !out.decision_valid; }
  // Whether a cycle's inputs are quiet (no launch, idle DRAM, no request): what the skips above assume.
  static bool quiet_inputs(const Inputs& in) {
    return !in.kernel_launch && !in.dram_busy && in.read_reqs == 0;
  }

  const Params& params() const { return params_; }
  std::uint32_t remote_ways() const { return remote_ways_; }
  std::uint32_t local_ways() const { return params_.ways - remote_ways_; }
  // Position in the current window, 0 .. sample_cycles-1.
  std::uint32_t window_cycle() const { return window_cycle_; }
  // Counts so far in the current window.
  std::uint32_t dram_busy_count() const { return dram_busy_; }
  std::uint64_t read_req_count() const { return read_reqs_; }
  // Counts of the last completed window (what its decision saw); 0 before the first.
  std::uint32_t last_dram_busy() const { return last_dram_busy_; }
  std::uint64_t last_read_reqs() const { return last_read_reqs_; }
  // Smallest counts that saturate: ceil(sat_num * sample_cycles / sat_den) busy cycles, and
  // ceil(sat_num * ingress_bytes_per_cycle * sample_cycles / (resp_bytes * sat_den)) read requests.
  std::uint64_t dram_threshold() const;
  std::uint64_t link_threshold() const;

  const Coverage& coverage() const { return coverage_; }
  std::uint64_t coverage(Decision d) const { return coverage_[static_cast<std::size_t>(d)]; }
  const Counters& counters() const { return counters_; }
  void clear_coverage();

  static const char* name(Decision d);

 private:
  void restart();
  Decision decide(bool link_sat, bool dram_sat) const;

  Params params_;
  std::uint32_t remote_ways_ = 0;
  std::uint32_t window_cycle_ = 0;
  std::uint32_t dram_busy_ = 0;
  std::uint64_t read_reqs_ = 0;
  std::uint32_t last_dram_busy_ = 0;
  std::uint64_t last_read_reqs_ = 0;
  bool decision_valid_ = false;
  Decision decision_ = Decision::kNone;
  Coverage coverage_{};
  Counters counters_;
};

}  // namespace numagpu::policy
