// Configuration -> SystemSpec: each fact is read once and everything derived from it (the policies'
// parameters, the crossbar's link ports) follows it, whichever order the keys are given in.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli/run.hpp"
#include "config/error.hpp"
#include "system/derived_params.hpp"
#include "system/system_config.hpp"

namespace numagpu {
namespace {

SystemSpec spec_with(std::vector<std::string> sets, const char* config_file = nullptr) {
  RunOptions o;
  o.sets = std::move(sets);
  if (config_file) o.config_file = std::string(NUMAGPU_SOURCE_DIR) + "/" + config_file;
  return to_system_spec(load_configuration(o));
}

std::string rejection(std::vector<std::string> sets) {
  try {
    spec_with(std::move(sets));
  } catch (const config::ConfigError& e) {
    return e.what();
  }
  return "(accepted)";
}

// The paper's system: 128 B lines and 16 B headers, so a read response is 144 B on the wire; each socket
// has one link of 16 lanes x 8 B, 8 lanes = 64 B/cycle inbound at the symmetric split; its crossbar port
// to that link moves 16 x 8 = 128 B/cycle (all lanes, whichever way the balancer turns them). Both policies
// call saturated what is busy 99 % of a window (99/100): the link balancer a direction (§4), the partition
// controller the projected ingress (§5.1) and, the model's deviation (docs/studies.md), the DRAM.
TEST(SystemConfig, PaperSystemDerivesThePapersPolicyParameters) {
  const SystemSpec s = spec_with({});
  EXPECT_EQ(s.facts.line_bytes, 128u);
  EXPECT_EQ(s.facts.header_bytes, 16u);
  const Topology t = system_topology(s);
  ASSERT_EQ(t.links.size(), 4u);
  const policy::PartitionController::Params p = partition_params(s, t, 0);
  EXPECT_EQ(p.ways, 16u);
  EXPECT_EQ(p.resp_bytes, 144u);
  EXPECT_EQ(p.ingress_bytes_per_cycle, 64u);
  EXPECT_EQ(p.sample_cycles, 5000u);
  EXPECT_EQ(p.sat_num * 100, 99 * p.sat_den);
  EXPECT_EQ(balancer_params(s, t.links[0].spec).lanes, 16u);
  EXPECT_EQ(balancer_params(s, t.links[0].spec).sat_num * 100,
            99 * balancer_params(s, t.links[0].spec).sat_den);
  const ByteRate port = link_port_rate(t.links[0].spec);
  EXPECT_EQ(port.num / port.den, 128u);
}

// The response size follows the header and the line whatever order they are read in: 80 + 128 = 208 B,
// and with 64 B lines 16 + 64 = 80 B. (It was once computed before the header was read, so it kept 144.)
TEST(SystemConfig, ResponseSizeFollowsHeaderAndLine) {
  const SystemSpec h = spec_with({"link.header_bytes=80", "l2.organization=numa_aware"});
  EXPECT_EQ(partition_params(h, system_topology(h), 0).resp_bytes, 208u);
  const SystemSpec l = spec_with(
      {"l1.line_bytes=64", "l2.line_bytes=64", "l1.size_bytes=65536", "l2.organization=numa_aware"});
  EXPECT_EQ(l.facts.line_bytes, 64u);
  EXPECT_EQ(partition_params(l, system_topology(l), 0).resp_bytes, 80u);
}

// double_bandwidth doubles every link's lanes: the balancer and the crossbar port see 32 lanes (256 B/cycle).
TEST(SystemConfig, DoubleBandwidthDoublesLanesEverywhere) {
  const SystemSpec s = spec_with({"link.mode=double_bandwidth"});
  const Topology t = system_topology(s);
  EXPECT_EQ(balancer_params(s, t.links[0].spec).lanes, 32u);
  const ByteRate port = link_port_rate(t.links[0].spec);
  EXPECT_EQ(port.num / port.den, 256u);
  EXPECT_EQ(partition_params(s, t, 0).ingress_bytes_per_cycle, 128u);  // 16 lanes x 8 B inbound
}

// DGX-2: six 25 GB/s NVLinks per GPU, given as one link of 6 x 16 lanes. At 1 GHz the lane rate is
// 25000 / (1000 x 8) B per cycle and the port moves 96 lanes of it: 300 B/cycle, i.e. 150 GB/s each way
// with the lanes split evenly, and the whole link if the balancer turned them all one way.
TEST(SystemConfig, Dgx2PortMovesAllSixLinks) {
  const SystemSpec s = spec_with({}, "configs/topologies/dgx2.yaml");
  const Topology t = system_topology(s);
  const LinkSpec& gpu0 = t.links[t.links_of(0)[0]].spec;
  EXPECT_EQ(gpu0.lanes, 96u);
  const ByteRate port = link_port_rate(gpu0);
  EXPECT_EQ(port.num, 96u * 25000u);
  EXPECT_EQ(port.den, 8000u);
  EXPECT_EQ(partition_params(s, t, 0).ingress_bytes_per_cycle, 150u);  // 48 lanes x 3.125 B
}

#ifdef NUMAGPU_HAVE_RTL_LOOP
// policy.impl: rtl compares the derived parameters with the RTL builds (models/CMakeLists.txt: balancers of
// 16, 32 and 48 lanes, one partition controller at the paper's parameters) and blames the key that made them
// differ: an 80 B header gives a 208 B response (not 144 B); 16 B lanes double the ingress (128 B); 8 lanes
// have no balancer build; double bandwidth's 32 lanes have one (but run no balancer: static).
TEST(SystemConfig, RtlMismatchBlamesTheKeyThatCausedIt) {
  const std::string lb_builds =
      "lanes 16, sample 5000, switch 100, saturation 99/100; lanes 32, sample 5000, switch 100, saturation "
      "99/100; lanes 48, sample 5000, switch 100, saturation 99/100";
  const std::string pc_builds = "ways 16, sample 5000, saturation 99/100, response 144 B, ingress 64 B/cycle";
  EXPECT_EQ(
      rejection({"link.header_bytes=80", "l2.organization=numa_aware", "policy.impl=rtl"}),
      "--set link.header_bytes=80: link.header_bytes: gives a read response of 208, which matches no RTL "
      "build of the partition controller (built: " +
          pc_builds + "); policy.impl: rtl needs one of them");
  EXPECT_EQ(rejection({"link.lane_bytes=16", "l2.organization=numa_aware", "policy.impl=rtl"}),
            "--set link.lane_bytes=16: link.lane_bytes: gives an ingress capacity (bytes per cycle) of 128, "
            "which matches no RTL build of the partition controller (built: " +
                pc_builds + "); policy.impl: rtl needs one of them");
  EXPECT_EQ(rejection({"link.lanes=8", "link.mode=dynamic", "policy.impl=rtl"}),
            "--set link.lanes=8: link.lanes: 8 matches no RTL build of the link balancer (built: " +
                lb_builds + "); policy.impl: rtl needs one of them");
  EXPECT_EQ(
      rejection({"link.sample_cycles=1000", "link.mode=dynamic", "policy.impl=rtl"}),
      "--set link.sample_cycles=1000: link.sample_cycles: 1000 matches no RTL build of the link balancer "
      "(built: " +
          lb_builds + "); policy.impl: rtl needs one of them");
  EXPECT_EQ(rejection({"l2.organization=numa_aware", "link.mode=dynamic", "policy.impl=rtl"}), "(accepted)");
  EXPECT_EQ(rejection({"link.lanes=32", "link.mode=dynamic", "policy.impl=rtl"}), "(accepted)");
}
#endif

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
