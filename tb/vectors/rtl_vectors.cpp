// rtl_vectors: writes the lockstep stimulus of a policy block, with the C++ reference's outputs, as a text
// file of test vectors that any simulator can replay (tb/sv/*_vectors_tb.sv, on Icarus Verilog and
// Verilator). The stimulus is the lockstep tests' own: every directed scenario (each after a reset), then
// constrained-random traffic from a seed (tb/link_balancer_tb.hpp, tb/partition_ctrl_tb.hpp).
//
// Usage: rtl_vectors (link_balancer|cache_partition_ctrl) [Param=value ...] --cycles N --seed S
//                    [--no-scenarios] --out FILE
//   Param: the RTL parameter names (Lanes SampleCycles SwitchCycles SatNum SatDen; Ways SampleCycles SatNum
//   SatDen RespBytes IngressBytesPerCycle ReqW); unnamed ones keep the RTL defaults.
//
// File format (docs/rtl.md, "Vector files"): line 1 a comment naming the block and the fields; line 2 the
// parameters in decimal, in the order of the usage line above; then one line per cycle, in hex: the inputs
// of the cycle (rst_ni first), then the outputs expected during the cycle, before its rising edge.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "tb/link_balancer_tb.hpp"
#include "tb/partition_ctrl_tb.hpp"

namespace numagpu::tb {
namespace {

struct Args {
  std::string block;
  std::map<std::string, std::uint32_t> params;
  std::uint64_t cycles = 0;
  std::uint64_t seed = 1;
  bool scenarios = true;  // --no-scenarios: the random traffic only
  std::string out;
};

[[noreturn]] void fail(const std::string& what) {
  std::cerr << "rtl_vectors: " << what << '\n';
  std::exit(2);
}

std::uint64_t parse_number(const std::string& key, const std::string& text) {
  try {
    std::size_t used = 0;
    const unsigned long long v = std::stoull(text, &used, 10);
    if (used == text.size() && text[0] != '-') return v;
  } catch (const std::exception&) {
  }
  fail(key + ": expected a non-negative decimal number, got '" + text + "'");
}

Args parse(int argc, char** argv) {
  Args a;
  if (argc < 2)
    fail(
        "usage: rtl_vectors (link_balancer|cache_partition_ctrl) [Param=value ...] --cycles N --seed S --out "
        "FILE");
  a.block = argv[1];
  if (a.block != "link_balancer" && a.block != "cache_partition_ctrl")
    fail("block: expected link_balancer or cache_partition_ctrl, got '" + a.block + "'");
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    const auto value = [&]() -> std::string {
      if (i + 1 >= argc) fail(arg + ": expected a value after it");
      return argv[++i];
    };
    if (arg == "--cycles") {
      a.cycles = parse_number(arg, value());
    } else if (arg == "--seed") {
      a.seed = parse_number(arg, value());
    } else if (arg == "--no-scenarios") {
      a.scenarios = false;
    } else if (arg == "--out") {
      a.out = value();
    } else if (const auto eq = arg.find('='); eq != std::string::npos && eq > 0) {
      const std::string key = arg.substr(0, eq);
      const std::uint64_t v = parse_number(key, arg.substr(eq + 1));
      if (v > 0xffffffffu) fail(key + ": expected a 32-bit value, got " + arg.substr(eq + 1));
      a.params[key] = static_cast<std::uint32_t>(v);
    } else {
      fail("unknown argument '" + arg + "'");
    }
  }
  if (a.out.empty()) fail("--out: expected an output file");
  return a;
}

// Takes the parameters `known` (name -> field) from `given`; any name left over is an error.
void apply(std::map<std::string, std::uint32_t> given, const std::map<std::string, std::uint32_t*>& known) {
  for (const auto& [name, field] : known) {
    if (const auto it = given.find(name); it != given.end()) {
      *field = it->second;
      given.erase(it);
    }
  }
  if (!given.empty()) fail(given.begin()->first + ": not a parameter of this block");
}

// Writes `text` to `path` atomically: a temporary file beside it, renamed over it.
void write_atomically(const std::string& path, const std::string& text) {
  const std::filesystem::path target(path);
  const std::filesystem::path tmp = target.string() + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary);
    if (!f) fail(path + ": cannot write");
    f << text;
    if (!f.flush()) fail(path + ": cannot write");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, target, ec);
  if (ec) fail(path + ": cannot write (" + ec.message() + ")");
}

// Plays `cycles` cycles of `stim` into the reference and appends one vector line per cycle.
template <class Ref, class Stim, class Line>
void play(Ref& ref, Stim& stim, std::uint64_t cycles, const Line& line, std::ostringstream& os) {
  for (std::uint64_t n = 0; n < cycles; ++n) {
    const auto c = stim.next(n, ref);
    os << line(c, ref.outputs()) << '\n';
    if (c.reset) {
      ref.reset();
    } else {
      ref.step(c.in);
    }
  }
}

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "%llx", static_cast<unsigned long long>(v));
  return buf;
}

template <class Ref>
Cycle<typename Ref::Inputs> reset_cycle() {
  Cycle<typename Ref::Inputs> c;
  c.reset = true;
  return c;
}

std::string link_balancer(const Args& a) {
  using Lb = policy::LinkBalancer;
  Lb::Params p;
  apply(a.params, {{"Lanes", &p.lanes},
                   {"SampleCycles", &p.sample_cycles},
                   {"SwitchCycles", &p.switch_cycles},
                   {"SatNum", &p.sat_num},
                   {"SatDen", &p.sat_den}});
  try {
    p.validate();
  } catch (const std::exception& e) {
    fail(std::string("parameters: ") + e.what());
  }
  std::ostringstream os;
  os << "// numagpu vectors link_balancer: rst_ni kernel_launch_i busy_a_i busy_b_i drained_i | lanes_a_o "
        "lanes_b_o lane_dir_o lane_quiesce_o lane_switch_o decision_valid_o decision_o\n";
  os << p.lanes << ' ' << p.sample_cycles << ' ' << p.switch_cycles << ' ' << p.sat_num << ' ' << p.sat_den
     << '\n';
  const auto line = [](const Cycle<Lb::Inputs>& c, const Lb::Outputs& o) {
    return hex(!c.reset) + ' ' + hex(c.in.kernel_launch) + ' ' + hex(c.in.busy_a) + ' ' + hex(c.in.busy_b) +
           ' ' + hex(c.in.drained) + ' ' + hex(o.lanes_a) + ' ' + hex(o.lanes_b) + ' ' + hex(o.lane_dir) +
           ' ' + hex(o.lane_quiesce) + ' ' + hex(o.lane_switch) + ' ' + hex(o.decision_valid) + ' ' +
           hex(static_cast<unsigned>(o.decision));
  };
  Lb ref(p);
  for (const LinkBalancerScenario& sc :
       a.scenarios ? link_balancer_scenarios(p) : std::vector<LinkBalancerScenario>{}) {
    ScriptStim<Lb> stim({reset_cycle<Lb>()});
    play(ref, stim, 1, line, os);
    ScriptStim<Lb> script(sc.steps);
    play(ref, script, sc.steps.size() + 2, line, os);
  }
  LinkBalancerRandomStim random(p, a.seed);
  play(ref, random, a.cycles, line, os);
  return os.str();
}

std::string partition_ctrl(const Args& a) {
  using Pc = policy::PartitionController;
  Pc::Params p;
  std::uint32_t req_w = 2;
  apply(a.params, {{"Ways", &p.ways},
                   {"SampleCycles", &p.sample_cycles},
                   {"SatNum", &p.sat_num},
                   {"SatDen", &p.sat_den},
                   {"RespBytes", &p.resp_bytes},
                   {"IngressBytesPerCycle", &p.ingress_bytes_per_cycle},
                   {"ReqW", &req_w}});
  try {
    p.validate();
  } catch (const std::exception& e) {
    fail(std::string("parameters: ") + e.what());
  }
  if (req_w < 1 || req_w > 16) fail("ReqW: expected 1 .. 16, got " + std::to_string(req_w));
  std::ostringstream os;
  os << "// numagpu vectors cache_partition_ctrl: rst_ni kernel_launch_i dram_busy_i read_reqs_i | "
        "remote_ways_o local_ways_o remote_mask_o decision_valid_o decision_o\n";
  os << p.ways << ' ' << p.sample_cycles << ' ' << p.sat_num << ' ' << p.sat_den << ' ' << p.resp_bytes << ' '
     << p.ingress_bytes_per_cycle << ' ' << req_w << '\n';
  const auto line = [](const Cycle<Pc::Inputs>& c, const Pc::Outputs& o) {
    return hex(!c.reset) + ' ' + hex(c.in.kernel_launch) + ' ' + hex(c.in.dram_busy) + ' ' +
           hex(c.in.read_reqs) + ' ' + hex(o.remote_ways) + ' ' + hex(o.local_ways) + ' ' +
           hex(o.remote_mask) + ' ' + hex(o.decision_valid) + ' ' + hex(static_cast<unsigned>(o.decision));
  };
  Pc ref(p);
  for (const PartitionCtrlScenario& sc :
       a.scenarios ? partition_ctrl_scenarios(p, req_w) : std::vector<PartitionCtrlScenario>{}) {
    ScriptStim<Pc> stim({reset_cycle<Pc>()});
    play(ref, stim, 1, line, os);
    ScriptStim<Pc> script(sc.steps);
    play(ref, script, sc.steps.size() + 2, line, os);
  }
  PartitionCtrlRandomStim random(p, req_w, a.seed);
  play(ref, random, a.cycles, line, os);
  return os.str();
}

}  // namespace
}  // namespace numagpu::tb

int main(int argc, char** argv) {
  using namespace numagpu::tb;
  const Args a = parse(argc, argv);
  write_atomically(a.out, a.block == "link_balancer" ? link_balancer(a) : partition_ctrl(a));
  return 0;
}
