// LASP (LADM §III-C to §III-E) and H-CODA: Algorithm 1 on known kernels' index expressions, Table II's
// actions, the per-kernel winner, CRB's choice, and H-CODA's CTA and page mapping on tiny grids. Every
// expectation is derived by hand in the comments.
#include "runtime/lasp.hpp"

#include "runtime/hcoda.hpp"

#include <gtest/gtest.h>

namespace numagpu::runtime {
namespace {

// Figure 6's matrix multiply, C = A x B, WIDTH = blockDim.x * gridDim.x, TILE = blockDim.x:
//  A[Row * WIDTH + m * TILE + tx], Row = by * TILE + ty: invariant in by only; variant m * TILE (no gDimx).
//  B[(m * TILE + ty) * WIDTH + Col], Col = bx * TILE + tx: invariant in bx only; variant m * TILE * WIDTH,
//    which contains gridDim.x.
//  C[Row * WIDTH + Col]: invariant in bx and by, no loop.
IndexTerms matmul_a() {
  return {false, true, false, LoopVariant::kM, 16};
}
IndexTerms matmul_b() {
  return {true, false, false, LoopVariant::kMGridDimX, 16 * 1024};
}
IndexTerms matmul_c() {
  return {true, true, false, LoopVariant::kNone, 0};
}

TEST(Algorithm1, ClassifiesFigure6sMatrixMultiply) {
  EXPECT_EQ(classify(matmul_a(), true), LocalityClass::kRowSharedMoveRow);  // Table II row 2
  EXPECT_EQ(classify(matmul_b(), true), LocalityClass::kColSharedMoveCol);  // row 5
  EXPECT_EQ(classify(matmul_c(), true), LocalityClass::kNoLocality);        // row 1, no stride
}

TEST(Algorithm1, ClassifiesTheOtherRows) {
  // Row 3: invariant(bx) + variant(m): CTAs of a grid column share, moving along a data row.
  EXPECT_EQ(classify({true, false, false, LoopVariant::kM, 8}, true), LocalityClass::kColSharedMoveRow);
  // Row 4: invariant(by) + variant(m, gDimx).
  EXPECT_EQ(classify({false, true, false, LoopVariant::kMGridDimX, 4096}, true),
            LocalityClass::kRowSharedMoveCol);
  // Vector add on a 1-D grid: A[bx * bdx + tx]: invariant(bx) is enough in 1-D.
  EXPECT_EQ(classify({true, false, false, LoopVariant::kNone, 0}, false), LocalityClass::kNoLocality);
  // ... but on a 2-D grid an index without by is shared by a grid column, not private.
  EXPECT_EQ(classify({true, false, false, LoopVariant::kNone, 0}, true), LocalityClass::kColSharedMoveRow);
  // CSR: col[row_ptr[tid] + m]: data-dependent start, variant exactly m: ITL (line 1 comes first).
  EXPECT_EQ(classify({false, false, true, LoopVariant::kUnitM, 1}, false), LocalityClass::kIntraThread);
  // X[Y[tid]]: data-dependent, no intra-thread walk: row 7.
  EXPECT_EQ(classify({true, false, true, LoopVariant::kNone, 0}, false), LocalityClass::kUnclassified);
  // JDS's data[ptr[m] + bx * bdx + tx]: the loop's offset read from a table is no stride x m, so row 1's
  // form does not match although the invariant group holds bx (in 1-D, and with by in 2-D): row 7. Its
  // own walk is not ITL either: the variant is not m.
  EXPECT_EQ(classify({true, false, false, LoopVariant::kIrregular, 0}, false), LocalityClass::kUnclassified);
  EXPECT_EQ(classify({true, true, false, LoopVariant::kIrregular, 0}, true), LocalityClass::kUnclassified);
  // A table every CTA reads the same way (no block id): no row matches.
  EXPECT_EQ(classify({false, false, false, LoopVariant::kM, 4}, false), LocalityClass::kUnclassified);
  EXPECT_EQ(classify({false, false, false, LoopVariant::kM, 4}, true), LocalityClass::kUnclassified);
}

Allocation matrix(const std::string& name, std::uint64_t base, std::uint64_t rows, std::uint64_t cols) {
  Allocation a;
  a.name = name;
  a.base = base;
  a.element_bytes = 4;
  a.bytes = rows * cols * 4;
  a.shape = Shape{rows, cols, 1};
  return a;
}

constexpr std::uint64_t kMiB = std::uint64_t(1) << 20;

TEST(Table2, ActionsPerRow) {
  const KernelShape k{Grid{8, 8, 1}, Machine{4, 1}, 4096};
  // Rows of 4096 floats = 16 KiB: a page per socket (4 sockets x 4 KiB), wide enough for column bands.
  const Allocation a = matrix("A", 0, 256, 4096);
  // Row 2: row binding, row-based placement, RTWICE.
  ArrayDecision d = decide_array({"A", 0, matmul_a(), 0}, a, k);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kRowBinding);
  EXPECT_EQ(d.placement, PlacementPolicy::kRowBased);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kTwice);
  // Row 5: column binding, column-based placement.
  d = decide_array({"B", 0, matmul_b(), 0}, a, k);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kColBinding);
  EXPECT_EQ(d.placement, PlacementPolicy::kColBased);
  // Row 3: column binding (the sharing), row-based placement (the motion); row 4 the other way round.
  d = decide_array({"X", 0, {true, false, false, LoopVariant::kM, 8}, 0}, a, k);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kColBinding);
  EXPECT_EQ(d.placement, PlacementPolicy::kRowBased);
  d = decide_array({"X", 0, {false, true, false, LoopVariant::kMGridDimX, 4096}, 0}, a, k);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kRowBinding);
  EXPECT_EQ(d.placement, PlacementPolicy::kColBased);
  // Rows of 1024 floats (4 KiB) are narrower than a page per socket: Equation 1's granularity is one page,
  // so the column-based placement is plain page interleaving (bands of 1 KiB would leave every page on the
  // socket of its first byte, socket 0).
  EXPECT_EQ(decide_array({"B", 0, matmul_b(), 0}, matrix("B", 0, 1024, 1024), k).placement,
            PlacementPolicy::kPageInterleave);
  // The same array without a 2-D shape cannot be placed by rows: kernel-wide.
  Allocation flat = a;
  flat.shape.reset();
  EXPECT_EQ(decide_array({"A", 0, matmul_a(), 0}, flat, k).placement, PlacementPolicy::kKernelWide);
  // On 4 GPUs of 4 chiplets the binding is hierarchical: rows per GPU, round-robin over its chiplets.
  d = decide_array({"A", 0, matmul_a(), 0}, a, KernelShape{Grid{8, 8, 1}, Machine{4, 4}, 4096});
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kHierarchical);
  EXPECT_EQ(d.schedule.hierarchy_unit, HierarchyUnit::kRows);
  // Row 6 (ITL): kernel-wide CTAs and pages, RONCE. Row 7: the same, RTWICE.
  d = decide_array({"col", 0, {false, false, true, LoopVariant::kUnitM, 1}, 0}, a, k);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(d.placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kOnce);
  d = decide_array({"x", 0, {true, false, true, LoopVariant::kNone, 0}, 0}, a, k);
  EXPECT_EQ(d.placement, PlacementPolicy::kKernelWide);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kTwice);
}

TEST(Table2, NoLocalityIsAlignAwareAndStrideAware) {
  // A grid-stride loop on a 1-D grid of 64 CTAs of 256 threads over floats: x[bx * 256 + tx + m * 64 * 256].
  // Datablock 256 x 4 B = 1 KiB, so MinTBBatch = 4096 / 1024 = 4 (Equation 2); kernel-wide chunks are
  // ceil(64 / 4 sockets) = 16 CTAs, a multiple of 4: batches of 16. Stride 16384 elements = 64 KiB.
  const Allocation x = matrix("x", 0, 1, 1 << 20);
  const IndexTerms grid_stride{true, false, false, LoopVariant::kM, 64 * 256};
  ArrayDecision d =
      decide_array({"x", 0, grid_stride, 1024}, x, KernelShape{Grid{64, 1, 1}, Machine{4, 1}, 4096});
  EXPECT_EQ(d.locality, LocalityClass::kNoLocality);
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kBatch);
  EXPECT_EQ(d.schedule.batch, 16u);
  EXPECT_EQ(d.placement, PlacementPolicy::kStrideAware);
  EXPECT_EQ(d.stride_bytes, 65536u);
  // A stride of 2048 floats (8 KiB) is narrower than a page per socket (16 KiB): one page at a time,
  // round-robin (Equation 1 in whole pages), that is page interleaving.
  d = decide_array({"x", 0, {true, false, false, LoopVariant::kM, 2048}, 1024}, x,
                   KernelShape{Grid{64, 1, 1}, Machine{4, 1}, 4096});
  EXPECT_EQ(d.placement, PlacementPolicy::kPageInterleave);
  EXPECT_EQ(d.stride_bytes, 0u);
  // 10 CTAs on 4 sockets: chunks of ceil(10 / 4) = 3 would split pages; rounded up to MinTBBatch 4, the
  // sockets get CTAs 0-3, 4-7, 8-9 and none.
  d = decide_array({"x", 0, {true, false, false, LoopVariant::kNone, 0}, 1024}, x,
                   KernelShape{Grid{10, 1, 1}, Machine{4, 1}, 4096});
  EXPECT_EQ(d.schedule.batch, 4u);
  EXPECT_EQ(d.placement, PlacementPolicy::kKernelWide);  // no loop: no stride
  const CtaSchedule s(Grid{10, 1, 1}, Machine{4, 1}, d.schedule);
  EXPECT_EQ(s.ctas_of(0), (std::vector<CtaId>{0, 1, 2, 3}));
  EXPECT_EQ(s.ctas_of(2), (std::vector<CtaId>{8, 9}));
  EXPECT_TRUE(s.ctas_of(3).empty());
}

TEST(KernelDecision, TheLargerArrayChoosesTheSchedulerAndCrbFollowsIt) {
  const KernelShape k{Grid{8, 8, 1}, Machine{4, 1}, 4096};
  // A is 4096 x 1024 floats, B 1024 x 4096, C 4096 x 1024: all 16 MiB, A is stated first and wins the tie:
  // row binding (§III-D2, the larger structure's scheduler). Each array keeps its own placement (B's rows,
  // 16 KiB, take column bands on 4 sockets).
  const std::vector<Allocation> allocs{matrix("A", 0, 4096, 1024), matrix("B", 16 * kMiB, 1024, 4096),
                                       matrix("C", 32 * kMiB, 4096, 1024)};
  const std::vector<ArrayAccess> gemm{
      {"A", 0, matmul_a(), 0}, {"B", 16 * kMiB, matmul_b(), 0}, {"C", 32 * kMiB, matmul_c(), 0}};
  KernelDecision d = decide_kernel(gemm, allocs, k);
  EXPECT_EQ(d.winner, "A");
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kRowBinding);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kTwice);
  ASSERT_EQ(d.arrays.size(), 3u);
  EXPECT_EQ(d.arrays[1].placement, PlacementPolicy::kColBased);
  // With B the larger (A 1 MiB), column binding wins, as for the paper's weight matrices.
  const std::vector<Allocation> wide{matrix("A", 0, 256, 1024), matrix("B", 8 * kMiB, 1024, 4096)};
  d = decide_kernel({{"A", 0, matmul_a(), 0}, {"B", 8 * kMiB, matmul_b(), 0}}, wide, k);
  EXPECT_EQ(d.winner, "B");
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kColBinding);
  // A CSR SpMV: row_ptr[tid] (1-D NL, 4 KiB... small), col and val walked from row_ptr[tid] by m (ITL, the
  // largest): kernel-wide and RONCE.
  Allocation row_ptr = matrix("row_ptr", 0, 1, 1024);
  Allocation col = matrix("col", 2 * kMiB, 1, 65536);
  d = decide_kernel({{"row_ptr", 0, {true, false, false, LoopVariant::kNone, 0}, 1024},
                     {"col", 2 * kMiB, {false, false, true, LoopVariant::kUnitM, 1}, 0}},
                    {row_ptr, col}, KernelShape{Grid{4, 1, 1}, Machine{4, 1}, 4096});
  EXPECT_EQ(d.winner, "col");
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kOnce);
  // Nothing stated (or no stated array is an allocation): the default, kernel-wide and RTWICE.
  d = decide_kernel({{"ghost", 64 * kMiB, matmul_a(), 0}}, allocs, k);
  EXPECT_EQ(d.winner, "");
  EXPECT_TRUE(d.arrays.empty());
  EXPECT_EQ(d.schedule.policy, CtaPolicy::kContiguous);
  EXPECT_EQ(d.remote_insert, RemoteInsert::kTwice);
}

TEST(Hcoda, BatchesAndPagesMeetOnATinyGrid) {
  // 8 CTAs of 512 threads over floats: datablock 2 KiB, MinTBBatch 4096 / 2048 = 2. Two sockets: batch b =
  // CTAs {2b, 2b + 1} on socket b mod 2, so CTAs 0-1 -> 0, 2-3 -> 1, 4-5 -> 0, 6-7 -> 1. Pages interleaved:
  // page p -> p mod 2; CTA c reads bytes [2048 c, 2048 c + 2048), page c / 2, on socket (c / 2) mod 2: its
  // own socket, for every CTA.
  Allocation x = matrix("x", 0, 1, 4096);
  const KernelShape k{Grid{8, 1, 1}, Machine{2, 1}, 4096};
  const CtaScheduleParams p =
      hcoda_schedule({{"x", 0, {true, false, false, LoopVariant::kNone, 0}, 2048}}, {x}, k);
  EXPECT_EQ(p.policy, CtaPolicy::kBatch);
  EXPECT_EQ(p.batch, 2u);
  const CtaSchedule s(k.grid, k.machine, p);
  const std::vector<SocketId> expected{0, 0, 1, 1, 0, 0, 1, 1};
  Placement pages(2, PlacementParams{PlacementPolicy::kPageInterleave, 4096}, {x});
  for (std::uint64_t c = 0; c < 8; ++c) {
    EXPECT_EQ(s.socket_of(c), expected[c]) << "CTA " << c;
    EXPECT_EQ(pages.home(c * 2048, 0), expected[c]) << "CTA " << c << "'s page";
  }
}

TEST(Hcoda, FillsAGpusChipletsBeforeTheNext) {
  // 2 GPUs of 2 chiplets (sockets 0, 1 on GPU 0; 2, 3 on GPU 1); 16 CTAs of 256 floats: datablock 1 KiB,
  // batches of 4. CTAs 0-3 -> socket 0, 4-7 -> 1 (GPU 0), 8-11 -> 2, 12-15 -> 3 (GPU 1); pages 0-3 likewise.
  // H-CODA ignores the index's row sharing: a 2-D GEMM's A gets the same batches (its datablock stated).
  Allocation x = matrix("x", 0, 1, 4096);
  const KernelShape k{Grid{16, 1, 1}, Machine{2, 2}, 4096};
  const CtaSchedule s(k.grid, k.machine,
                      hcoda_schedule({{"x", 0, {true, false, false, LoopVariant::kNone, 0}, 1024}}, {x}, k));
  Placement pages(4, PlacementParams{PlacementPolicy::kPageInterleave, 4096}, {x});
  for (std::uint64_t c = 0; c < 16; ++c) {
    EXPECT_EQ(s.socket_of(c), c / 4) << "CTA " << c;
    EXPECT_EQ(k.machine.gpu_of(s.socket_of(c)), c / 8) << "CTA " << c;
    EXPECT_EQ(pages.home(c * 1024, 0), c / 4) << "CTA " << c << "'s page";
  }
  // Nothing stated: batches of one CTA (CTA i on socket i mod 4), pages as ever.
  EXPECT_EQ(hcoda_schedule({}, {x}, k).batch, 1u);
}

TEST(Hcoda, InterleavesInWholeDatablocksWhenOneSpansPages) {
  // 4 sockets, 4 KiB pages. x: 16 CTAs of 1536 floats, datablock 6 KiB: lcm(4 KiB, 6 KiB) = 12 KiB = 3 pages
  // = 2 datablocks, so MinTBBatch = 2 (batch b = CTAs 2b, 2b + 1 on socket b mod 4) and H-CODA interleaves
  // x in 12 KiB units (stride_aware, stride 12 KiB x 4 = 48 KiB): pages 3u to 3u + 2 on socket u mod 4. CTA
  // c reads [6 KiB c, 6 KiB c + 6 KiB), inside unit c / 2: its own socket. (Round-robin pages would put
  // CTA 1's two pages, 1 and 2, on sockets 1 and 2, while it runs on 0.) y, a 2 KiB datablock within a
  // page: plain page interleaving.
  Allocation x = matrix("x", 0, 1, 16 * 1536);
  Allocation y = matrix("y", 2 * kMiB, 1, 4096);
  const KernelShape k{Grid{16, 1, 1}, Machine{4, 1}, 4096};
  const std::vector<ArrayAccess> stated{{"x", 0, {true, false, false, LoopVariant::kNone, 0}, 6144},
                                        {"y", 2 * kMiB, {true, false, false, LoopVariant::kNone, 0}, 2048}};
  const std::vector<HcodaPlacement> p = hcoda_placement(stated, {x, y}, k);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].policy, PlacementPolicy::kStrideAware);
  EXPECT_EQ(p[0].stride_bytes, 48u * 1024);
  EXPECT_EQ(p[1].policy, PlacementPolicy::kPageInterleave);
  const CtaSchedule s(k.grid, k.machine, hcoda_schedule(stated, {x, y}, k));
  Placement pages(4, PlacementParams{PlacementPolicy::kPageInterleave, 4096}, {x, y});
  ASSERT_TRUE(pages.place_once(0, p[0].policy, p[0].stride_bytes));
  for (std::uint64_t page = 0; page < 24; ++page)
    EXPECT_EQ(pages.home(page * 4096, 0), (page / 3) % 4) << "page " << page;
  for (std::uint64_t c = 0; c < 16; ++c) {
    EXPECT_EQ(s.socket_of(c), (c / 2) % 4) << "CTA " << c;
    EXPECT_EQ(pages.home(c * 6144, 0), s.socket_of(c)) << "CTA " << c << "'s first byte";
    EXPECT_EQ(pages.home(c * 6144 + 6143, 0), s.socket_of(c)) << "CTA " << c << "'s last byte";
  }
}

TEST(PlaceOnce, TheFirstStatingLaunchPlacesAnArray) {
  // x: 4096 floats = 16 KiB = 4 pages on 2 sockets. Kernel-wide (the default): pages 0-1 on socket 0, 2-3 on
  // socket 1. The first launch places it page-interleaved (0, 1, 0, 1); a later launch's choice is ignored.
  Allocation x = matrix("x", 0, 1, 4096);
  Allocation flat = matrix("flat", 2 * kMiB, 1, 4096);
  flat.shape.reset();
  Placement p(2, PlacementParams{PlacementPolicy::kKernelWide, 4096}, {x, flat});
  EXPECT_EQ(p.home(2 * 4096, 0), 1u);
  EXPECT_TRUE(p.place_once(0, PlacementPolicy::kPageInterleave));
  const std::vector<SocketId> interleaved{0, 1, 0, 1};
  for (std::uint64_t page = 0; page < 4; ++page)
    EXPECT_EQ(p.home(page * 4096, 0), interleaved[page]) << "page " << page;
  EXPECT_FALSE(p.place_once(0, PlacementPolicy::kKernelWide));
  EXPECT_EQ(p.home(2 * 4096, 0), 0u);
  // Without a shape an array cannot be placed by rows (nor stride-aware without a stride): left as it is,
  // and a later launch may still place it.
  EXPECT_FALSE(p.place_once(2 * kMiB, PlacementPolicy::kRowBased));
  EXPECT_FALSE(p.place_once(2 * kMiB, PlacementPolicy::kStrideAware, 0));
  EXPECT_TRUE(p.place_once(2 * kMiB, PlacementPolicy::kStrideAware, 8192));
  EXPECT_FALSE(p.place_once(64 * kMiB, PlacementPolicy::kKernelWide));  // no allocation there
}

}  // namespace
}  // namespace numagpu::runtime
