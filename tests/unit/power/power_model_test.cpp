// The power model on hand-built activity: every component's energy is its counts times the table's
// per-event energies (worked out in each test), windows add up to the run, and activity.json round-trips.
#include "power/power_model.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "config/keys.hpp"
#include "power/activity.hpp"
#include "power/energy_config.hpp"
#include "power/rtl_area.hpp"

namespace numagpu::power {
namespace {

using nlohmann::json;

EnergyTable table(const std::vector<std::string>& sets = {}) {
  return energy_table(config::load(energy_schema(), {}, sets));
}

Instance instance(const char* name, const char* kind, int socket,
                  std::vector<std::pair<std::string, std::uint64_t>> counts) {
  Instance i;
  i.name = name;
  i.kind = kind;
  i.socket = socket;
  for (auto& [n, v] : counts) {
    i.counters.push_back(n);
    i.totals.push_back(v);
  }
  return i;
}

// 1000 cycles at 1000 MHz: 1 us.
Activity one_microsecond(unsigned sockets) {
  Activity a;
  a.generator_version = "test";
  a.machine_hash = "0123456789abcdef";
  a.clock_mhz = 1000;
  a.duration_cycles = 1000;
  a.sockets = sockets;
  return a;
}

double energy_of(const json& power, const std::string& name) {
  for (const json& i : power.at("instances"))
    if (i.at("name") == name) return i.at("dynamic_j").get<double>();
  ADD_FAILURE() << "no instance " << name;
  return 0;
}

TEST(EnergyTable, DefaultsAreThePapersLinkEnergyAndTheDocumentedEstimates) {
  const EnergyTable t = table();
  EXPECT_EQ(t.link_pj_per_bit, 10.0);  // the paper's 10 pJ/bit, links and switch combined
  EXPECT_EQ(t.switch_pj_per_bit, 0.0);
  EXPECT_EQ(t.dram_read_pj_per_bit, 3.9);
  EXPECT_EQ(t.dram_write_pj_per_bit, 3.9);
  EXPECT_EQ(t.resolved.at("link").at("pj_per_bit"), 10.0);
}

// Every energy key and the field it fills, walked through EnergyParams::keys() as the schema and the
// reading walk it (config/keys.hpp).
struct EnergyFields {
  std::string prefix;
  std::vector<std::pair<std::string, double*>>* found;
  std::vector<std::unique_ptr<EnergyFields>> sections;
  EnergyFields& section(const char* key, const char*) {
    sections.push_back(std::make_unique<EnergyFields>(EnergyFields{prefix + key + ".", found, {}}));
    return *sections.back();
  }
  config::Read real(const char* key, double& field, const char*) {
    found->emplace_back(prefix + key, &field);
    return {};
  }
};

std::vector<std::pair<std::string, double*>> energy_fields(EnergyParams& params) {
  std::vector<std::pair<std::string, double*>> found;
  EnergyFields walker{"energy.", &found, {}};
  params.keys(walker);
  return found;
}

// Each key is declared once, beside its field: setting key i to i + 1 shows i + 1 in exactly the field it
// names, and nowhere else. 41 keys: link 3, switch 2, crossbar 2, dram 4, l1 and l2 6 each, sm 14 (the
// instruction, the 9 instruction classes, static, resident, resident_lane, resident_tensor), board 2,
// policy 2.
TEST(EnergyTable, EachKeyFillsItsOwnField) {
  EnergyParams declared;
  const auto keys = energy_fields(declared);
  ASSERT_EQ(keys.size(), 41u);
  // link, switch, crossbar and dram come first (3 + 2 + 2 + 4 = 11 keys); the 9 classes follow the l1's and
  // l2's 6 each and sm.instruction_pj: 11 + 12 + 1 = 24 to 32.
  EXPECT_EQ(keys[11].first, "energy.l1.read_pj");
  EXPECT_EQ(keys[24].first, "energy.sm.fp32_pj");
  EXPECT_EQ(keys[32].first, "energy.sm.other_pj");
  std::vector<std::string> sets;
  for (std::size_t i = 0; i < keys.size(); ++i)
    sets.push_back(keys[i].first + "=" + std::to_string(i + 1));
  EnergyTable t = table(sets);
  const auto read = energy_fields(t);
  ASSERT_EQ(read.size(), keys.size());
  for (std::size_t i = 0; i < read.size(); ++i)
    EXPECT_EQ(*read[i].second, double(i + 1)) << read[i].first;
}

// The caches' defaults (docs/power.md): a line's read, write and fill cost the same, 200 pJ in an L1 and
// 400 pJ in an L2 bank; no miss or sector energy of their own; 0.05 W and 0.15 W static.
TEST(EnergyTable, CacheDefaultsPriceReadWriteAndFillAlike) {
  const EnergyTable t = table();
  EXPECT_EQ(t.l1.read_pj, 200.0);
  EXPECT_EQ(t.l1.write_pj, 200.0);
  EXPECT_EQ(t.l1.fill_pj, 200.0);
  EXPECT_EQ(t.l1.miss_pj, 0.0);
  EXPECT_EQ(t.l1.sector_pj, 0.0);
  EXPECT_EQ(t.l1.static_w, 0.05);
  EXPECT_EQ(t.l2.read_pj, 400.0);
  EXPECT_EQ(t.l2.write_pj, 400.0);
  EXPECT_EQ(t.l2.fill_pj, 400.0);
  EXPECT_EQ(t.l2.static_w, 0.15);
}

TEST(EnergyTable, BadValueIsAOneLineErrorNamingTheKey) {
  try {
    table({"energy.dram.read_pj_per_bit=-1"});
    FAIL() << "a negative energy was accepted";
  } catch (const config::ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("energy.dram.read_pj_per_bit"), std::string::npos) << e.what();
  }
}

// Issue 44: `energy.link.pj_per_bit=1e308` made the link's energy infinite (power_w: null, exit 0). Every
// energy key has an upper bound; a value above it is refused at the key with the range.
TEST(EnergyTable, ValuesThatWouldMakePowerInfiniteAreRefusedAtTheKey) {
  for (const char* set : {"energy.link.pj_per_bit=1e308", "energy.l2.read_pj=1e10", "energy.sm.static_w=1e7",
                          "energy.policy.flop_cycle_fj=inf", "energy.dram.read_pj_per_bit=nan"}) {
    try {
      table({set});
      ADD_FAILURE() << set << " was accepted";
    } catch (const config::ConfigError& e) {
      const std::string key = std::string(set).substr(0, std::string(set).find('='));
      EXPECT_NE(std::string(e.what()).find(key + ":"), std::string::npos) << e.what();
    }
  }
}

// At every key's upper bound (1e9 pJ per event or bit, 1e6 W per instance) and counters near 2^64 over one
// cycle, every number of power.json stays finite: each sum is below 2^64 x 1e9 pJ x a few terms, about 1e17
// J, divided by 1 ns.
TEST(PowerModel, LargestTableAndCountsGiveFinitePower) {
  const EnergyTable t =
      table({"energy.link.pj_per_bit=1e9", "energy.sm.instruction_pj=1e9", "energy.l2.read_pj=1e9",
             "energy.dram.read_pj_per_bit=1e9", "energy.sm.static_w=1e6", "energy.board.constant_w=1e6"});
  Activity a = one_microsecond(1);
  a.duration_cycles = 1;
  const std::uint64_t huge = ~std::uint64_t(0) - 1;
  a.instances.push_back(instance("s.sm0", "sm", 0, {{"instructions", huge}}));
  a.instances.push_back(instance("s.l2_0", "l2", 0, {{"reads", huge}}));
  a.instances.push_back(instance("s.dram", "dram", 0, {{"read_bits", huge}}));
  Instance link = instance("s.link", "link", -1, {{"bits_a_to_b", huge}, {"bits_b_to_a", huge}});
  link.properties = {{"a", "gpu0"}, {"a_kind", "gpu"}, {"b", "switch0"}, {"b_kind", "switch"}};
  a.instances.push_back(link);
  const json p = power_document(a, t, "test");
  ASSERT_TRUE(p.at("total").at("power_w").is_number()) << p.at("total").dump();
  EXPECT_TRUE(std::isfinite(p.at("total").at("power_w").get<double>()));
  EXPECT_TRUE(std::isfinite(p.at("communication").at("power_w").get<double>()));
  EXPECT_GT(p.at("total").at("power_w").get<double>(), 1e20);  // 2^64 x 1e9 pJ = 1.8e16 J in 1 ns
}

double static_of(const json& power, const std::string& name) {
  for (const json& i : power.at("instances"))
    if (i.at("name") == name) return i.at("static_j").get<double>();
  ADD_FAILURE() << "no instance " << name;
  return 0;
}

// The GV100 table's terms: instruction classes, resident SMs, sectors, miss energy, per-channel and board
// power. All static power off unless the line says otherwise; 1 us at 1 GHz.
TEST(PowerModel, ClassesSectorsResidentSmsChannelsAndTheBoardByHand) {
  const EnergyTable t = table(
      {"energy.sm.instruction_pj=2", "energy.sm.fp32_pj=10", "energy.sm.int_pj=1", "energy.sm.memory_pj=4",
       "energy.sm.tensor_pj=1000", "energy.sm.static_w=1", "energy.sm.resident_w=3", "energy.l1.read_pj=1",
       "energy.l1.write_pj=2", "energy.l1.fill_pj=3", "energy.l1.miss_pj=5", "energy.l1.sector_pj=7",
       "energy.l1.static_w=0", "energy.l2.static_w=0", "energy.crossbar.static_w=0", "energy.dram.static_w=4",
       "energy.dram.channel_static_w=0.5", "energy.board.constant_w=10"});
  Activity a = one_microsecond(1);
  a.instances.push_back(instance("s.sm0", "sm", 0,
                                 {{"instructions", 100},
                                  {"instructions_fp32", 60},
                                  {"instructions_int", 30},
                                  {"instructions_memory", 10},
                                  {"resident_cycles", 400}}));
  a.instances.push_back(instance("s.l1_0", "l1", 0,
                                 {{"reads", 10},
                                  {"read_hits", 6},
                                  {"read_misses", 4},
                                  {"writes", 2},
                                  {"fills", 4},
                                  {"read_sector_hits", 20},
                                  {"read_sector_misses", 12},
                                  {"write_sector_hits", 0},
                                  {"write_sector_misses", 8}}));
  Instance dram = instance("s.dram", "dram", 0, {{"read_bits", 0}});
  dram.properties = {{"channels", 32}};
  a.instances.push_back(dram);
  const json p = power_document(a, t, "test");
  // SM: 100 x 2 (every instruction) + 60 x 10 (fp32) + 30 x 1 (int) + 10 x 4 (memory) = 870 pJ; no tensor
  // instruction, so its 1000 pJ costs nothing.
  EXPECT_DOUBLE_EQ(energy_of(p, "s.sm0"), 870e-12);
  // Static 1 W x 1 us + resident 3 W x 400 cycles (0.4 us) = 2.2 uJ.
  EXPECT_NEAR(static_of(p, "s.sm0"), 2.2e-6, 1e-18);
  // L1: 10 reads x 1 + 2 writes x 2 + 4 fills x 3 + 4 read misses x 5 + (20 + 12 + 0 + 8) sectors x 7
  //   = 10 + 4 + 12 + 20 + 280 = 326 pJ.
  EXPECT_DOUBLE_EQ(energy_of(p, "s.l1_0"), 326e-12);
  // DRAM: 4 W + 32 channels x 0.5 W = 20 W over 1 us = 20 uJ.
  EXPECT_NEAR(static_of(p, "s.dram"), 20e-6, 1e-18);
  // The board: 10 W x 1 us, a kind of its own, one per socket.
  const json& board = p.at("total").at("components").at("board");
  EXPECT_NEAR(board.at("static_j").get<double>(), 10e-6, 1e-18);
  EXPECT_EQ(board.at("instances"), 1);
  EXPECT_NEAR(p.at("sockets").at(0).at("static_j").get<double>(), (2.2 + 20 + 10) * 1e-6, 1e-15);
}

// After a clock change the activity carries the run's time (duration_ps) and static power is integrated over
// it. One SM, 3000 instructions at 1000 pJ (3 uJ) and 1 W static, nothing else:
// - 3000 cycles at 1 GHz: 3 us, 6 uJ, 2 W; at 500 MHz: 6 us, 9 uJ, 1.5 W;
// - 1000 cycles at 1 GHz then 2000 at 500 MHz: 1 + 4 = 5 us, 8 uJ, 1.6 W, between the two.
TEST(PowerModel, AfterAClockChangeStaticPowerFollowsTheSimulatedTime) {
  const EnergyTable t = table({"energy.sm.instruction_pj=1000", "energy.sm.static_w=1",
                               "energy.sm.resident_w=0", "energy.board.constant_w=0"});
  auto run = [&](std::uint64_t mhz, std::uint64_t duration_ps) {
    Activity a = one_microsecond(1);
    a.clock_mhz = mhz;
    a.duration_cycles = 3000;
    a.duration_ps = duration_ps;
    a.instances.push_back(instance("s.sm0", "sm", 0, {{"instructions", 3000}}));
    return power_document(activity_from_json(activity_to_json(a)), t, "test");
  };
  const json fast = run(1000, 0), slow = run(500, 0), changed = run(1000, 5000000);
  EXPECT_DOUBLE_EQ(fast.at("total").at("power_w").get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(slow.at("total").at("power_w").get<double>(), 1.5);
  EXPECT_DOUBLE_EQ(changed.at("duration_seconds").get<double>(), 5e-6);
  EXPECT_NEAR(changed.at("total").at("energy_j").get<double>(), 8e-6, 1e-18);
  EXPECT_NEAR(changed.at("total").at("power_w").get<double>(), 1.6, 1e-12);
}

// Each interval at the clock that was in force (activity clock_steps, resident_ps). 3000 cycles, the first
// 1500 at 1000 MHz (1.5 us), the rest at 500 MHz (1500 x 2 ns = 3 us): 4.5 us. One SM, 1 W static, 2 W
// resident, resident from cycle 1000 to 2500: 500 cycles at 1 ns + 1000 at 2 ns = 2.5 us (resident_ps), not
// 1500 cycles at the run's average clock (3000 / 4.5 us = 666.7 MHz: 2.25 us). Energy 1 x 4.5 + 2 x 2.5 =
// 9.5 uJ. Windows of 1000 cycles: [0, 1000) 1 us; [1000, 2000) 500 x 1 + 500 x 2 = 1.5 us with 1.5 us
// resident; [2000, 3000) 2 us with 500 x 2 = 1 us resident. Their powers: 1 W; (1.5 + 2 x 1.5) / 1.5 = 3 W;
// (2 + 2 x 1) / 2 = 2 W (at the average clock each window would be 1.5 us: 1 W, 3 W, 2.33 W).
TEST(PowerModel, AfterAClockChangeEachIntervalIsAtItsOwnClock) {
  const EnergyTable t = table({"energy.sm.instruction_pj=0", "energy.sm.static_w=1", "energy.sm.resident_w=2",
                               "energy.sm.resident_lane_w=0", "energy.board.constant_w=0"});
  Activity a = one_microsecond(1);
  a.duration_cycles = 3000;
  a.duration_ps = 4500000;
  a.clock_steps = {{0, 1000}, {1500, 500}};
  a.window_cycles = 1000;
  a.windows = {{0, 1000}, {1000, 1000}, {2000, 1000}};
  Instance sm = instance("s.sm0", "sm", 0, {{"resident_cycles", 1500}, {"resident_ps", 2500000}});
  sm.windows = {{0, 0}, {1000, 1500000}, {500, 1000000}};
  a.instances.push_back(sm);
  const json p = power_document(activity_from_json(activity_to_json(a)), t, "test");
  EXPECT_DOUBLE_EQ(p.at("duration_seconds").get<double>(), 4.5e-6);
  EXPECT_NEAR(p.at("total").at("energy_j").get<double>(), 9.5e-6, 1e-18);
  const json& w = p.at("series").at("total_w");
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NEAR(w[0].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(w[1].get<double>(), 3.0, 1e-12);
  EXPECT_NEAR(w[2].get<double>(), 2.0, 1e-12);
  EXPECT_NEAR(seconds_of_cycles(a, 1000, 1000), 1.5e-6, 1e-18);
}

// clock_steps that cannot be a run's: refused with the field's path.
TEST(PowerModel, ClockStepsAreChecked) {
  Activity a = one_microsecond(1);
  a.duration_ps = 1000000;
  a.clock_steps = {{0, 1000}, {0, 500}};
  try {
    activity_from_json(activity_to_json(a));
    FAIL() << "read";
  } catch (const ActivityError& e) {
    EXPECT_NE(std::string(e.what()).find("clock_steps[1].cycle"), std::string::npos) << e.what();
  }
}

// energy.board.power_limit_w flags a socket above it, without changing its power: a socket of only its
// board's 10 W constant power (every other static power off) over 1 us averages 10 W: above a 9.5 W limit,
// not above 10.5 W, nor with no limit (0).
TEST(PowerModel, ASocketAboveTheBoardsPowerLimitIsFlagged) {
  const std::vector<std::string> quiet = {"energy.sm.static_w=0",      "energy.l1.static_w=0",
                                          "energy.l2.static_w=0",      "energy.crossbar.static_w=0",
                                          "energy.dram.static_w=0",    "energy.dram.channel_static_w=0",
                                          "energy.board.constant_w=10"};
  const Activity a = one_microsecond(1);
  for (const auto& [limit, above] :
       {std::pair{"9.5", true}, std::pair{"10.5", false}, std::pair{"0", false}}) {
    std::vector<std::string> sets = quiet;
    sets.push_back(std::string("energy.board.power_limit_w=") + limit);
    const json p = power_document(a, table(sets), "test");
    const json& socket = p.at("sockets").at(0);
    EXPECT_NEAR(socket.at("power_w").get<double>(), 10.0, 1e-9) << limit;
    EXPECT_EQ(socket.at("above_power_limit").get<bool>(), above) << limit;
    EXPECT_EQ(power_summary(p).find("above energy.board.power_limit_w") != std::string::npos, above) << limit;
  }
}

// A resident SM's power falls with the threads its warps leave idle: resident_w 3 W at full warps, less
// 0.125 W per thread the average instruction lacks. 1 us at 1 GHz, 400 resident cycles (0.4 us), no other
// static power. 100 instructions of 16 threads on average (1600 thread instructions) lack 16: 3 - 16 x
// 0.125 = 1 W, 0.4 uJ. Of 4 threads on average (400) they lack 28: 3 - 3.5 < 0, held at 0 W. An activity
// file without the counter (an older run) is taken as full warps: 3 W, 1.2 uJ.
TEST(PowerModel, ResidentPowerFallsWithTheThreadsWarpsLeaveIdle) {
  const EnergyTable t =
      table({"energy.sm.static_w=0", "energy.sm.resident_w=3", "energy.sm.resident_lane_w=0.125",
             "energy.l1.static_w=0", "energy.l2.static_w=0", "energy.crossbar.static_w=0",
             "energy.dram.static_w=0"});
  Activity a = one_microsecond(1);
  a.instances.push_back(instance(
      "s.sm0", "sm", 0, {{"instructions", 100}, {"thread_instructions", 1600}, {"resident_cycles", 400}}));
  a.instances.push_back(instance(
      "s.sm1", "sm", 0, {{"instructions", 100}, {"thread_instructions", 400}, {"resident_cycles", 400}}));
  a.instances.push_back(instance("s.sm2", "sm", 0, {{"instructions", 100}, {"resident_cycles", 400}}));
  const json p = power_document(a, t, "test");
  EXPECT_NEAR(static_of(p, "s.sm0"), 0.4e-6, 1e-18);
  EXPECT_EQ(static_of(p, "s.sm1"), 0.0);
  EXPECT_NEAR(static_of(p, "s.sm2"), 1.2e-6, 1e-18);
}

// With resident_tensor_w set, an SM that issued tensor instructions draws it instead of resident_w and the
// lane term: 5 W x 0.4 us = 2 uJ at 16 threads on average (where the lane term would give 1 W); one that
// issued none keeps the lane term (1 W, 0.4 uJ); with resident_tensor_w 0 (the default) the tensor SM is
// priced as any other (1 W).
TEST(PowerModel, TensorActiveSmsDrawTheTensorResidentPower) {
  const std::vector<std::string> sets = {
      "energy.sm.static_w=0",  "energy.sm.resident_w=3", "energy.sm.resident_lane_w=0.125",
      "energy.l1.static_w=0",  "energy.l2.static_w=0",   "energy.crossbar.static_w=0",
      "energy.dram.static_w=0"};
  Activity a = one_microsecond(1);
  a.instances.push_back(instance("s.sm0", "sm", 0,
                                 {{"instructions", 100},
                                  {"instructions_tensor", 10},
                                  {"thread_instructions", 1600},
                                  {"resident_cycles", 400}}));
  a.instances.push_back(instance(
      "s.sm1", "sm", 0, {{"instructions", 100}, {"thread_instructions", 1600}, {"resident_cycles", 400}}));
  std::vector<std::string> with_tensor = sets;
  with_tensor.push_back("energy.sm.resident_tensor_w=5");
  const json p = power_document(a, table(with_tensor), "test");
  EXPECT_NEAR(static_of(p, "s.sm0"), 2.0e-6, 1e-18);
  EXPECT_NEAR(static_of(p, "s.sm1"), 0.4e-6, 1e-18);
  const json q = power_document(a, table(sets), "test");
  EXPECT_NEAR(static_of(q, "s.sm0"), 0.4e-6, 1e-18);
}

// Each kind, with static power off so the dynamic figure stands alone; values picked to be exact in binary
// where it matters. 1 pJ = 1e-12 J.
TEST(PowerModel, EnergyIsCountsTimesPerEventEnergies) {
  const EnergyTable t = table(
      {"energy.sm.instruction_pj=100", "energy.l1.read_pj=10", "energy.l1.write_pj=20",
       "energy.l1.fill_pj=30", "energy.l2.read_pj=40", "energy.l2.write_pj=50", "energy.l2.fill_pj=60",
       "energy.crossbar.pj_per_bit=2", "energy.dram.read_pj_per_bit=4", "energy.dram.write_pj_per_bit=8",
       "energy.link.pj_per_bit=10", "energy.link.turnaround_pj=1000", "energy.switch.pj_per_bit=3"});
  Activity a = one_microsecond(1);
  a.instances.push_back(instance("s.sm0", "sm", 0, {{"instructions", 7}, {"loads", 99}}));
  a.instances.push_back(
      instance("s.l1_0", "l1", 0, {{"reads", 5}, {"writes", 3}, {"fills", 2}, {"atomics_forwarded", 4}}));
  a.instances.push_back(instance("s.l2_0", "l2", 0,
                                 {{"reads", 6},
                                  {"writes", 1},
                                  {"fills", 2},
                                  {"atomics_performed", 2},
                                  {"writebacks", 1},
                                  {"coherence_writebacks", 1}}));
  a.instances.push_back(instance("s.xbar", "crossbar", 0, {{"bits", 1000}}));
  a.instances.push_back(instance("s.dram", "dram", 0, {{"read_bits", 1024}, {"write_bits", 512}}));
  Instance link =
      instance("s.link", "link", -1, {{"bits_a_to_b", 1152}, {"bits_b_to_a", 128}, {"turnarounds", 2}});
  link.properties = {{"a", "gpu0"}, {"a_kind", "gpu"}, {"b", "switch0"}, {"b_kind", "switch"}};
  a.instances.push_back(link);
  a.instances.push_back(instance("s.switch0", "switch", -1, {{"bits", 128}}));
  const json p = power_document(a, t, "test");

  EXPECT_DOUBLE_EQ(energy_of(p, "s.sm0"), 7 * 100e-12);  // loads cost nothing of their own at the SM
  // L1: 5 reads x 10 + 3 writes x 20 + 2 fills x 30 = 170 pJ; forwarded atomics touch no array.
  EXPECT_DOUBLE_EQ(energy_of(p, "s.l1_0"), 170e-12);
  // L2: (6 reads + 1 write-back + 1 coherence write-back) x 40 + (1 write + 2 atomics) x 50 + 2 fills x 60
  //   = 320 + 150 + 120 = 590 pJ.
  EXPECT_DOUBLE_EQ(energy_of(p, "s.l2_0"), 590e-12);
  EXPECT_DOUBLE_EQ(energy_of(p, "s.xbar"), 2000e-12);
  EXPECT_DOUBLE_EQ(energy_of(p, "s.dram"), (1024 * 4 + 512 * 8) * 1e-12);
  // The link: only the GPU's 1152 bits (the switch's 128 are the switch's), plus 2 turns of 1000 pJ.
  EXPECT_DOUBLE_EQ(energy_of(p, "s.link"), (1152 * 10 + 2 * 1000) * 1e-12);
  EXPECT_DOUBLE_EQ(energy_of(p, "s.switch0"), 128 * 3e-12);

  // Communication as the paper computes it: per-bit fabric energy only (no turnarounds), over 1 us.
  EXPECT_DOUBLE_EQ(p.at("communication").at("energy_j").get<double>(), (1152 * 10 + 128 * 3) * 1e-12);
  EXPECT_DOUBLE_EQ(p.at("communication").at("power_w").get<double>(), (1152 * 10 + 128 * 3) * 1e-12 / 1e-6);
  EXPECT_EQ(p.at("communication").at("gpu_bits").get<double>(), 1152);

  // Socket 0 holds everything but the link and the switch, which are the fabric's.
  const double socket0 = 700e-12 + 170e-12 + 590e-12 + 2000e-12 + 8192e-12;
  const double fabric = 13520e-12 + 384e-12;
  EXPECT_DOUBLE_EQ(p.at("sockets")[0].at("dynamic_j").get<double>(), socket0);
  EXPECT_DOUBLE_EQ(p.at("fabric").at("dynamic_j").get<double>(), fabric);
  EXPECT_DOUBLE_EQ(p.at("total").at("energy_j").get<double>(),
                   socket0 + fabric + p.at("total").at("static_j").get<double>());
  EXPECT_EQ(p.at("total").at("components").at("l2").at("instances"), 1);
}

// Static power alone: W x seconds per instance, and the average power is the sum of the static powers.
TEST(PowerModel, StaticEnergyIsPowerTimesDuration) {
  const EnergyTable t = table();
  Activity a = one_microsecond(1);
  a.instances.push_back(instance("s.sm0", "sm", 0, {{"instructions", 0}}));
  a.instances.push_back(instance("s.sm1", "sm", 0, {{"instructions", 0}}));
  a.instances.push_back(instance("s.dram", "dram", 0, {}));
  const json p = power_document(a, t, "test");
  EXPECT_EQ(p.at("total").at("dynamic_j").get<double>(), 0.0);
  // Defaults: 0.6 W per SM, 4 W per DRAM: 5.2 W, 5.2 uJ over 1 us.
  EXPECT_NEAR(p.at("total").at("power_w").get<double>(), 5.2, 1e-12);
  EXPECT_NEAR(p.at("total").at("static_j").get<double>(), 5.2e-6, 1e-18);
}

// A policy block: its flip-flops clocked every cycle, and leakage per transistor.
TEST(PowerModel, PolicyBlockEnergyComesFromItsNetlist) {
  const EnergyTable t = table({"energy.policy.flop_cycle_fj=2", "energy.policy.transistor_static_nw=1.5"});
  Activity a = one_microsecond(0);
  Instance b = instance("s.link.balancer", "link_balancer", -1, {{"clocked_cycles", 1000}, {"decisions", 0}});
  b.properties["area"] = {{"generic_cells", 600}, {"flip_flops", 65}, {"transistors", 4000}};
  a.instances.push_back(b);
  const json p = power_document(a, t, "test");
  // 1000 cycles x 65 flip-flops x 2 fJ = 130 pJ; 4000 x 1.5 nW = 6 uW for 1 us = 6 pJ.
  EXPECT_DOUBLE_EQ(p.at("instances")[0].at("dynamic_j").get<double>(), 130e-12);
  EXPECT_DOUBLE_EQ(p.at("instances")[0].at("static_j").get<double>(), 6e-12);
  const json& block = p.at("area").at("policy_blocks")[0];
  EXPECT_EQ(block.at("block"), "link_balancer");
  EXPECT_EQ(block.at("area").at("flip_flops"), 65);
  EXPECT_EQ(block.at("activity").at("decisions"), 0);
  EXPECT_EQ(p.at("area").at("total").at("transistors").get<double>(), 4000);
}

// Per window: each window's energy over its own length; the windows' energies add up to the run's.
TEST(PowerModel, WindowsAddUpToTheRun) {
  const EnergyTable t = table({"energy.sm.instruction_pj=1000", "energy.sm.static_w=1"});
  Activity a = one_microsecond(1);
  a.window_cycles = 400;
  a.windows = {{0, 400}, {400, 400}, {800, 200}};
  Instance sm = instance("s.sm0", "sm", 0, {{"instructions", 10}});
  sm.windows = {{6}, {0}, {4}};
  a.instances.push_back(sm);
  const json p = power_document(a, t, "test");
  const json& s = p.at("series");
  ASSERT_EQ(s.at("total_w").size(), 3u);
  // Window 0: 6 x 1 nJ in 0.4 us = 15 mW dynamic + 1 W static; window 2: 4 nJ in 0.2 us = 20 mW + 1 W.
  EXPECT_NEAR(s.at("total_w")[0].get<double>(), 1.015, 1e-12);
  EXPECT_NEAR(s.at("total_w")[1].get<double>(), 1.0, 1e-12);
  EXPECT_NEAR(s.at("total_w")[2].get<double>(), 1.020, 1e-12);
  double joules = 0;
  for (std::size_t w = 0; w < 3; ++w)
    joules += s.at("total_w")[w].get<double>() * s.at("cycles")[w].get<double>() * 1e-9;
  EXPECT_NEAR(joules, p.at("total").at("energy_j").get<double>(), 1e-18);
  EXPECT_EQ(s.at("components_w").at("sm").size(), 3u);
  EXPECT_EQ(s.at("sockets_w")[0].size(), 3u);
}

Activity sample_activity() {
  Activity a = one_microsecond(2);
  a.window_cycles = 500;
  a.windows = {{0, 500}, {500, 500}};
  a.config = {{"system", {{"sockets", 2}}}};
  Instance sm = instance("system.socket1.sm0", "sm", 1, {{"instructions", 10}, {"idle_cycles", 900}});
  sm.windows = {{4, 450}, {6, 450}};
  a.instances.push_back(sm);
  Instance link = instance("system.link_gpu0_gpu1", "link", -1, {{"bits_a_to_b", 8}, {"bits_b_to_a", 0}});
  link.properties = {{"a", "gpu0"}, {"a_kind", "gpu"}, {"b", "gpu1"}, {"b_kind", "gpu"}};
  link.windows = {{8, 0}, {0, 0}};
  a.instances.push_back(link);
  return a;
}

TEST(Activity, JsonRoundTripGivesTheSamePower) {
  const Activity a = sample_activity();
  const json doc = activity_to_json(a);
  EXPECT_EQ(doc.at("schema"), "numagpu-activity");
  EXPECT_EQ(doc.at("schema_version"), kActivitySchemaVersion);
  const Activity b = activity_from_json(json::parse(doc.dump()));
  EXPECT_EQ(activity_to_json(b), doc);
  EXPECT_EQ(power_document(a, table(), "v"), power_document(b, table(), "v"));
}

std::string error_of(const json& doc) {
  try {
    activity_from_json(doc);
  } catch (const ActivityError& e) {
    return e.what();
  }
  return "";
}

TEST(Activity, MalformedDocumentsAreRejectedWithThePlace) {
  const json good = activity_to_json(sample_activity());
  json j = good;
  j["schema_version"] = 2;
  EXPECT_EQ(error_of(j), "schema_version: 2 is not supported (this numagpu reads version 1)");
  j = good;
  j["instances"][0]["windows"]["instructions"][1] = 5;
  EXPECT_EQ(error_of(j), "instances[0].windows.instructions: windows add up to 9, not to the total 10");
  j = good;
  j["instances"][1]["kind"] = "gpu";
  EXPECT_EQ(error_of(j), "instances[1].kind: unknown component kind 'gpu'");
  j = good;
  j["instances"][0]["counters"]["instructions"] = -1;
  EXPECT_EQ(error_of(j), "instances[0].counters.instructions: expected a non-negative integer");
  j = good;
  j["instances"][0]["socket"] = 2;
  EXPECT_EQ(error_of(j), "instances[0].socket: expected null or a socket below 2");
  j = good;
  j["windows"][1]["start_cycle"] = 400;
  EXPECT_EQ(error_of(j), "windows[1].start_cycle: expected 500 (windows are consecutive from 0)");
  j = good;
  j.erase("duration_cycles");
  EXPECT_EQ(error_of(j), "(document): missing field 'duration_cycles'");
}

TEST(Activity, MachineHashIgnoresNothingButWhatItIsGiven) {
  EXPECT_EQ(machine_hash(json{{"a", 1}}), machine_hash(json::parse("{\"a\": 1}")));
  EXPECT_NE(machine_hash(json{{"a", 1}}), machine_hash(json{{"a", 2}}));
  EXPECT_EQ(machine_hash(json{{"a", 1}}).size(), 16u);
}

// The area of an instance comes from the synthesized point of its size; another size takes the nearest
// point and says it does not match.
TEST(RtlArea, InstanceGetsThePointOfItsSize) {
  const json& points = rtl_area_table().at("blocks").at("link_balancer").at("points");
  const json* lanes8 = nullptr;
  for (const json& p : points)
    if (p.at("Lanes") == 8) lanes8 = &p;
  ASSERT_NE(lanes8, nullptr);
  const json a = policy_block_area("link_balancer", {{"Lanes", 8}, {"SampleCycles", 5000}});
  EXPECT_TRUE(a.at("matches_instance").get<bool>());
  EXPECT_EQ(a.at("flip_flops"), lanes8->at("flip_flops"));
  EXPECT_EQ(a.at("transistors"), lanes8->at("transistors"));
  EXPECT_EQ(a.at("synthesized_at").at("Lanes"), 8);

  const json other = policy_block_area("link_balancer", {{"Lanes", 8}, {"SampleCycles", 1000}});
  EXPECT_FALSE(other.at("matches_instance").get<bool>());
  const json between = policy_block_area("link_balancer", {{"Lanes", 12}});  // 8 and 16 are as near
  EXPECT_EQ(between.at("synthesized_at").at("Lanes"), 16);
  EXPECT_FALSE(between.at("matches_instance").get<bool>());
  EXPECT_THROW(policy_block_area("no_such_block", {}), std::invalid_argument);
}

}  // namespace
}  // namespace numagpu::power
