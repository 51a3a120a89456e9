#include "power/energy_config.hpp"

namespace numagpu::power {

namespace {

using config::Schema;

// Upper bounds far above anything physical (a millijoule per event or bit, a megawatt per instance), so that
// no table can make an energy or a power infinite: with at most 2^64 events of each counter, every sum
// power.json forms stays below 1e60, far inside a double, where 1e308 pJ/bit gave `power_w: null`.
constexpr double kMaxPicojoules = 1e9;
constexpr double kMaxWatts = 1e6;
constexpr double kMaxFemtojoules = 1e9;  // a microjoule per flip-flop per cycle
constexpr double kMaxNanowatts = 1e9;    // a watt per transistor

// Defaults: docs/power.md gives the source or the estimate behind each one.
void add_cache(Schema& energy, const char* key, const char* doc, double access_pj, double static_w) {
  Schema& c = energy.section(key, doc);
  c.real("read_pj", "Per line read (a lookup, hit or miss; also a dirty line read out for write-back)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(access_pj);
  c.real("write_pj", "Per write received (also the write half of an atomic performed in this cache)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(access_pj);
  c.real("fill_pj", "Per line allocated").min(0).max(kMaxPicojoules).unit("pJ").default_value(access_pj);
  c.real("miss_pj", "Per read miss, on top of its read_pj (MSHR, the request to the next level)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(0.0);
  c.real("sector_pj",
         "Sectored caches only: per 32 B sector read on a hit, written, or filled after a miss (the per-line "
         "energies then stand for tags and control)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(0.0);
  c.real("static_w", "Static power of each instance").min(0).max(kMaxWatts).unit("W").default_value(static_w);
}

}  // namespace

void add_energy_schema(Schema& root) {
  Schema& e = root.section(
      "energy", "Per-event energy and static power of every component: power.json (docs/power.md)");
  Schema& link = e.section("link", "Inter-socket links");
  link.real("pj_per_bit",
            "Per bit a GPU sends into the fabric, up to the next GPU: links and switch combined (the paper's "
            "10 pJ/bit)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ/bit")
      .default_value(10.0);
  link.real("turnaround_pj", "Per lane turned around by the link balancer (dynamic links)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(64000.0);
  link.real("static_w", "Static power of each link (the paper counts none)")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  Schema& sw = e.section("switch", "Switches");
  sw.real("pj_per_bit", "Per bit a switch sends on, on top of link.pj_per_bit (which includes the switch)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ/bit")
      .default_value(0.0);
  sw.real("static_w", "Static power of each switch").min(0).max(kMaxWatts).unit("W").default_value(0.0);
  Schema& x = e.section("crossbar", "Each socket's crossbar");
  x.real("pj_per_bit", "Per request or response bit moved through the crossbar")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ/bit")
      .default_value(1.0);
  x.real("static_w", "Static power of each crossbar").min(0).max(kMaxWatts).unit("W").default_value(1.0);
  Schema& d = e.section("dram", "Each socket's DRAM");
  d.real("read_pj_per_bit", "Per bit read").min(0).max(kMaxPicojoules).unit("pJ/bit").default_value(3.9);
  d.real("write_pj_per_bit", "Per bit written").min(0).max(kMaxPicojoules).unit("pJ/bit").default_value(3.9);
  d.real("static_w", "Background and refresh power of each socket's DRAM")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(4.0);
  d.real("channel_static_w", "Static power of each DRAM channel (memory controller and PHY)")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  add_cache(e, "l1", "Each SM's L1", 200.0, 0.05);
  add_cache(e, "l2", "Each L2 bank", 400.0, 0.15);
  Schema& sm = e.section("sm", "Streaming multiprocessors");
  sm.real("instruction_pj",
          "Per warp instruction issued, whatever its class (fetch, decode, scheduling, register-file reads "
          "and write; in the paper system also the 32 lanes of execution)")
      .min(0)
      .max(kMaxPicojoules)
      .unit("pJ")
      .default_value(370.0);
  const char* class_docs[] = {
      "Per fp32 warp instruction (32 lanes of FMA), on top of instruction_pj",
      "Per fp64 warp instruction, on top of instruction_pj",
      "Per integer or logic warp instruction, on top of instruction_pj",
      "Per special-function (SFU) warp instruction, on top of instruction_pj",
      "Per tensor-core (HMMA) warp instruction, on top of instruction_pj",
      "Per branch or barrier warp instruction, on top of instruction_pj",
      "Per shared-memory warp access (the SRAM read or write), on top of instruction_pj",
      ("Per global load, store or atomic warp instruction (address generation, coalescing), on top of "
       "instruction_pj; the caches' energy is theirs"),
      "Per unclassified compute warp instruction (synthetic patterns, traces), on top of instruction_pj"};
  for (unsigned c = 0; c < std::size(kInstrClassNames); ++c)
    sm.real(std::string(kInstrClassNames[c]) + "_pj", class_docs[c])
        .min(0)
        .max(kMaxPicojoules)
        .unit("pJ")
        .default_value(0.0);
  sm.real("static_w", "Static power of each SM, always (leakage)")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.6);
  sm.real("resident_w",
          "Power of each SM while at least one CTA is resident, on top of static_w (clocks and pipelines "
          "not gated); an SM with no resident CTA draws static_w only")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  sm.real("resident_lane_w",
          "Taken off resident_w for each thread of 32 that the SM's average warp instruction lacks "
          "(thread_instructions / instructions): resident_w is the power at full warps; never below 0")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  sm.real("resident_tensor_w",
          "When above 0: the power of each resident SM, instead of resident_w and resident_lane_w, over a "
          "window in which it issued tensor instructions (its static power with the tensor cores active)")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  Schema& board = e.section("board", "Each GPU (socket) as a whole");
  board.real("constant_w", "Constant power of each GPU: the board, its fans and regulators, the GPU's uncore")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  board
      .real("power_limit_w",
            "The board's power limit (its TDP: a GPU lowers its clock to stay under it); 0: none. numagpu "
            "does not model power capping: a socket whose simulated average power exceeds the limit is "
            "flagged (power.json sockets[].above_power_limit, the run's summary)")
      .min(0)
      .max(kMaxWatts)
      .unit("W")
      .default_value(0.0);
  Schema& p = e.section("policy", "The link balancer and cache partition controller, from their netlists");
  p.real("flop_cycle_fj", "Per flip-flop per clock cycle (the blocks are clocked every cycle)")
      .min(0)
      .max(kMaxFemtojoules)
      .unit("fJ")
      .default_value(2.0);
  p.real("transistor_static_nw", "Leakage per transistor of the netlist's CMOS estimate")
      .min(0)
      .max(kMaxNanowatts)
      .unit("nW")
      .default_value(1.5);
}

const config::Schema& energy_schema() {
  static const Schema schema = [] {
    Schema root;
    add_energy_schema(root);
    return root;
  }();
  return schema;
}

EnergyTable energy_table(const config::Config& cfg) {
  auto r = [&cfg](const std::string& key) { return cfg.real("energy." + key); };
  EnergyTable t;
  t.link_pj_per_bit = r("link.pj_per_bit");
  t.link_turnaround_pj = r("link.turnaround_pj");
  t.link_static_w = r("link.static_w");
  t.switch_pj_per_bit = r("switch.pj_per_bit");
  t.switch_static_w = r("switch.static_w");
  t.crossbar_pj_per_bit = r("crossbar.pj_per_bit");
  t.crossbar_static_w = r("crossbar.static_w");
  t.dram_read_pj_per_bit = r("dram.read_pj_per_bit");
  t.dram_write_pj_per_bit = r("dram.write_pj_per_bit");
  t.dram_static_w = r("dram.static_w");
  for (auto [key, cache] : {std::pair{"l1.", &t.l1}, std::pair{"l2.", &t.l2}}) {
    cache->read_pj = r(std::string(key) + "read_pj");
    cache->write_pj = r(std::string(key) + "write_pj");
    cache->fill_pj = r(std::string(key) + "fill_pj");
    cache->miss_pj = r(std::string(key) + "miss_pj");
    cache->sector_pj = r(std::string(key) + "sector_pj");
    cache->static_w = r(std::string(key) + "static_w");
  }
  t.sm_instruction_pj = r("sm.instruction_pj");
  for (unsigned c = 0; c < t.sm_class_pj.size(); ++c)
    t.sm_class_pj[c] = r(std::string("sm.") + kInstrClassNames[c] + "_pj");
  t.sm_static_w = r("sm.static_w");
  t.sm_resident_w = r("sm.resident_w");
  t.sm_resident_lane_w = r("sm.resident_lane_w");
  t.sm_resident_tensor_w = r("sm.resident_tensor_w");
  t.board_constant_w = r("board.constant_w");
  t.board_power_limit_w = r("board.power_limit_w");
  t.dram_channel_static_w = r("dram.channel_static_w");
  t.policy_flop_cycle_fj = r("policy.flop_cycle_fj");
  t.policy_transistor_static_nw = r("policy.transistor_static_nw");
  t.resolved = cfg.resolved().at("energy");
  return t;
}

}  // namespace numagpu::power
