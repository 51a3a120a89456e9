// numagpu bench-fabric on the paper's switch system (8 lanes x 8 B per direction: 64 B/cycle each way; a
// write packet is 16 B header + 128 B = 144 B = ceil(144/64) = 3 cycles; its ack 16 B = 1 cycle).
#include "cli/bench_fabric.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace numagpu {
namespace {

namespace fs = std::filesystem;

struct Row {
  unsigned src, dst;
  std::uint64_t bytes;
  std::string direction;
  std::uint64_t cycles;
  double gbps;
};

std::vector<Row> run(BenchFabricOptions o) {
  const fs::path dir = fs::temp_directory_path() / ("numagpu_bench_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  o.base.out_dir = dir.string();
  o.base.quiet = true;
  std::ostringstream out, err;
  EXPECT_EQ(bench_fabric_command(o, out, err), kExitOk) << err.str();
  std::ifstream in(dir / "bench_fabric.csv");
  std::vector<Row> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#' || line[0] == 's') continue;
    Row r;
    char dir_buf[8];
    double us;
    unsigned long long bytes, cycles;
    if (std::sscanf(line.c_str(), "%u,%u,%llu,%3[a-z],%llu,%lf,%lf", &r.src, &r.dst, &bytes, dir_buf, &cycles,
                    &us, &r.gbps) == 7) {
      r.bytes = bytes;
      r.cycles = cycles;
      r.direction = dir_buf;
      rows.push_back(r);
    }
  }
  fs::remove_all(dir);
  return rows;
}

// Unidirectional 1 MiB push 0 -> 1 with enough requests in flight to keep the link busy: 8192 writes of
// 144 B at 64 B/cycle (2.25 cycles, packed back to back) on socket 0's egress = 18432 cycles, plus one round
// trip (a few hundred cycles) to fill and drain. Payload rate 128 B / 2.25 cycles = 56.89 GB/s at 1 GHz;
// over 1 MiB the fill costs ~2 %: at least 97 % of it.
TEST(BenchFabric, UnidirectionalCopyReachesTheLinkRate) {
  BenchFabricOptions o;
  o.pairs = "0-1";
  o.min_log2 = o.max_log2 = 20;
  o.direction = "uni";
  o.outstanding = 1024;
  const auto rows = run(o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GE(rows[0].cycles, 18432u);
  EXPECT_GE(rows[0].gbps, 0.97 * 128.0 / 2.25);
  EXPECT_LE(rows[0].gbps, 128.0 / 2.25);
}

// Bidirectional: each direction of each link now carries a 144 B write one way and the 16 B ack of the
// opposite copy: 160 B = 2.5 cycles per 128 B each way, 51.2 GB/s per direction, 102.4 GB/s for the pair —
// 1.8x the unidirectional rate, not 2x, because the acks share the lanes.
TEST(BenchFabric, BidirectionalCopySharesLanesWithAcks) {
  BenchFabricOptions o;
  o.pairs = "2-3";
  o.min_log2 = o.max_log2 = 20;
  o.direction = "bi";
  o.outstanding = 1024;
  const auto rows = run(o);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_GE(rows[0].gbps, 0.97 * 102.4);
  EXPECT_LE(rows[0].gbps, 102.4);
}

// A copy engine with k requests in flight and a round trip of R cycles moves at most k x 128 B per R cycles
// (Little's law): with one request in flight, doubling the size doubles the time, and the start-up cost is
// added once per copy. A round trip ends at a fraction of a cycle (exact link rates); the engine issues the
// next line on the following clock edge, so each line may add up to one cycle of rounding: 4 lines within
// 4 cycles of twice 2 lines.
TEST(BenchFabric, OneOutstandingRequestIsLatencyBoundAndStartupAddsOnce) {
  BenchFabricOptions o;
  o.pairs = "0-1";
  o.min_log2 = 8;
  o.max_log2 = 9;
  o.direction = "uni";
  o.outstanding = 1;
  o.startup_cycles = 1000;
  const auto rows = run(o);
  ASSERT_EQ(rows.size(), 2u);
  const std::uint64_t rtt2 = rows[0].cycles - 1000;  // 256 B = 2 lines, one after the other
  const std::uint64_t rtt4 = rows[1].cycles - 1000;  // 512 B = 4 lines
  EXPECT_NEAR(double(rtt4), double(2 * rtt2), 4.0);
  EXPECT_GT(rtt2, 2u * 128u);  // each line crosses two link traversals each way: at least 2 x 128 cycles
}

TEST(BenchFabric, BadOptionsAreOneLineErrors) {
  BenchFabricOptions o;
  o.pairs = "0-9";
  std::ostringstream out, err;
  o.base.out_dir = (fs::temp_directory_path() / "numagpu_bench_bad").string();
  EXPECT_EQ(bench_fabric_command(o, out, err), kExitBadInput);
  EXPECT_EQ(err.str(), "numagpu: error: --pairs: '0-9' names a GPU outside 0..3\n");
  EXPECT_FALSE(fs::exists(o.base.out_dir));
}

}  // namespace
}  // namespace numagpu

extern "C" int sc_main(int, char*[]) {
  return 0;
}
