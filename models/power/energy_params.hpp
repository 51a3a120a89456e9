// The `energy:` configuration section: the per-event energies and static powers of every component, each
// declared here once beside its field, with its default (the initialiser; docs/power.md gives the source or
// the estimate behind each), documentation, bounds and unit (config/keys.hpp explains keys()). Plain C++.
#pragma once

#include <array>
#include <string>

#include "common/instr_class.hpp"

namespace numagpu::power {

// Upper bounds far above anything physical (a millijoule per event or bit, a megawatt per instance), so that
// no table can make an energy or a power infinite: with at most 2^64 events of each counter, every sum
// power.json forms stays below 1e60, far inside a double, where 1e308 pJ/bit gave `power_w: null`.
inline constexpr double kMaxPicojoules = 1e9;
inline constexpr double kMaxWatts = 1e6;
inline constexpr double kMaxFemtojoules = 1e9;  // a microjoule per flip-flop per cycle
inline constexpr double kMaxNanowatts = 1e9;    // a watt per transistor

// The bounds and unit of the two kinds of energy key: an energy per event (or per bit) and a power.
template <class Declaring>
void picojoules(Declaring&& key, const char* unit = "pJ") {
  key.range(0, kMaxPicojoules).unit(unit);
}
template <class Declaring>
void watts(Declaring&& key) {
  key.range(0, kMaxWatts).unit("W");
}

struct EnergyParams {
  // An L1, or one L2 bank.
  struct Cache {
    double read_pj = 0;   // one line read (lookup and data), hit or miss; also a dirty line written back
    double write_pj = 0;  // one write received; also the write half of an atomic performed here
    double fill_pj = 0;   // one line allocated after a miss (or a write-back cache's write allocate)
    double miss_pj = 0;   // one read miss on top of its read: MSHR, request to the next level
    // Sectored caches only: per 32 B sector moved in or out of the data array (sectors read on a hit,
    // written, filled after a miss); the per-line energies above then stand for tags and control.
    double sector_pj = 0;
    double static_w = 0;  // per cache instance

    // A level whose line read, write and fill each cost `access_pj`.
    static Cache of(double access_pj, double static_w) {
      Cache c;
      c.read_pj = c.write_pj = c.fill_pj = access_pj;
      c.static_w = static_w;
      return c;
    }

    template <class Keys>
    void keys(Keys& c) {
      picojoules(c.real("read_pj", read_pj,
                        "Per line read (a lookup, hit or miss; also a dirty line read out for write-back)"));
      picojoules(c.real("write_pj", write_pj,
                        "Per write received (also the write half of an atomic performed in this cache)"));
      picojoules(c.real("fill_pj", fill_pj, "Per line allocated"));
      picojoules(c.real("miss_pj", miss_pj,
                        "Per read miss, on top of its read_pj (MSHR, the request to the next level)"));
      picojoules(
          c.real("sector_pj", sector_pj,
                 "Sectored caches only: per 32 B sector read on a hit, written, or filled after a miss (the "
                 "per-line energies then stand for tags and control)"));
      watts(c.real("static_w", static_w, "Static power of each instance"));
    }
  };

  // Fabric. Following the paper, link_pj_per_bit is the energy of one bit a GPU sends into the fabric on
  // its way to the next GPU, links and switch combined; switch_pj_per_bit is added per bit a switch sends
  // on (0 by default: the paper's figure includes the switch).
  double link_pj_per_bit = 10.0;
  double link_turnaround_pj = 64000.0;  // per lane turned around (dynamic links)
  double link_static_w = 0.0;           // per link
  double switch_pj_per_bit = 0.0;
  double switch_static_w = 0.0;      // per switch
  double crossbar_pj_per_bit = 1.0;  // request and response bits through a socket's crossbar
  double crossbar_static_w = 1.0;    // per crossbar (one per socket)
  double dram_read_pj_per_bit = 3.9;
  double dram_write_pj_per_bit = 3.9;
  double dram_static_w = 4.0;          // per socket's DRAM (background, refresh)
  double dram_channel_static_w = 0.0;  // per DRAM channel (its memory controller and PHY)
  Cache l1 = Cache::of(200.0, 0.05);
  Cache l2 = Cache::of(400.0, 0.15);
  double sm_instruction_pj =
      370.0;  // per warp instruction issued, whatever its class (fetch, decode, registers)
  // On top of sm_instruction_pj, per warp instruction of each class (InstrClass order).
  std::array<double, kInstrClasses> sm_class_pj{};
  double sm_static_w = 0.6;  // per SM, always
  double sm_resident_w = 0;  // per SM while at least one CTA is resident (an idle SM draws only static_w)
  // Taken off sm_resident_w per thread the SM's average warp instruction lacks of 32 (never below 0).
  double sm_resident_lane_w = 0;
  // When > 0: a resident SM's power, instead of the two above, in a window in which it issued tensor
  // instructions (AccelWattch's tensor mix: a higher static power that does not depend on lanes).
  double sm_resident_tensor_w = 0;
  double board_constant_w = 0;  // per socket (a GPU board): board, fans, the GPU's uncore
  // Per socket: the board's power limit (TDP); 0: none. Not enforced (no power capping is modelled): a
  // socket whose average power exceeds it is flagged in power.json and the run's summary.
  double board_power_limit_w = 0;
  // The two policy blocks, from their synthesized netlists (docs/rtl-area.md).
  double policy_flop_cycle_fj = 2.0;         // per flip-flop per clock cycle
  double policy_transistor_static_nw = 1.5;  // leakage per transistor

  template <class Keys>
  void keys(Keys& e) {
    Keys& link = e.section("link", "Inter-socket links");
    picojoules(
        link.real("pj_per_bit", link_pj_per_bit,
                  "Per bit a GPU sends into the fabric, up to the next GPU: links and switch combined (the "
                  "paper's 10 pJ/bit)"),
        "pJ/bit");
    picojoules(link.real("turnaround_pj", link_turnaround_pj,
                         "Per lane turned around by the link balancer (dynamic links)"));
    watts(link.real("static_w", link_static_w, "Static power of each link (the paper counts none)"));
    Keys& sw = e.section("switch", "Switches");
    picojoules(sw.real("pj_per_bit", switch_pj_per_bit,
                       "Per bit a switch sends on, on top of link.pj_per_bit (which includes the switch)"),
               "pJ/bit");
    watts(sw.real("static_w", switch_static_w, "Static power of each switch"));
    Keys& x = e.section("crossbar", "Each socket's crossbar");
    picojoules(
        x.real("pj_per_bit", crossbar_pj_per_bit, "Per request or response bit moved through the crossbar"),
        "pJ/bit");
    watts(x.real("static_w", crossbar_static_w, "Static power of each crossbar"));
    Keys& d = e.section("dram", "Each socket's DRAM");
    picojoules(d.real("read_pj_per_bit", dram_read_pj_per_bit, "Per bit read"), "pJ/bit");
    picojoules(d.real("write_pj_per_bit", dram_write_pj_per_bit, "Per bit written"), "pJ/bit");
    watts(d.real("static_w", dram_static_w, "Background and refresh power of each socket's DRAM"));
    watts(d.real("channel_static_w", dram_channel_static_w,
                 "Static power of each DRAM channel (memory controller and PHY)"));
    l1.keys(e.section("l1", "Each SM's L1"));
    l2.keys(e.section("l2", "Each L2 bank"));
    Keys& sm = e.section("sm", "Streaming multiprocessors");
    picojoules(sm.real(
        "instruction_pj", sm_instruction_pj,
        "Per warp instruction issued, whatever its class (fetch, decode, scheduling, register-file reads "
        "and write; in the paper system also the 32 lanes of execution)"));
    // One key per instruction class, named after it (<class>_pj), in InstrClass order.
    static constexpr const char* kClassDocs[kInstrClasses] = {
        "Per fp32 warp instruction (32 lanes of FMA), on top of instruction_pj",
        "Per fp64 warp instruction, on top of instruction_pj",
        "Per integer or logic warp instruction, on top of instruction_pj",
        "Per special-function (SFU) warp instruction, on top of instruction_pj",
        "Per tensor-core (HMMA) warp instruction, on top of instruction_pj",
        "Per branch or barrier warp instruction, on top of instruction_pj",
        "Per shared-memory warp access (the SRAM read or write), on top of instruction_pj",
        ("Per global load, store or atomic warp instruction (address generation, coalescing), on top of "
         "instruction_pj; the caches' energy is theirs"),  // parenthesized: one element, two lines
        "Per unclassified compute warp instruction (synthetic patterns, traces), on top of instruction_pj"};
    for (unsigned c = 0; c < kInstrClasses; ++c) {
      picojoules(sm.real((std::string(kInstrClassNames[c]) + "_pj").c_str(), sm_class_pj[c], kClassDocs[c]));
    }
    watts(sm.real("static_w", sm_static_w, "Static power of each SM, always (leakage)"));
    watts(sm.real(
        "resident_w", sm_resident_w,
        "Power of each SM while at least one CTA is resident, on top of static_w (clocks and pipelines "
        "not gated); an SM with no resident CTA draws static_w only"));
    watts(sm.real(
        "resident_lane_w", sm_resident_lane_w,
        "Taken off resident_w for each thread of 32 that the SM's average warp instruction lacks "
        "(thread_instructions / instructions): resident_w is the power at full warps; never below 0"));
    watts(sm.real(
        "resident_tensor_w", sm_resident_tensor_w,
        "When above 0: the power of each resident SM, instead of resident_w and resident_lane_w, over a "
        "window in which it issued tensor instructions (its static power with the tensor cores active)"));
    Keys& board = e.section("board", "Each GPU (socket) as a whole");
    watts(board.real("constant_w", board_constant_w,
                     "Constant power of each GPU: the board, its fans and regulators, the GPU's uncore"));
    watts(board.real(
        "power_limit_w", board_power_limit_w,
        "The board's power limit (its TDP: a GPU lowers its clock to stay under it); 0: none. numagpu "
        "does not model power capping: a socket whose simulated average power exceeds the limit is "
        "flagged (power.json sockets[].above_power_limit, the run's summary)"));
    Keys& p = e.section("policy", "The link balancer and cache partition controller, from their netlists");
    p.real("flop_cycle_fj", policy_flop_cycle_fj,
           "Per flip-flop per clock cycle (the blocks are clocked every cycle)")
        .range(0, kMaxFemtojoules)
        .unit("fJ");
    p.real("transistor_static_nw", policy_transistor_static_nw,
           "Leakage per transistor of the netlist's CMOS estimate")
        .range(0, kMaxNanowatts)
        .unit("nW");
  }
};

}  // namespace numagpu::power
