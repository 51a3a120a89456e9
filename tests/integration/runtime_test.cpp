// CTA scheduling and page placement inside the simulator. 4 sockets, first-touch placement with 128 B pages
// (one line each), 8 CTAs of one warp that each read one line: warp g reads line g, i.e. page g, declared
// as allocation a<g>. With first touch, page g is homed at the socket that ran CTA g, so each allocation's
// report names that socket, and no request ever crosses a link.
#include <gtest/gtest.h>

#include <sstream>

#include "common/health.hpp"
#include "small_system.hpp"
#include "system/system.hpp"

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
  for (unsigned g = 0; g < 8; ++g)
    homes.push_back(home_of(sys, g));
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

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
