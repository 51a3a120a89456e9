// What every component instance did during a run, as raw counts: the input of the power model and of
// external power tools (McPAT/AccelWattch-style tables). Written as activity.json; schema in docs/power.md.
//
// An instance is a component (an SM, an L1, an L2 bank, a crossbar, a socket's DRAM, a link, a switch, a
// policy block) with named counters. Counters are totals over the run; with sample windows, each counter
// also has one value per window, and the windows add up to the total. Plain C++: no SystemC here, so
// `numagpu power` and tests use it without simulating.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace numagpu::power {

// Bumped on every incompatible change to activity.json (a counter renamed or given another meaning, a field
// removed or reshaped). New counters, kinds' properties or top-level fields are compatible.
inline constexpr int kActivitySchemaVersion = 1;

// The component kinds, as spelled in activity.json.
inline constexpr const char* kKinds[] = {
    "sm", "l1", "l2", "crossbar", "dram", "link", "switch", "link_balancer", "partition_controller"};

struct Window {
  std::uint64_t start_cycle = 0;
  std::uint64_t cycles = 0;
};

struct Instance {
  std::string name;  // SystemC hierarchical name, e.g. system.socket0.sm3
  std::string kind;  // one of kKinds
  int socket = -1;   // the socket it belongs to; -1 for the fabric (links, switches, link balancers)
  nlohmann::json properties = nlohmann::json::object();  // fixed facts: sizes, link ends, policy area
  std::vector<std::string> counters;                     // counter names
  std::vector<std::uint64_t> totals;                     // per counter, over the run
  std::vector<std::vector<std::uint64_t>> windows;       // windows[w][c]: counter c within window w

  // 0 when the instance has no counter of that name.
  std::uint64_t total(std::string_view counter) const;
  std::uint64_t in_window(std::size_t window, std::string_view counter) const;
};

struct Activity {
  std::string generator_version;
  // Hash of the resolved configuration without its `energy` section: activity does not depend on the
  // energy table, so two runs that differ only there have equal hashes (and equal activity).
  std::string machine_hash;
  nlohmann::json config = nlohmann::json::object();  // that configuration
  std::uint64_t clock_mhz = 1000;
  std::uint64_t duration_cycles = 0;  // simulated time, from 0 to the end of the run (drained)
  // The same in picoseconds when the clock changed during the run (System::set_clock_mhz), so that cycles
  // are not all clock_mhz's (clock_mhz is then the first clock); 0, and absent from the file, otherwise.
  std::uint64_t duration_ps = 0;
  // With duration_ps, the clocks of the run: from `cycle` on, `mhz` (the first at cycle 0 is clock_mhz).
  // The power model turns a span of cycles into time with them, and an SM's resident cycles are then also
  // counted in picoseconds (counter resident_ps).
  struct ClockStep {
    std::uint64_t cycle = 0;
    std::uint64_t mhz = 0;
  };
  std::vector<ClockStep> clock_steps;
  std::uint64_t sim_cycles = 0;     // when the last kernel completed (0 if it did not)
  std::uint64_t window_cycles = 0;  // sample window; 0: no windows
  unsigned sockets = 0;
  std::vector<Window> windows;  // consecutive, from cycle 0 to duration_cycles
  std::vector<Instance> instances;
};

struct ActivityError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

nlohmann::json activity_to_json(const Activity& activity);
// The time of cycles [from, from + cycles): at clock_mhz, or through clock_steps after a clock change.
double seconds_of_cycles(const Activity& activity, std::uint64_t from, std::uint64_t cycles);
// Checks the structure (schema and version, types, window arrays of the right length that add up to the
// totals, known kinds) and throws ActivityError("<json path>: <what was expected>") on the first problem.
Activity activity_from_json(const nlohmann::json& doc);

// 16 hex digits, FNV-1a 64 of the configuration's compact JSON text (as config::Config::hash() does).
std::string machine_hash(const nlohmann::json& config_without_energy);

}  // namespace numagpu::power
