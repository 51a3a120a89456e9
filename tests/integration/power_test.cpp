// Activity and power of whole runs, with expectations derived by hand from small explicit systems: the
// recorded counts are what the workload implies, energy is those counts times the table's energies, an idle
// machine draws only static power, and a bench-fabric copy's link energy is its bits times 10 pJ.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/bench_fabric.hpp"
#include "common/health.hpp"
#include "power/energy_config.hpp"
#include "power/power_model.hpp"
#include "small_system.hpp"
#include "system/activity_recorder.hpp"
#include "system/system.hpp"

namespace numagpu {
namespace {

using nlohmann::json;
using testing::small_spec;
using testing::stream_kernel;

power::EnergyTable table(const std::vector<std::string>& sets) {
  return power::energy_table(config::load(power::energy_schema(), {}, sets));
}

const power::Instance& find(const power::Activity& a, const std::string& name) {
  for (const power::Instance& i : a.instances)
    if (i.name == name) return i;
  throw std::runtime_error("no instance " + name);
}

double dynamic_of_kind(const json& power, const std::string& kind) {
  return power.at("total").at("components").at(kind).at("dynamic_j").get<double>();
}

// One socket, one SM, one warp streaming 4 lines (compute_cycles 0: each access is a compute instruction
// and a load). By hand:
//   SM: 4 compute + 4 load instructions = 8.
//   L1: 4 cold read misses, 4 fills. L2 (4 banks, line mod 4): lines 0..3, one read miss and fill per bank.
//   DRAM: 4 line reads = 4 x 128 x 8 = 4096 bits.
//   Crossbar: per load a 16 B request and a 16 + 128 B response: 4 x 160 B = 5120 bits.
TEST(PowerRun, EnergyIsCountsTimesPerEventEnergies) {
  SystemSpec spec = small_spec(1);
  spec.sms_per_socket = 1;
  spec.kernels = {stream_kernel("k", 1, 1, 4)};
  std::ostringstream diag;
  stats::Registry reg;
  System system("system", spec, reg, diag);
  ActivityRecorder recorder("activity", system, 0);
  system.run();
  ASSERT_TRUE(system.context().health.ok()) << diag.str();
  const power::Activity a = recorder.finish();

  EXPECT_EQ(find(a, "system.socket0.sm0").total("instructions"), 8u);
  EXPECT_EQ(find(a, "system.socket0.sm0").total("loads"), 4u);
  EXPECT_EQ(find(a, "system.socket0.l1_0").total("reads"), 4u);
  EXPECT_EQ(find(a, "system.socket0.l1_0").total("read_misses"), 4u);
  EXPECT_EQ(find(a, "system.socket0.l1_0").total("fills"), 4u);
  for (int b = 0; b < 4; ++b) {
    const power::Instance& bank = find(a, "system.socket0.l2_" + std::to_string(b));
    EXPECT_EQ(bank.total("reads"), 1u) << bank.name;
    EXPECT_EQ(bank.total("fills"), 1u) << bank.name;
  }
  EXPECT_EQ(find(a, "system.socket0.dram").total("read_bits"), 4096u);
  EXPECT_EQ(find(a, "system.socket0.dram").total("write_bits"), 0u);
  EXPECT_EQ(find(a, "system.socket0.xbar").total("bits"), 5120u);
  EXPECT_EQ(a.duration_cycles, system.drained_cycle());

  const json p =
      power::power_document(a,
                            table({"energy.sm.instruction_pj=100", "energy.l1.read_pj=10",
                                   "energy.l1.fill_pj=30", "energy.l2.read_pj=40", "energy.l2.fill_pj=60",
                                   "energy.crossbar.pj_per_bit=2", "energy.dram.read_pj_per_bit=4"}),
                            "test");
  EXPECT_DOUBLE_EQ(dynamic_of_kind(p, "sm"), 8 * 100e-12);
  EXPECT_DOUBLE_EQ(dynamic_of_kind(p, "l1"), (4 * 10 + 4 * 30) * 1e-12);
  EXPECT_DOUBLE_EQ(dynamic_of_kind(p, "l2"), (4 * 40 + 4 * 60) * 1e-12);
  EXPECT_DOUBLE_EQ(dynamic_of_kind(p, "crossbar"), 5120 * 2e-12);
  EXPECT_DOUBLE_EQ(dynamic_of_kind(p, "dram"), 4096 * 4e-12);
  EXPECT_NEAR(p.at("total").at("dynamic_j").get<double>(), (800 + 160 + 400 + 10240 + 16384) * 1e-12, 1e-21);
  EXPECT_EQ(p.at("communication").at("energy_j").get<double>(), 0.0);  // one socket: no fabric

  // Instruction classes: a synthetic pattern's compute is unclassified (other) and each load a memory
  // instruction: 4 + 4, adding up to the 8 instructions.
  const power::Instance& sm = find(a, "system.socket0.sm0");
  EXPECT_EQ(sm.total("instructions_other"), 4u);
  EXPECT_EQ(sm.total("instructions_memory"), 4u);
  EXPECT_EQ(sm.total("instructions_fp32") + sm.total("instructions_int") + sm.total("instructions_branch"),
            0u);
  // A synthetic warp has all its 32 threads: 8 x 32 thread instructions.
  EXPECT_EQ(sm.total("thread_instructions"), 8u * 32u);
  // The one CTA is resident from its launch until its warp retires, within the run.
  EXPECT_GT(sm.total("resident_cycles"), 0u);
  EXPECT_LE(sm.total("resident_cycles"), a.duration_cycles);
  // Priced: 8 x 100 (every instruction) + 4 x 7 (other) + 4 x 11 (memory) = 872 pJ; fp32 costs nothing here.
  const json q = power::power_document(a,
                                       table({"energy.sm.instruction_pj=100", "energy.sm.other_pj=7",
                                              "energy.sm.memory_pj=11", "energy.sm.fp32_pj=1000"}),
                                       "test");
  EXPECT_DOUBLE_EQ(dynamic_of_kind(q, "sm"), 872e-12);
}

// Two sockets with no workload, held for 10000 cycles (10 us at 1 GHz): no dynamic energy anywhere, and the
// static power is the table's, instance by instance (defaults): per socket 4 SMs x 0.6 W + 4 L1s x 0.05 W
// + 4 L2 banks x 0.15 W + crossbar 1 W + DRAM 4 W = 8.2 W; links and the switch 0 W. 16.4 W, 164 uJ.
TEST(PowerRun, NoTrafficReportsOnlyStaticPower) {
  SystemSpec spec = small_spec(2);
  spec.kernels.clear();
  spec.max_cycles = 10000;
  spec.facts.sample_cycles = 1000;  // the recorder's windows are the system's
  std::ostringstream diag;
  stats::Registry reg;
  System system("system", spec, reg, diag);
  ActivityRecorder recorder("activity", system, 1000);
  system.run();
  ASSERT_TRUE(system.context().health.ok()) << diag.str();
  const power::Activity a = recorder.finish();
  EXPECT_EQ(a.duration_cycles, 10000u);
  for (const power::Instance& i : a.instances) {
    for (std::size_t c = 0; c < i.counters.size(); ++c) {
      // Idle and clocked cycles grow with time; everything else counts activity.
      if (i.counters[c].rfind("idle_", 0) == 0 || i.counters[c] == "clocked_cycles") continue;
      EXPECT_EQ(i.totals[c], 0u) << i.name << "." << i.counters[c];
    }
  }
  const json p = power::power_document(a, table({}), "test");
  EXPECT_EQ(p.at("total").at("dynamic_j").get<double>(), 0.0);
  EXPECT_NEAR(p.at("total").at("power_w").get<double>(), 16.4, 1e-9);
  EXPECT_NEAR(p.at("total").at("static_j").get<double>(), 164e-6, 1e-15);
  EXPECT_NEAR(p.at("sockets")[1].at("power_w").get<double>(), 8.2, 1e-9);
  EXPECT_EQ(p.at("communication").at("power_w").get<double>(), 0.0);
  for (const json& w : p.at("series").at("total_w"))
    EXPECT_NEAR(w.get<double>(), 16.4, 1e-9);
}

// `spec` run to its end with an activity recorder of `window` cycles (0: none); its activity.
power::Activity recorded_run(const SystemSpec& spec, Cycles window) {
  std::ostringstream diag;
  stats::Registry reg;
  System system("system", spec, reg, diag);
  ActivityRecorder recorder("activity", system, window);
  system.run();
  EXPECT_TRUE(system.context().health.ok()) << diag.str();
  return recorder.finish();
}

// The same idle machine at 1000 MHz, going to 500 MHz halfway (system.clock_steps: cycle 5000). By hand:
// 10000 cycles, 5000 x 1 ns + 5000 x 2 ns = 15 us; static power 16.4 W as above over 15 us: 246 uJ.
TEST(PowerRun, AClockStepHalfwayCountsEachHalfAtItsClock) {
  SystemSpec spec = small_spec(2);
  spec.kernels.clear();
  spec.max_cycles = 10000;
  spec.clock_steps = {{5000, 500}};
  const power::Activity a = recorded_run(spec, 0);
  EXPECT_EQ(sc_core::sc_time_stamp(), sc_core::sc_time(15, sc_core::SC_US));
  EXPECT_EQ(a.duration_cycles, 10000u);
  EXPECT_EQ(a.duration_ps, 15000000u);
  ASSERT_EQ(a.clock_steps.size(), 2u);
  EXPECT_EQ(a.clock_steps[1].cycle, 5000u);
  EXPECT_EQ(a.clock_steps[1].mhz, 500u);
  const json p = power::power_document(a, table({}), "test");
  EXPECT_DOUBLE_EQ(p.at("duration_seconds").get<double>(), 15e-6);
  EXPECT_NEAR(p.at("total").at("static_j").get<double>(), 246e-6, 1e-15);
  EXPECT_NEAR(p.at("total").at("power_w").get<double>(), 16.4, 1e-9);
}

// Windows of 100 cycles on a run with traffic and a step to 500 MHz at cycle 300: the windows still end every
// 100 cycles (the sampler follows the change), those before the step are 100 ns long and those after it
// 200 ns (series.seconds), and they tile the run.
TEST(PowerRun, WindowsAfterAClockStepAreTheirCyclesAtTheNewClock) {
  SystemSpec spec = small_spec(2);
  spec.kernels = {stream_kernel("k", 8, 2, 8)};
  spec.clock_steps = {{300, 500}};
  spec.facts.sample_cycles = 100;
  const power::Activity a = recorded_run(spec, 100);
  ASSERT_GT(a.duration_cycles, 500u);  // windows after the step
  const json p = power::power_document(a, table({}), "test");
  const json& seconds = p.at("series").at("seconds");
  ASSERT_EQ(seconds.size(), a.windows.size());
  for (std::size_t w = 0; w + 1 < a.windows.size(); ++w) {
    EXPECT_EQ(a.windows[w].start_cycle, 100 * w) << w;
    EXPECT_EQ(a.windows[w].cycles, 100u) << w;
    EXPECT_NEAR(seconds[w].get<double>(), w < 3 ? 100e-9 : 200e-9, 1e-18) << w;
  }
}

// A sample window every 500 cycles on a run with traffic: every counter's windows add up to its total (the
// model checks it when reading activity.json back), and the windows tile the run.
TEST(PowerRun, WindowsTileTheRunAndAddUpToTheTotals) {
  SystemSpec spec = small_spec(2);
  spec.link_mode = SystemSpec::LinkMode::kDynamic;
  spec.balancer.sample_cycles = 500;
  spec.facts.sample_cycles = 500;  // the recorder's windows are the system's
  spec.kernels = {stream_kernel("k", 16, 2, 16)};
  std::ostringstream diag;
  stats::Registry reg;
  System system("system", spec, reg, diag);
  ActivityRecorder recorder("activity", system, 500);
  system.run();
  ASSERT_TRUE(system.context().health.ok()) << diag.str();
  const power::Activity a = recorder.finish();
  ASSERT_GE(a.windows.size(), 2u);
  const power::Activity back = power::activity_from_json(power::activity_to_json(a));  // checks the sums
  EXPECT_EQ(back.windows.size(), a.windows.size());
  // The balancers decide once per 500-cycle window from the kernel launch at cycle 0 until the workload
  // finished, where the links were last stepped.
  const power::Instance& balancer = find(a, "system.link_gpu0_switch0.balancer");
  EXPECT_EQ(balancer.total("decisions"), system.finish_cycle() / 500);
  EXPECT_EQ(balancer.total("clocked_cycles"), a.duration_cycles);
  std::uint64_t link_bits = 0;
  for (const power::Instance& i : a.instances)
    if (i.kind == "link") link_bits += i.total("bits_a_to_b") + i.total("bits_b_to_a");
  EXPECT_EQ(link_bits, 8 * (system.fabric_bytes_out(0) + system.fabric_bytes_out(1) +
                            system.fabric_bytes_in(0) + system.fabric_bytes_in(1)));
}

// bench-fabric copies 64 KiB from GPU 0 to GPU 1 over the paper's switch: 512 line writes of 16 + 128 B
// leave GPU 0, and 512 acks of 16 B leave GPU 1, so the GPUs send 512 x 160 x 8 = 655360 bits into the
// fabric. At the default 10 pJ/bit (links and switch combined) that is 6.5536 uJ of link energy, and the
// switch, at 0 pJ/bit on top, adds nothing.
TEST(PowerRun, BenchFabricCopyLinkEnergyIsBitsTimesTenPicojoules) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("numagpu_power_bench_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  BenchFabricOptions o;
  o.base.out_dir = dir.string();
  o.base.quiet = true;
  o.base.sets = {"link.header_bytes=16"};
  o.pairs = "0-1";
  o.min_log2 = o.max_log2 = 16;
  o.direction = "uni";
  std::ostringstream out, err;
  ASSERT_EQ(bench_fabric_command(o, out, err), kExitOk) << err.str();
  std::ifstream in(dir / "power.json");
  const json p = json::parse(in);
  std::ifstream activity_in(dir / "activity.json");
  const power::Activity a = power::activity_from_json(json::parse(activity_in));
  fs::remove_all(dir);
  // Busy time comes from the link directions' busy trackers: the 512 line writes of 16 + 128 B = 73728 B that
  // GPU 0 sends, at the 8 lanes x 8 B = 64 B per cycle of its direction, keep it busy 1152 cycles; the same
  // bytes leave the switch toward GPU 1. Idle is the rest of the run.
  const power::Instance& egress = find(a, "system.link_gpu0_switch0");
  EXPECT_EQ(egress.total("busy_cycles_a_to_b"), 1152u);
  EXPECT_EQ(egress.total("busy_cycles_a_to_b") + egress.total("idle_cycles_a_to_b"), a.duration_cycles);
  EXPECT_EQ(find(a, "system.link_gpu1_switch0").total("busy_cycles_b_to_a"), 1152u);
  const double bits = 512.0 * 160 * 8;
  EXPECT_EQ(p.at("communication").at("gpu_bits").get<double>(), bits);
  EXPECT_NEAR(dynamic_of_kind(p, "link"), bits * 10e-12, 1e-18);
  EXPECT_EQ(dynamic_of_kind(p, "switch"), 0.0);
  EXPECT_NEAR(p.at("communication").at("energy_j").get<double>(), 6.5536e-6, 1e-18);
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
