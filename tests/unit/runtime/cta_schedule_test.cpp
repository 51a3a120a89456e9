// CTA scheduling: every policy on small grids assigns exactly the CTAs derived by hand in the comments.
// Linear id = x + X * (y + Y * z); row = y + Y * z; column = x + X * z; socket = gpu * chiplets + chiplet.
#include "runtime/cta_schedule.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "test_support.hpp"

namespace numagpu::runtime {
namespace {

using Lists = std::vector<std::vector<CtaId>>;
using test::expect_invalid;

CtaScheduleParams with(CtaPolicy policy) {
  CtaScheduleParams p;
  p.policy = policy;
  return p;
}

// Checks the per-socket lists and that socket_of agrees with them for every CTA.
void expect_schedule(const CtaSchedule& s, const Lists& expected) {
  ASSERT_EQ(s.sockets(), expected.size());
  std::uint64_t total = 0;
  for (std::size_t socket = 0; socket < expected.size(); ++socket) {
    EXPECT_EQ(s.ctas_of(static_cast<SocketId>(socket)), expected[socket]) << "socket " << socket;
    for (CtaId cta : expected[socket])
      EXPECT_EQ(s.socket_of(cta), socket) << "CTA " << cta;
    total += expected[socket].size();
  }
  EXPECT_EQ(total, s.ctas());
}

const Machine k4Sockets{4, 1};

// ---- interleave -------------------------------------------------------------------------------------------

// 10 CTAs, 4 sockets: i mod 4 -> s0 {0,4,8}, s1 {1,5,9}, s2 {2,6}, s3 {3,7}.
TEST(CtaInterleave, ModuloSockets) {
  expect_schedule(CtaSchedule({10, 1, 1}, k4Sockets, with(CtaPolicy::kInterleave)),
                  Lists{{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}});
}

// A 3x2 grid is 6 linear ids; interleave ignores the shape: s0 {0,4}, s1 {1,5}, s2 {2}, s3 {3}.
TEST(CtaInterleave, TwoDimensionalGridUsesLinearIds) {
  expect_schedule(CtaSchedule({3, 2, 1}, k4Sockets, with(CtaPolicy::kInterleave)),
                  Lists{{0, 4}, {1, 5}, {2}, {3}});
}

// ---- contiguous -------------------------------------------------------------------------------------------

// 10 CTAs, 4 sockets: 10 = 4 * 2 + 2, the first two sockets take 3 -> {0,1,2} {3,4,5} {6,7} {8,9}.
TEST(CtaContiguous, RemainderToTheFirstSockets) {
  expect_schedule(CtaSchedule({10, 1, 1}, k4Sockets, with(CtaPolicy::kContiguous)),
                  Lists{{0, 1, 2}, {3, 4, 5}, {6, 7}, {8, 9}});
}

// 12 CTAs, 4 sockets: 3 each.
TEST(CtaContiguous, EvenSplit) {
  expect_schedule(CtaSchedule({4, 3, 1}, k4Sockets, with(CtaPolicy::kContiguous)),
                  Lists{{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {9, 10, 11}});
}

// 3-D grid 2x2x3 = 12 CTAs on 5 sockets (5 GPUs of 1 chiplet): 12 = 5 * 2 + 2 -> sizes 3, 3, 2, 2, 2.
TEST(CtaContiguous, ThreeDimensionalGrid) {
  expect_schedule(CtaSchedule({2, 2, 3}, Machine{5, 1}, with(CtaPolicy::kContiguous)),
                  Lists{{0, 1, 2}, {3, 4, 5}, {6, 7}, {8, 9}, {10, 11}});
}

// 3 CTAs on 8 sockets (2 GPUs x 4 chiplets): 3 = 8 * 0 + 3 -> one CTA each on sockets 0..2, the rest idle.
TEST(CtaContiguous, MoreSocketsThanCtas) {
  expect_schedule(CtaSchedule({3, 1, 1}, Machine{2, 4}, with(CtaPolicy::kContiguous)),
                  Lists{{0}, {1}, {2}, {}, {}, {}, {}, {}});
}

// ---- batch ------------------------------------------------------------------------------------------------

// 10 CTAs, batch 2, 3 sockets: batches {0,1} {2,3} {4,5} {6,7} {8,9} -> sockets 0 1 2 0 1.
TEST(CtaBatch, BatchesRoundRobin) {
  CtaScheduleParams p = with(CtaPolicy::kBatch);
  p.batch = 2;
  expect_schedule(CtaSchedule({10, 1, 1}, Machine{3, 1}, p), Lists{{0, 1, 6, 7}, {2, 3, 8, 9}, {4, 5}});
}

// 10 CTAs, batch 4 (the default), 4 sockets: {0..3} -> s0, {4..7} -> s1, the partial batch {8,9} -> s2.
TEST(CtaBatch, PartialLastBatchAndIdleSocket) {
  expect_schedule(CtaSchedule({10, 1, 1}, k4Sockets, with(CtaPolicy::kBatch)),
                  Lists{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9}, {}});
}

// Batch 1 is interleave.
TEST(CtaBatch, BatchOfOneIsInterleave) {
  CtaScheduleParams p = with(CtaPolicy::kBatch);
  p.batch = 1;
  expect_schedule(CtaSchedule({10, 1, 1}, k4Sockets, p), Lists{{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}});
}

// 3 CTAs, batch 2, 8 sockets: {0,1} -> s0, {2} -> s1.
TEST(CtaBatch, MoreSocketsThanBatches) {
  CtaScheduleParams p = with(CtaPolicy::kBatch);
  p.batch = 2;
  expect_schedule(CtaSchedule({3, 1, 1}, Machine{2, 4}, p), Lists{{0, 1}, {2}, {}, {}, {}, {}, {}, {}});
}

// ---- row binding ------------------------------------------------------------------------------------------

// Grid 4 wide x 6 tall (6 rows of 4 CTAs; row r = CTAs 4r..4r+3), 4 sockets: 6 rows = 4 * 1 + 2 -> rows per
// socket 2, 2, 1, 1: rows 0,1 -> s0; rows 2,3 -> s1; row 4 -> s2; row 5 -> s3.
TEST(CtaRowBinding, SixRowsOnFourSockets) {
  expect_schedule(
      CtaSchedule({4, 6, 1}, k4Sockets, with(CtaPolicy::kRowBinding)),
      Lists{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19}, {20, 21, 22, 23}});
}

// Grid 6 wide x 4 tall: 4 rows on 4 sockets, row r (CTAs 6r..6r+5) -> socket r.
TEST(CtaRowBinding, OneRowPerSocket) {
  expect_schedule(
      CtaSchedule({6, 4, 1}, k4Sockets, with(CtaPolicy::kRowBinding)),
      Lists{{0, 1, 2, 3, 4, 5}, {6, 7, 8, 9, 10, 11}, {12, 13, 14, 15, 16, 17}, {18, 19, 20, 21, 22, 23}});
}

// Grid 3 x 2: 2 rows on 4 sockets -> row 0 -> s0, row 1 -> s1, s2 and s3 idle.
TEST(CtaRowBinding, FewerRowsThanSockets) {
  expect_schedule(CtaSchedule({3, 2, 1}, k4Sockets, with(CtaPolicy::kRowBinding)),
                  Lists{{0, 1, 2}, {3, 4, 5}, {}, {}});
}

// Grid 2x2x2: rows are (y, z), row = y + 2z, 4 rows; 3 sockets -> rows per socket 2, 1, 1.
// Rows 0,1 (z = 0) = CTAs 0..3 -> s0; row 2 (y0,z1) = CTAs 4,5 -> s1; row 3 (y1,z1) = CTAs 6,7 -> s2.
TEST(CtaRowBinding, ThreeDimensionalGridRowsArePerPlane) {
  expect_schedule(CtaSchedule({2, 2, 2}, Machine{3, 1}, with(CtaPolicy::kRowBinding)),
                  Lists{{0, 1, 2, 3}, {4, 5}, {6, 7}});
}

// ---- column binding ---------------------------------------------------------------------------------------

// Grid 4 wide x 6 tall, 4 sockets: 4 columns, column c = CTAs c, c+4, c+8, ... -> socket c.
TEST(CtaColBinding, OneColumnPerSocket) {
  expect_schedule(
      CtaSchedule({4, 6, 1}, k4Sockets, with(CtaPolicy::kColBinding)),
      Lists{{0, 4, 8, 12, 16, 20}, {1, 5, 9, 13, 17, 21}, {2, 6, 10, 14, 18, 22}, {3, 7, 11, 15, 19, 23}});
}

// Grid 6 wide x 4 tall, 4 sockets: 6 columns -> 2, 2, 1, 1: columns 0,1 -> s0; 2,3 -> s1; 4 -> s2; 5 -> s3.
// CTA (x, y) = x + 6y, listed in ascending id (row by row).
TEST(CtaColBinding, SixColumnsOnFourSockets) {
  expect_schedule(
      CtaSchedule({6, 4, 1}, k4Sockets, with(CtaPolicy::kColBinding)),
      Lists{{0, 1, 6, 7, 12, 13, 18, 19}, {2, 3, 8, 9, 14, 15, 20, 21}, {4, 10, 16, 22}, {5, 11, 17, 23}});
}

// Grid 3x2x2 (id = x + 3y + 6z): columns are (x, z), column = x + 3z, 6 columns; 4 sockets -> 2, 2, 1, 1.
// s0: columns 0,1 = (x0,z0),(x1,z0) = CTAs 0,3 and 1,4. s1: column 2 (x2,z0) = 2,5 and column 3 (x0,z1) =
// 6,9. s2: column 4 (x1,z1) = 7,10. s3: column 5 (x2,z1) = 8,11.
TEST(CtaColBinding, ThreeDimensionalGridColumnsArePerPlane) {
  expect_schedule(CtaSchedule({3, 2, 2}, k4Sockets, with(CtaPolicy::kColBinding)),
                  Lists{{0, 1, 3, 4}, {2, 5, 6, 9}, {7, 10}, {8, 11}});
}

// ---- hierarchical -----------------------------------------------------------------------------------------

// 10 CTAs, 2 GPUs x 2 chiplets (sockets 0,1 on GPU 0; 2,3 on GPU 1). GPU blocks: 0..4 and 5..9.
// GPU 0 ranks 0..4 -> chiplets 0,1,0,1,0; GPU 1 CTAs 5..9 -> chiplets 0,1,0,1,0 = sockets 2,3,2,3,2.
TEST(CtaHierarchical, BlockPerGpuRoundRobinOverChiplets) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  expect_schedule(CtaSchedule({10, 1, 1}, Machine{2, 2}, p), Lists{{0, 2, 4}, {1, 3}, {5, 7, 9}, {6, 8}});
}

// Same with chiplet_batch 2: GPU 0 ranks 0,1 -> c0; 2,3 -> c1; 4 -> c0. GPU 1 likewise from CTA 5.
TEST(CtaHierarchical, ChipletBatch) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  p.chiplet_batch = 2;
  expect_schedule(CtaSchedule({10, 1, 1}, Machine{2, 2}, p), Lists{{0, 1, 4}, {2, 3}, {5, 6, 9}, {7, 8}});
}

// 16 CTAs, 2 GPUs x 4 chiplets: GPU 0 gets 0..7 -> chiplets 0,1,2,3,0,1,2,3; GPU 1 gets 8..15 ->
// sockets 4..7.
TEST(CtaHierarchical, FourChipletsPerGpu) {
  expect_schedule(CtaSchedule({16, 1, 1}, Machine{2, 4}, with(CtaPolicy::kHierarchical)),
                  Lists{{0, 4}, {1, 5}, {2, 6}, {3, 7}, {8, 12}, {9, 13}, {10, 14}, {11, 15}});
}

// chiplets_per_gpu = 1: the round-robin has one target, so it is contiguous over GPUs (10 -> 3,3,2,2).
TEST(CtaHierarchical, OneChipletPerGpuIsContiguous) {
  expect_schedule(CtaSchedule({10, 1, 1}, Machine{4, 1}, with(CtaPolicy::kHierarchical)),
                  Lists{{0, 1, 2}, {3, 4, 5}, {6, 7}, {8, 9}});
}

// One GPU of 4 chiplets: one block, round-robin over the chiplets = interleave.
TEST(CtaHierarchical, OneGpuIsRoundRobin) {
  expect_schedule(CtaSchedule({10, 1, 1}, Machine{1, 4}, with(CtaPolicy::kHierarchical)),
                  Lists{{0, 4, 8}, {1, 5, 9}, {2, 6}, {3, 7}});
}

// Grid 2 x 5 (row r = CTAs 2r, 2r+1), 2 GPUs x 2 chiplets, unit rows: 5 rows -> 3, 2: GPU 0 rows 0..2 =
// CTAs 0..5 -> chiplets 0,1,0,1,0,1; GPU 1 rows 3,4 = CTAs 6..9 -> sockets 2,3,2,3.
// (Unit ctas would split 5/5 instead: CTA 5 would go to GPU 1.)
TEST(CtaHierarchical, RowBlocksPerGpu) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  p.hierarchy_unit = HierarchyUnit::kRows;
  const CtaSchedule s({2, 5, 1}, Machine{2, 2}, p);
  expect_schedule(s, Lists{{0, 2, 4}, {1, 3, 5}, {6, 8}, {7, 9}});
  EXPECT_EQ(s.hierarchy_unit(), HierarchyUnit::kRows);  // 5 rows >= 2 GPUs: no fallback
}

// Grid 4 x 2, 2 GPUs x 2 chiplets, unit cols: GPU 0 columns 0,1 = CTAs 0,1,4,5 (ascending) -> chiplets
// 0,1,0,1; GPU 1 columns 2,3 = CTAs 2,3,6,7 -> sockets 2,3,2,3.
TEST(CtaHierarchical, ColumnBlocksPerGpu) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  p.hierarchy_unit = HierarchyUnit::kCols;
  expect_schedule(CtaSchedule({4, 2, 1}, Machine{2, 2}, p), Lists{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
}

// A 1-D grid of 8 CTAs has one row, fewer than its 2 GPUs, so unit rows is cut by CTAs: GPU 0 gets 0..3 ->
// chiplets 0,1,0,1; GPU 1 gets 4..7 -> sockets 2,3,2,3. Bound by rows it would put all 8 on GPU 0
// ({0,2,4,6}, {1,3,5,7}, {}, {}), leaving GPU 1 idle.
TEST(CtaHierarchical, RowUnitOfAOneRowGridIsCutByCtas) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  p.hierarchy_unit = HierarchyUnit::kRows;
  const CtaSchedule s({8, 1, 1}, Machine{2, 2}, p);
  expect_schedule(s, Lists{{0, 2}, {1, 3}, {4, 6}, {5, 7}});
  EXPECT_EQ(s.hierarchy_unit(), HierarchyUnit::kCtas);
}

// Grid 1 x 6 has one column, fewer than 4 GPUs (one chiplet each): cut by CTAs into 2, 2, 1, 1. Bound by
// columns, all six would run on GPU 0.
TEST(CtaHierarchical, ColumnUnitWithFewerColumnsThanGpusIsCutByCtas) {
  CtaScheduleParams p = with(CtaPolicy::kHierarchical);
  p.hierarchy_unit = HierarchyUnit::kCols;
  const CtaSchedule s({1, 6, 1}, Machine{4, 1}, p);
  expect_schedule(s, Lists{{0, 1}, {2, 3}, {4}, {5}});
  EXPECT_EQ(s.hierarchy_unit(), HierarchyUnit::kCtas);
}

// 3 CTAs, 2 GPUs x 4 chiplets: GPU blocks 2, 1: GPU 0 CTAs 0,1 -> sockets 0,1; GPU 1 CTA 2 -> chiplet 0 = s4.
TEST(CtaHierarchical, MoreSocketsThanCtas) {
  expect_schedule(CtaSchedule({3, 1, 1}, Machine{2, 4}, with(CtaPolicy::kHierarchical)),
                  Lists{{0}, {1}, {}, {}, {2}, {}, {}, {}});
}

// ---- every policy -----------------------------------------------------------------------------------------

// One socket: every policy runs the whole grid there, in linear order.
TEST(CtaSchedule, OneSocketTakesEverything) {
  for (CtaPolicy policy : {CtaPolicy::kInterleave, CtaPolicy::kContiguous, CtaPolicy::kBatch,
                           CtaPolicy::kRowBinding, CtaPolicy::kColBinding, CtaPolicy::kHierarchical}) {
    SCOPED_TRACE(name(policy));
    expect_schedule(CtaSchedule({3, 2, 1}, Machine{1, 1}, with(policy)), Lists{{0, 1, 2, 3, 4, 5}});
  }
}

// Row and column binding spread sockets in socket-id order, so with chiplets the contiguous rows of
// consecutive sockets stay on one GPU first: 8 rows on 2 GPUs x 2 chiplets -> rows 0,1 s0; 2,3 s1 (GPU 0);
// 4,5 s2; 6,7 s3 (GPU 1).
TEST(CtaRowBinding, ConsecutiveSocketsShareAGpu) {
  const CtaSchedule s({1, 8, 1}, Machine{2, 2}, with(CtaPolicy::kRowBinding));
  expect_schedule(s, Lists{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
  EXPECT_EQ(s.machine().gpu_of(s.socket_of(3)), 0u);
  EXPECT_EQ(s.machine().gpu_of(s.socket_of(4)), 1u);
}

// 16 sockets as 16 GPUs x 1 chiplet or 4 GPUs x 4 chiplets: flat policies see only socket ids, so they do not
// change; hierarchical does. 32 CTAs: 16 x 1 -> contiguous pairs (s0 {0,1}, s1 {2,3}, ...); 4 x 4 -> GPU 0
// gets 0..7 round-robin over its chiplets (s0 {0,4}, s1 {1,5}, s2 {2,6}, s3 {3,7}), GPU 1 gets 8..15 etc.
TEST(CtaSchedule, ChipletsPerGpuOneVersusFour) {
  for (CtaPolicy policy : {CtaPolicy::kInterleave, CtaPolicy::kContiguous, CtaPolicy::kBatch,
                           CtaPolicy::kRowBinding, CtaPolicy::kColBinding}) {
    SCOPED_TRACE(name(policy));
    const CtaSchedule flat({8, 4, 1}, Machine{16, 1}, with(policy));
    const CtaSchedule chiplets({8, 4, 1}, Machine{4, 4}, with(policy));
    for (CtaId cta = 0; cta < 32; ++cta)
      EXPECT_EQ(flat.socket_of(cta), chiplets.socket_of(cta)) << cta;
  }
  const CtaSchedule flat({32, 1, 1}, Machine{16, 1}, with(CtaPolicy::kHierarchical));
  EXPECT_EQ(flat.ctas_of(0), (std::vector<CtaId>{0, 1}));
  EXPECT_EQ(flat.ctas_of(1), (std::vector<CtaId>{2, 3}));
  EXPECT_EQ(flat.ctas_of(15), (std::vector<CtaId>{30, 31}));
  const CtaSchedule chiplets({32, 1, 1}, Machine{4, 4}, with(CtaPolicy::kHierarchical));
  expect_schedule(chiplets, Lists{{0, 4},
                                  {1, 5},
                                  {2, 6},
                                  {3, 7},
                                  {8, 12},
                                  {9, 13},
                                  {10, 14},
                                  {11, 15},
                                  {16, 20},
                                  {17, 21},
                                  {18, 22},
                                  {19, 23},
                                  {24, 28},
                                  {25, 29},
                                  {26, 30},
                                  {27, 31}});
}

TEST(CtaSchedule, OutOfRangeQueries) {
  const CtaSchedule s({4, 1, 1}, Machine{2, 1}, with(CtaPolicy::kContiguous));
  EXPECT_THROW(s.socket_of(4), std::out_of_range);
  EXPECT_THROW(s.ctas_of(2), std::out_of_range);
}

TEST(CtaSchedule, Validation) {
  expect_invalid([] { CtaSchedule({0, 1, 1}, k4Sockets, {}); }, "grid 0x1x1 is empty");
  expect_invalid([] { CtaSchedule({4, 0, 1}, k4Sockets, {}); }, "grid 4x0x1 is empty");
  expect_invalid([] { CtaSchedule({4, 4, 0}, k4Sockets, {}); }, "grid 4x4x0 is empty");
  expect_invalid([] { CtaSchedule({65536, 65536, 1}, k4Sockets, {}); }, "4294967296 CTAs");
  expect_invalid([] { CtaSchedule({4, 1, 1}, Machine{0, 1}, {}); }, "gpus must be >= 1");
  expect_invalid([] { CtaSchedule({4, 1, 1}, Machine{1, 0}, {}); }, "chiplets_per_gpu must be >= 1");
  expect_invalid([] { CtaSchedule({4, 1, 1}, Machine{256, 256}, {}); }, "65536 sockets");
  CtaScheduleParams zero_batch = with(CtaPolicy::kBatch);
  zero_batch.batch = 0;
  expect_invalid([&] { CtaSchedule({4, 1, 1}, k4Sockets, zero_batch); }, "batch must be >= 1");
  CtaScheduleParams zero_chiplet_batch = with(CtaPolicy::kHierarchical);
  zero_chiplet_batch.chiplet_batch = 0;
  expect_invalid(
      [&] {
        CtaSchedule({4, 1, 1}, k4Sockets, zero_chiplet_batch);
      },
      "chiplet_batch must be >= 1");
}

// ---- helpers ----------------------------------------------------------------------------------------------

TEST(Grid, RowsAndColumns) {
  const Grid g{3, 2, 2};  // id = x + 3y + 6z
  EXPECT_EQ(g.ctas(), 12u);
  EXPECT_EQ(g.rows(), 4u);
  EXPECT_EQ(g.cols(), 6u);
  EXPECT_EQ(g.linear(2, 1, 1), 11u);
  EXPECT_EQ(g.row_of(11), 3u);  // y1 + 2 * z1
  EXPECT_EQ(g.col_of(11), 5u);  // x2 + 3 * z1
  EXPECT_EQ(g.row_of(4), 1u);   // (1, 1, 0)
  EXPECT_EQ(g.col_of(4), 1u);
}

TEST(Machine, SocketNumbering) {
  const Machine m{4, 4};
  EXPECT_EQ(m.sockets(), 16u);
  EXPECT_EQ(m.socket(1, 2), 6);
  EXPECT_EQ(m.gpu_of(6), 1u);
  EXPECT_EQ(m.chiplet_of(6), 2u);
  EXPECT_EQ(m.socket(3, 3), 15);
}

// Equation 2: 4 KB pages, 512 B datablocks (128 threads x 4 B) -> 8 CTAs. A 8 KB datablock spans whole pages
// -> 1. 1536 B datablocks (384 x 4 B): lcm(4096, 1536) = 12288 = 8 datablocks.
TEST(MinTbBatch, Equation2) {
  EXPECT_EQ(min_tb_batch(4096, 512), 8u);
  EXPECT_EQ(min_tb_batch(4096, 8192), 1u);
  EXPECT_EQ(min_tb_batch(4096, 1536), 8u);
  EXPECT_EQ(min_tb_batch(4096, 4096), 1u);
  expect_invalid([] { min_tb_batch(0, 4); }, "page_bytes");
  expect_invalid([] { min_tb_batch(4096, 0); }, "datablock_bytes");
}

TEST(CtaPolicyNames, RoundTrip) {
  for (CtaPolicy p : {CtaPolicy::kInterleave, CtaPolicy::kContiguous, CtaPolicy::kBatch,
                      CtaPolicy::kRowBinding, CtaPolicy::kColBinding, CtaPolicy::kHierarchical}) {
    EXPECT_EQ(parse_cta_policy(name(p)), p);
  }
  EXPECT_STREQ(name(CtaPolicy::kRowBinding), "row_binding");
  for (HierarchyUnit u : {HierarchyUnit::kCtas, HierarchyUnit::kRows, HierarchyUnit::kCols}) {
    EXPECT_EQ(parse_hierarchy_unit(name(u)), u);
  }
  expect_invalid([] { parse_cta_policy("rows"); }, "unknown CTA scheduling policy 'rows'");
  expect_invalid([] { parse_hierarchy_unit("gpus"); }, "expected ctas, rows or cols");
}

}  // namespace
}  // namespace numagpu::runtime
