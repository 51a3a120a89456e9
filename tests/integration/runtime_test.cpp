// CTA scheduling and page placement inside the simulator. 4 sockets, first-touch placement with 128 B pages
// (one line each), 8 CTAs of one warp that each read one line: warp g reads line g, i.e. page g, declared
// as allocation a<g>. With first touch, page g is homed at the socket that ran CTA g, so each allocation's
// report names that socket and counts its one request local, and no request ever crosses a link.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/builtin_configs.hpp"
#include "system/system.hpp"
#include "system/system_config.hpp"

namespace numagpu {
namespace {

using testing::small_spec;
using testing::stream_kernel;

// The socket holding allocation a<g>'s single page.
int home_of(const System& sys, unsigned g) {
  const auto r = sys.homes().policy().report("a" + std::to_string(g));
  for (std::size_t s = 0; s < r.pages.size(); ++s) {
    if (r.pages[s] == 1) return int(s);
  }
  return -1;
}

std::vector<int> run(runtime::CtaPolicy policy, std::uint32_t grid_x) {
  SystemSpec spec = small_spec(4);
  spec.placement = runtime::PlacementPolicy::kFirstTouch;
  spec.page_bytes = 128;
  for (unsigned g = 0; g < 8; ++g)
    spec.allocations.push_back({"a" + std::to_string(g), 128 * g, 128, 4, {}, 0, {}});
  spec.cta.policy = policy;
  KernelSpec k = stream_kernel("k", 8, 1, 1);
  k.grid_x = grid_x;
  spec.kernels = {k};
  stats::Registry reg;
  std::ostringstream diag;
  System sys("system", spec, reg, diag);
  sys.run();
  EXPECT_TRUE(sys.context().health.ok()) << diag.str();
  for (int s = 0; s < 4; ++s) {
    EXPECT_EQ(reg.find_counter("system.socket" + std::to_string(s) + ".xbar.requests_to_link")->value(), 0u);
  }
  std::vector<int> homes;
  for (unsigned g = 0; g < 8; ++g) {
    homes.push_back(home_of(sys, g));
    // The SM asks for line g once, from the socket that first-touched it: one local request, none remote.
    const auto r = sys.homes().policy().report("a" + std::to_string(g));
    EXPECT_EQ(r.requests_local, 1u) << "a" << g;
    EXPECT_EQ(r.requests_remote, 0u) << "a" << g;
  }
  return homes;
}

TEST(Runtime, InterleavedCtasFirstTouchTheirPages) {  // CTA g on socket g mod 4
  EXPECT_EQ(run(runtime::CtaPolicy::kInterleave, 0), (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
}

TEST(Runtime, ContiguousCtasFirstTouchTheirPages) {  // 8 CTAs in 4 blocks of 2
  EXPECT_EQ(run(runtime::CtaPolicy::kContiguous, 0), (std::vector<int>{0, 0, 1, 1, 2, 2, 3, 3}));
}

// A 4 x 2 grid (grid_x = 4): 2 rows for 4 sockets, so row r runs on socket r (docs/runtime-policies.md).
TEST(Runtime, RowBindingPutsAGridRowOnOneSocket) {
  EXPECT_EQ(run(runtime::CtaPolicy::kRowBinding, 4), (std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1}));
}

// The same grid has 4 columns: column c runs on socket c.
TEST(Runtime, ColumnBindingPutsAGridColumnOnOneSocket) {
  EXPECT_EQ(run(runtime::CtaPolicy::kColBinding, 4), (std::vector<int>{0, 1, 2, 3, 0, 1, 2, 3}));
}

}  // namespace
}  // namespace numagpu

namespace numagpu {
namespace {

// First touch with a migration cost: each of the 8 warps touches its own page first, so each of the 8
// requests waits memory.migration_cycles (1000) before it goes: 8000 cycles charged in all, and the kernel
// cannot end before 1000 cycles plus one load's round trip (173 cycles on this system, see
// SystemTest.IsolatedLoadSeesTheSumOfHopLatencies).
TEST(Runtime, FirstTouchChargesTheMigrationCost) {
  SystemSpec spec = testing::small_spec(4);
  spec.placement = runtime::PlacementPolicy::kFirstTouch;
  spec.page_bytes = 128;
  spec.migration_cycles = 1000;
  spec.kernels = {testing::stream_kernel("k", 8, 1, 1)};
  stats::Registry reg;
  const testing::CheckedRun run = testing::run_checked(spec, reg);
  ASSERT_TRUE(run.ok) << run.diagnostics;
  System& sys = *run.system;
  std::uint64_t charged = 0;
  for (int s = 0; s < 4; ++s) {
    for (int m = 0; m < 4; ++m) {
      charged += reg.find_counter("system.socket" + std::to_string(s) + ".sm" + std::to_string(m) +
                                  ".first_touch_cycles")
                     ->value();
    }
  }
  EXPECT_EQ(charged, 8000u);
  EXPECT_GE(sys.finish_cycle(), 1000u + 173u);
}

// The paper system cut to 4 SMs a socket, running one application item (`app`, `args`) with `sets`; run
// to its end and checked healthy.
std::unique_ptr<System> run_app(const std::string& app, const std::string& args,
                                std::vector<std::string> sets, stats::Registry& reg) {
  const std::vector<config::Layer> layers = {
      {"<built-in paper system>", std::string(embedded::kPaperSystem)},
      {"<test workload>",
       "workload: {name: app, kernels: [{name: it, app: " + app + ", args: '" + args + "'}]}\n"}};
  sets.push_back("sm.per_socket=4");
  std::ostringstream diag;
  auto sys = std::make_unique<System>("system", to_system_spec(config::load(system_schema(), layers, sets)),
                                      reg, diag);
  sys->run();
  EXPECT_TRUE(sys->context().health.ok()) << diag.str();
  return sys;
}

// LADM in the simulator: rodinia/kmeans (4,096 points x 34 features, 1 iteration) on the paper system cut
// to 4 SMs a socket, with runtime.cta_schedule lasp, memory.placement lasp and runtime.crb. Its first kernel,
// invert_mapping, states feature_d[p * 34 + i] (intra-thread) and feature_flipped_d[p + i * 4096] (no
// locality, strided by 4,096 floats = 16 KiB; tests/unit/kernels/lasp_statements_test.cpp), so at that launch
// each is placed by its own Table II row: feature_flipped_d stride-aware, Equation 1's granularity 16 KiB /
// 4 sockets = one 4 KiB page, page p on socket p mod 4; feature_d kernel-wide, its 557,056 B = 136 pages in
// 4 chunks of 34, page p on socket p / 34. CRB counts one RONCE launch (invert_mapping, whose largest array,
// feature_d stated first of two equal ones, is intra-thread) and one RTWICE (kmeansPoint, whose features
// array is strided).
TEST(Runtime, LaspPlacesEachArrayAtItsFirstStatingLaunchAndCrbFollowsTheKernel) {
  stats::Registry reg;
  const std::unique_ptr<System> sys =
      run_app("rodinia/kmeans", "points=4096 features=34 clusters=5 iterations=1",
              {"runtime.cta_schedule=lasp", "memory.placement=lasp", "runtime.crb=true"}, reg);
  const HomeMap& homes = sys->homes();
  auto base_of = [&](const std::string& name) {
    for (const runtime::Allocation& a : homes.policy().allocations()) {
      if (a.name == name) return a.base;
    }
    ADD_FAILURE() << "no allocation " << name;
    return std::uint64_t(0);
  };
  const std::uint64_t flipped = base_of("it.feature_flipped_d"), features = base_of("it.feature_d");
  for (std::uint64_t page = 0; page < 136; ++page) {
    EXPECT_EQ(homes.decided_home(flipped + page * 4096), page % 4) << "feature_flipped_d page " << page;
    EXPECT_EQ(homes.decided_home(features + page * 4096), page / 34) << "feature_d page " << page;
  }
  const stats::Counter* once = reg.find_counter("system.runtime.crb_once_launches");
  const stats::Counter* twice = reg.find_counter("system.runtime.crb_twice_launches");
  ASSERT_TRUE(once && twice) << "runtime.crb registers its launch counts";
  EXPECT_EQ(once->value(), 1u);
  EXPECT_EQ(twice->value(), 1u);
}

// H-CODA in the simulator: other/stream with 16,384 doubles an array (16 CTAs of TBSIZE 1,024 threads, each
// reading 8 KiB of an array: two 4 KiB pages) on the paper system cut to 4 SMs a socket, with
// runtime.cta_schedule hcoda and memory.placement page_interleave. MinTBBatch = 4 KiB / gcd(4 KiB, 8 KiB) =
// 1: CTA c on socket c mod 4; each array copy states (a, c; b at mul) is interleaved in units of lcm(4 KiB,
// 8 KiB) = 8 KiB, pages 2u and 2u + 1 on socket u mod 4, so CTA c's two pages are on its socket (page
// interleaving would put page 2c + 1 on the next socket). The sums of dot, 256 doubles read one per CTA,
// stay page-interleaved.
TEST(Runtime, HcodaInterleavesArraysInWholeDatablocks) {
  stats::Registry reg;
  const std::unique_ptr<System> sys =
      run_app("other/stream", "elements=16384 iterations=1",
              {"runtime.cta_schedule=hcoda", "memory.placement=page_interleave"}, reg);
  const HomeMap& homes = sys->homes();
  for (const runtime::Allocation& a : homes.policy().allocations()) {
    if (a.name == "it.sums") continue;
    for (std::uint64_t page = 0; page < 32; ++page)  // 16,384 doubles: 128 KiB, 32 pages
      EXPECT_EQ(homes.decided_home(a.base + page * 4096), (page / 2) % 4) << a.name << " page " << page;
  }
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
