// Page placement: every policy on small allocations homes exactly the pages derived by hand in the comments.
// Most tests use 256 B pages and 4 B elements (64 elements per page) so the arithmetic stays small.
#include "runtime/placement.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "runtime/cta_schedule.hpp"
#include "test_support.hpp"

namespace numagpu::runtime {
namespace {

using Homes = std::vector<SocketId>;
using Counts = std::vector<std::uint64_t>;
using test::expect_invalid;

constexpr std::uint64_t kPage = 256;

PlacementParams params(PlacementPolicy policy, std::uint64_t page = kPage) {
  PlacementParams p;
  p.policy = policy;
  p.page_bytes = page;
  return p;
}

Allocation alloc(const std::string& name, std::uint64_t base, std::uint64_t bytes,
                 std::uint32_t element = 4) {
  Allocation a;
  a.name = name;
  a.base = base;
  a.bytes = bytes;
  a.element_bytes = element;
  return a;
}

Allocation matrix(const std::string& name, std::uint64_t base, std::uint64_t rows, std::uint64_t cols,
                  std::uint64_t depth = 1) {
  Allocation a = alloc(name, base, rows * cols * depth * 4);
  a.shape = Shape{rows, cols, depth};
  return a;
}

// The home of each page of allocation `a`, asked at the page's first byte inside `a`.
Homes page_homes(const Placement& p, const Allocation& a) {
  const std::uint64_t page_bytes = p.params().page_bytes;
  Homes out;
  for (std::uint64_t page = a.base / page_bytes; page <= (a.base + a.bytes - 1) / page_bytes; ++page) {
    const auto home = p.peek(std::max(page * page_bytes, a.base));
    EXPECT_TRUE(home.has_value()) << "page " << page;
    out.push_back(home.value_or(0xffff));
  }
  return out;
}

void expect_report(const AllocationReport& r, const Counts& pages, const Counts& bytes,
                   std::uint64_t mixed = 0, std::uint64_t untouched = 0) {
  EXPECT_EQ(r.pages, pages) << r.name;
  EXPECT_EQ(r.bytes, bytes) << r.name;
  EXPECT_EQ(r.mixed_pages, mixed) << r.name;
  EXPECT_EQ(r.untouched_pages, untouched) << r.name;
  std::uint64_t whole = 0;
  for (std::uint64_t n : r.pages)
    whole += n;
  EXPECT_EQ(r.pages_total, whole + mixed + untouched) << r.name;
}

// ---- line interleave --------------------------------------------------------------------------------------

// 128 B granules on 4 sockets: granule k = bytes 128k..128k+127 -> socket k mod 4; the toucher is ignored.
TEST(LineInterleave, ByLine) {
  PlacementParams pp = params(PlacementPolicy::kLineInterleave, 4096);
  Placement p(4, pp);
  EXPECT_EQ(p.home(0, 3), 0);
  EXPECT_EQ(p.home(127, 3), 0);
  EXPECT_EQ(p.home(128, 0), 1);
  EXPECT_EQ(p.home(256, 0), 2);
  EXPECT_EQ(p.home(384, 0), 3);
  EXPECT_EQ(p.home(512, 0), 0);
  EXPECT_EQ(p.home(4096 + 128, 0), 1);  // granule 33
}

// A configurable granule: 64 B -> address 64 is granule 1, 200 is granule 3.
TEST(LineInterleave, ConfigurableGranule) {
  PlacementParams pp = params(PlacementPolicy::kLineInterleave, 4096);
  pp.granule_bytes = 64;
  Placement p(4, pp);
  EXPECT_EQ(p.home(63, 0), 0);
  EXPECT_EQ(p.home(64, 0), 1);
  EXPECT_EQ(p.home(200, 0), 3);
  EXPECT_EQ(p.home(256, 0), 0);
}

// 1 KB at 0 with 512 B pages and 128 B lines on 4 sockets: each page holds granules of all 4 sockets, so both
// pages are mixed; every socket holds 2 lines = 256 B.
TEST(LineInterleave, ReportSplitsPages) {
  Placement p(4, params(PlacementPolicy::kLineInterleave, 512), {alloc("a", 0, 1024)});
  expect_report(p.report("a"), Counts{0, 0, 0, 0}, Counts{256, 256, 256, 256}, /*mixed=*/2);
}

// Granule (1 KB) larger than the page (512 B), 2 sockets, 4 KB at 0: page p lies in granule p/2 ->
// pages 0,1 s0; 2,3 s1; 4,5 s0; 6,7 s1. Whole pages, none mixed.
TEST(LineInterleave, GranuleLargerThanPageKeepsPagesWhole) {
  PlacementParams pp = params(PlacementPolicy::kLineInterleave, 512);
  pp.granule_bytes = 1024;
  const Allocation a = alloc("a", 0, 4096);
  Placement p(2, pp, {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1, 1, 0, 0, 1, 1}));
  expect_report(p.report("a"), Counts{4, 4}, Counts{2048, 2048});
}

// 20 B at 100 lie in granule 0 only: the allocation's part of the page has one home, socket 0.
TEST(LineInterleave, AllocationInsideOneGranuleIsWhole) {
  Placement p(4, params(PlacementPolicy::kLineInterleave, 512), {alloc("a", 100, 20)});
  expect_report(p.report("a"), Counts{1, 0, 0, 0}, Counts{20, 0, 0, 0});
}

// ---- page interleave --------------------------------------------------------------------------------------

// 256 B pages on 3 sockets: page k -> k mod 3.
TEST(PageInterleave, RoundRobinPages) {
  Placement p(3, params(PlacementPolicy::kPageInterleave));
  EXPECT_EQ(p.home(0, 2), 0);
  EXPECT_EQ(p.home(255, 2), 0);
  EXPECT_EQ(p.home(256, 2), 1);
  EXPECT_EQ(p.home(700, 0), 2);  // page 2
  EXPECT_EQ(p.home(768, 1), 0);  // page 3
}

// 1 KB at 256 = pages 1..4 -> sockets 1, 2, 0, 1.
TEST(PageInterleave, Report) {
  const Allocation a = alloc("a", 256, 1024);
  Placement p(3, params(PlacementPolicy::kPageInterleave), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{1, 2, 0, 1}));
  expect_report(p.report("a"), Counts{1, 2, 1}, Counts{256, 512, 256});
}

// ---- first touch ------------------------------------------------------------------------------------------

// 4 pages at 0, 4 sockets. Socket 2 touches page 0 first, socket 1 page 1; later touches by others keep the
// home. Pages 2 and 3 stay untouched.
TEST(FirstTouch, HomesAtTheFirstToucherAndStays) {
  Placement p(4, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 1024)});
  EXPECT_EQ(p.peek(10), std::nullopt);
  const PageTouch first = p.touch(10, 2);
  EXPECT_EQ(first.home, 2);
  EXPECT_TRUE(first.first_touch);
  const PageTouch again = p.touch(200, 0);  // same page 0, another socket
  EXPECT_EQ(again.home, 2);
  EXPECT_FALSE(again.first_touch);
  EXPECT_EQ(p.home(300, 1), 1);  // page 1
  EXPECT_EQ(p.home(0, 3), 2);
  EXPECT_EQ(p.home(511, 3), 1);
  EXPECT_EQ(p.peek(5), 2);
  EXPECT_EQ(p.peek(600), std::nullopt);  // page 2
  EXPECT_EQ(p.first_touches(), 2u);
  expect_report(p.report("a"), Counts{0, 1, 1, 0}, Counts{0, 256, 256, 0}, 0, /*untouched=*/2);
}

// Homes depend only on who came first, not on how often others touch afterwards.
TEST(FirstTouch, StableUnderManyLaterTouches) {
  Placement p(2, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 512)});
  EXPECT_EQ(p.home(256, 1), 1);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(p.home(256 + static_cast<std::uint64_t>(i), 0), 1);
  EXPECT_EQ(p.first_touches(), 1u);
}

TEST(FirstTouch, MigrationCostIsReportedNotCharged) {
  EXPECT_EQ(Placement(2, params(PlacementPolicy::kFirstTouch)).migration_cycles(), 0u);
  PlacementParams pp = params(PlacementPolicy::kFirstTouch);
  pp.migration_cycles = 28000;  // 20 us at 1.4 GHz
  Placement p(2, pp);
  EXPECT_EQ(p.migration_cycles(), 28000u);
  EXPECT_EQ(p.home(0, 1), 1);
}

// First touch is address-based: pages outside every allocation are homed by first touch too.
TEST(FirstTouch, AppliesOutsideAllocations) {
  Placement p(4, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 256)});
  EXPECT_EQ(p.home(1 << 20, 3), 3);
  EXPECT_EQ(p.home((1 << 20) + 1, 0), 3);
}

// A page two allocations share has one home, kept under its owner (the lower allocation): A is bytes 0-383
// and B 384-1023, so page 1 (bytes 256-511) is shared. s1 touches it through a byte of B, and a later
// touch through a byte of A by s0 finds s1. The reports both book it: A's bytes 256-383 (128 B) and B's
// 384-511 (128 B) on s1; B's pages 2 and 3 stay untouched; A's page 0 goes to s0.
TEST(FirstTouch, SharedPageHasOneHome) {
  Placement p(2, params(PlacementPolicy::kFirstTouch), {alloc("A", 0, 384), alloc("B", 384, 640)});
  const PageTouch via_b = p.touch(400, 1);
  EXPECT_EQ(via_b.home, 1);
  EXPECT_TRUE(via_b.first_touch);
  const PageTouch via_a = p.touch(300, 0);
  EXPECT_EQ(via_a.home, 1);
  EXPECT_FALSE(via_a.first_touch);
  EXPECT_EQ(p.home(10, 0), 0);
  EXPECT_EQ(p.first_touches(), 2u);
  expect_report(p.report("A"), Counts{1, 1}, Counts{256, 128});
  expect_report(p.report("B"), Counts{0, 1}, Counts{0, 128}, 0, /*untouched=*/2);
}

// Pages inside and outside allocations count alike: one inside (page 0 of "a"), two outside (pages 4096 and
// 4097, at 1 MiB), each homed once whatever touches it after.
TEST(FirstTouch, CountsPagesInsideAndOutsideAllocations) {
  Placement p(4, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 256)});
  EXPECT_EQ(p.home(5, 2), 2);
  EXPECT_EQ(p.home(1 << 20, 1), 1);
  EXPECT_EQ(p.home((1 << 20) + 256, 3), 3);
  EXPECT_EQ(p.home((1 << 20) + 300, 0), 3);
  EXPECT_EQ(p.home(200, 0), 2);
  EXPECT_EQ(p.peek((1 << 20) + 512), std::nullopt);  // page 4098: untouched
  EXPECT_EQ(p.first_touches(), 3u);
}

// An allocation of more pages than an array is made for (PageHomes::kMaxDensePages) keeps its homes in the
// hash map, with the same answers: its first page, its last page and one in the middle.
TEST(FirstTouch, HugeAllocationBehavesTheSame) {
  const std::uint64_t pages = PageHomes::kMaxDensePages + 1;
  Placement p(2, params(PlacementPolicy::kFirstTouch), {alloc("huge", 0, pages * kPage)});
  EXPECT_EQ(p.home(0, 1), 1);
  EXPECT_EQ(p.home((pages - 1) * kPage + 7, 0), 0);
  EXPECT_EQ(p.home(kPage, 0), 0);
  EXPECT_EQ(p.home(3, 0), 1);
  EXPECT_EQ(p.peek(2 * kPage), std::nullopt);
  EXPECT_EQ(p.first_touches(), 3u);
}

// The last page of the address space: its page number is the largest, and the allocation's array must
// index it from the allocation's own first page (2 pages: top - 511 is page 2^56 - 2 of 256 B pages).
TEST(FirstTouch, TopOfAddressSpace) {
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  Placement p(2, params(PlacementPolicy::kFirstTouch), {alloc("top", top - 511, 512)});
  EXPECT_EQ(p.home(top, 1), 1);
  EXPECT_EQ(p.home(top - 511, 0), 0);
  EXPECT_EQ(p.home(top - 255, 0), 1);  // 2^64 - 256, the first byte of the last page
  EXPECT_EQ(p.home(top - 256, 1), 0);  // the last byte of the page before
  expect_report(p.report("top"), Counts{1, 1}, Counts{256, 256});
}

// A copy keeps its own homes: touching the copy does not home the original's pages.
TEST(FirstTouch, CopiesAreIndependent) {
  Placement original(2, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 512)});
  EXPECT_EQ(original.home(0, 0), 0);
  Placement copy = original;
  EXPECT_EQ(copy.home(256, 1), 1);
  EXPECT_EQ(copy.home(0, 1), 0);
  EXPECT_EQ(original.peek(256), std::nullopt);
  EXPECT_EQ(original.first_touches(), 1u);
  EXPECT_EQ(copy.first_touches(), 2u);
}

// ---- kernel-wide ------------------------------------------------------------------------------------------

// 10 pages = 2560 B = 640 elements, 4 sockets: chunks of 160 elements = 640 B, boundaries at bytes 640,
// 1280, 1920. Page k starts at element 64k: pages 0,1,2 (elements 0, 64, 128) -> s0; 3,4 (192, 256) -> s1;
// 5,6,7 (320, 384, 448) -> s2; 8,9 (512, 576) -> s3. Page 2 straddles the 0/1 boundary and follows its first
// byte; so does page 7 (2/3).
TEST(KernelWide, ChunksWithStraddlingPages) {
  const Allocation a = alloc("a", 0, 2560);
  Placement p(4, params(PlacementPolicy::kKernelWide), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 0, 1, 1, 2, 2, 2, 3, 3}));
  expect_report(p.report("a"), Counts{3, 2, 3, 2}, Counts{768, 512, 768, 512});
}

// Unaligned base: 512 B at 128 = 128 elements, 2 sockets -> chunk 0 = bytes 128..383, chunk 1 = 384..639.
// Page 0 (first byte 128, element 0) -> s0; page 1 (256, element 32) -> s0, although its upper half is
// chunk 1; page 2 (512, element 96) -> s1. Bytes: 128 + 256 on s0, 128 on s1.
TEST(KernelWide, UnalignedBase) {
  const Allocation a = alloc("a", 128, 512);
  Placement p(2, params(PlacementPolicy::kKernelWide), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1}));
  expect_report(p.report("a"), Counts{2, 1}, Counts{384, 128});
}

// 2 pages = 128 elements on 4 sockets: chunks of 32 elements (128 B). Page 0 -> element 0 -> s0; page 1 ->
// element 64 -> chunk 2 -> s2. Sockets 1 and 3 get no page.
TEST(KernelWide, MoreSocketsThanPages) {
  const Allocation a = alloc("a", 0, 512);
  Placement p(4, params(PlacementPolicy::kKernelWide), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 2}));
  expect_report(p.report("a"), Counts{1, 0, 1, 0}, Counts{256, 0, 256, 0});
}

// 2 elements on 4 sockets: element 0 -> s0, element 1 -> s1; the only page follows element 0.
TEST(KernelWide, MoreSocketsThanElements) {
  Placement p(4, params(PlacementPolicy::kKernelWide), {alloc("a", 0, 8)});
  expect_report(p.report("a"), Counts{1, 0, 0, 0}, Counts{8, 0, 0, 0});
}

// ---- stride-aware -----------------------------------------------------------------------------------------

// Equation 1 with a whole number of pages: stride 8 pages (2048 B), 4 sockets -> 2 pages per socket per
// window. 16 pages: 0,1 s0; 2,3 s1; 4,5 s2; 6,7 s3; then again from page 8.
TEST(StrideAware, WholePagesPerSocket) {
  Allocation a = alloc("a", 0, 16 * kPage);
  a.stride_bytes = 8 * kPage;
  Placement p(4, params(PlacementPolicy::kStrideAware), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1, 1, 2, 2, 3, 3, 0, 0, 1, 1, 2, 2, 3, 3}));
  expect_report(p.report("a"), Counts{4, 4, 4, 4}, Counts{1024, 1024, 1024, 1024});
}

// Stride 6 pages = 1536 B = 384 elements, 4 sockets -> 96 elements (1.5 pages) per socket per window.
// Pages of a window start at elements 0, 64, 128, 192, 256, 320 -> chunks 0, 0, 1, 2, 2, 3. 12 pages are two
// windows: s0 4 pages, s1 2, s2 4, s3 2.
TEST(StrideAware, HalfPageChunksFollowTheFirstByte) {
  Allocation a = alloc("a", 0, 12 * kPage);
  a.stride_bytes = 6 * kPage;
  Placement p(4, params(PlacementPolicy::kStrideAware), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1, 2, 2, 3, 0, 0, 1, 2, 2, 3}));
  expect_report(p.report("a"), Counts{4, 2, 4, 2}, Counts{1024, 512, 1024, 512});
}

// A stride smaller than sockets x page cannot be separated by pages: stride 1 page, 4 sockets -> every page
// starts a window (element offset 0), so all pages land on socket 0 (documented limit; LASP would pick
// kernel-wide here).
TEST(StrideAware, StrideBelowSocketsTimesPageConcentrates) {
  Allocation a = alloc("a", 0, 4 * kPage);
  a.stride_bytes = kPage;
  Placement p(4, params(PlacementPolicy::kStrideAware), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 0, 0}));
}

// LADM Figure 3: 2 sockets, 2 CTAs, a 4-datablock structure (one page each) read with a stride of 2
// datablocks: CTA 0 reads datablocks 0 and 2, CTA 1 reads 1 and 3. Contiguous scheduling puts CTA i on
// socket i. Kernel-wide placement homes datablocks 0,1 on s0 and 2,3 on s1: half the reads are remote.
// Stride-aware placement (stride 2 pages) homes 0,2 on s0 and 1,3 on s1: none are.
TEST(StrideAware, LadmFigure3) {
  const CtaSchedule schedule({2, 1, 1}, Machine{2, 1}, {});
  Allocation a = alloc("data", 0, 4 * kPage);
  a.stride_bytes = 2 * kPage;
  Placement kernel_wide(2, params(PlacementPolicy::kKernelWide), {a});
  Placement stride_aware(2, params(PlacementPolicy::kStrideAware), {a});
  int remote_kernel_wide = 0;
  int remote_stride_aware = 0;
  for (CtaId cta = 0; cta < 2; ++cta) {
    const SocketId socket = schedule.socket_of(cta);
    for (std::uint64_t block : {std::uint64_t{cta}, std::uint64_t{cta} + 2}) {
      remote_kernel_wide += kernel_wide.home(block * kPage, socket) != socket;
      remote_stride_aware += stride_aware.home(block * kPage, socket) != socket;
    }
  }
  EXPECT_EQ(remote_kernel_wide, 2);  // of 4
  EXPECT_EQ(remote_stride_aware, 0);
}

// ---- row-based --------------------------------------------------------------------------------------------

// 6 rows x 128 floats (512 B = 2 pages per row), 4 sockets: rows 6 = 4 * 1 + 2 -> 2, 2, 1, 1: rows 0,1 (pages
// 0..3) s0; rows 2,3 (4..7) s1; row 4 (8,9) s2; row 5 (10,11) s3. Same cut as the 6-row grid under
// row_binding (CtaRowBinding.SixRowsOnFourSockets).
TEST(RowBased, WholeRowsInContiguousBlocks) {
  const Allocation a = matrix("A", 0, 6, 128);
  Placement p(4, params(PlacementPolicy::kRowBased), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 3, 3}));
  expect_report(p.report("A"), Counts{4, 4, 2, 2}, Counts{1024, 1024, 512, 512});
}

// 4 rows x 96 floats (384 B = 1.5 pages per row), 3 sockets: rows -> 2, 1, 1: rows 0,1 = bytes 0..767 s0;
// row 2 = 768..1151 s1; row 3 = 1152..1535 s2. Pages start at 0, 256, 512 (rows 0, 0, 1) -> s0; 768, 1024
// (row 2) -> s1, page 4 although it ends in row 3; 1280 (row 3) -> s2.
TEST(RowBased, PageStraddlingRowsFollowsItsFirstByte) {
  const Allocation a = matrix("A", 0, 4, 96);
  Placement p(3, params(PlacementPolicy::kRowBased), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 0, 1, 1, 2}));
  expect_report(p.report("A"), Counts{3, 2, 1}, Counts{768, 512, 256});
}

// 3-D: 3 planes of 2 rows x 64 floats (1 page per row) = 6 data rows numbered plane * 2 + row, 4 sockets ->
// 2, 2, 1, 1: pages 0,1 s0; 2,3 s1; 4 s2; 5 s3.
TEST(RowBased, ThreeDimensionalRowsRunAcrossPlanes) {
  const Allocation a = matrix("V", 0, 2, 64, 3);
  Placement p(4, params(PlacementPolicy::kRowBased), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1, 1, 2, 3}));
}

// ---- column-based -----------------------------------------------------------------------------------------

// 4 rows x 256 floats (1 KB = 4 pages per row), 4 sockets: column bands of 64 floats = 1 page, band b on
// socket b, in every row: page k -> k mod 4. Same cut as a 4-column grid under col_binding.
TEST(ColBased, ColumnBandsRepeatEveryRow) {
  const Allocation a = matrix("B", 0, 4, 256);
  Placement p(4, params(PlacementPolicy::kColBased), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3}));
  expect_report(p.report("B"), Counts{4, 4, 4, 4}, Counts{1024, 1024, 1024, 1024});
}

// 2 rows x 192 floats (768 B = 3 pages per row), 2 sockets: bands of 96 columns (384 B = 1.5 pages). In each
// row pages start at columns 0, 64, 128 -> s0, s0, s1.
TEST(ColBased, PageStraddlingBandsFollowsItsFirstByte) {
  const Allocation a = matrix("B", 0, 2, 192);
  Placement p(2, params(PlacementPolicy::kColBased), {a});
  EXPECT_EQ(page_homes(p, a), (Homes{0, 0, 1, 0, 0, 1}));
  expect_report(p.report("B"), Counts{4, 2}, Counts{1024, 512});
}

// ---- rules shared by all policies -------------------------------------------------------------------------

// LADM policies fall back to page interleave outside every allocation: page 16 -> 0, page 17 -> 1.
TEST(Placement, OutsideAllocationsLadmFallsBackToPageInterleave) {
  Placement p(2, params(PlacementPolicy::kKernelWide), {alloc("a", 0, 1024)});
  EXPECT_EQ(p.home(4096, 1), 0);
  EXPECT_EQ(p.home(4352, 0), 1);
  EXPECT_EQ(p.allocation_at(4096), nullptr);
}

// Address-based policies apply outside allocations as inside: line interleave of address 128 is socket 1.
TEST(Placement, OutsideAllocationsAddressPoliciesApply) {
  Placement p(4, params(PlacementPolicy::kLineInterleave, 4096));
  EXPECT_EQ(p.home(128, 0), 1);
}

// A (384 B at 0, 96 elements, kernel-wide on 2 sockets: chunk 0 = bytes 0..191, chunk 1 = 192..383) and B
// (640 B at 384, 160 elements: chunk 0 = 384..703, chunk 1 = 704..1023) share page 1 (256..511). A is the
// lower allocation, so A places it: its first byte 256 is A's element 64 -> s1 (B's rule would say s0).
// A: page 0 s0 (256 B), page 1 s1 (128 B). B: page 1 s1 (128 B of B), page 2 (512 = B element 32) s0,
// page 3 (768 = B element 96) s1.
TEST(Placement, SharedPageIsPlacedByTheLowerAllocation) {
  Placement p(2, params(PlacementPolicy::kKernelWide), {alloc("A", 0, 384), alloc("B", 384, 640)});
  EXPECT_EQ(p.home(400, 0), 1);  // a byte of B in page 1
  EXPECT_EQ(p.allocation_at(400)->name, "B");
  expect_report(p.report("A"), Counts{1, 1}, Counts{256, 128});
  expect_report(p.report("B"), Counts{1, 2}, Counts{256, 384});
}

// Per-allocation policies (LASP places each data structure by its own locality type). Default page
// interleave on 2 sockets; "ft" (pages 4, 5) uses first touch; "rows" (2 rows of 64 floats = pages 8, 9) row
// based. Page 4 is touched by s1 first; page 5 stays untouched; rows 0/1 -> s0/s1; page 2 interleaves to s0.
TEST(Placement, PerAllocationPolicies) {
  Allocation ft = alloc("ft", 4 * kPage, 2 * kPage);
  ft.policy = PlacementPolicy::kFirstTouch;
  Allocation rows = matrix("rows", 8 * kPage, 2, 64);
  rows.policy = PlacementPolicy::kRowBased;
  Placement p(2, params(PlacementPolicy::kPageInterleave), {ft, rows});
  EXPECT_EQ(p.policy_of(p.allocations()[0]), PlacementPolicy::kFirstTouch);
  EXPECT_EQ(p.home(4 * kPage, 1), 1);
  EXPECT_EQ(p.home(4 * kPage + 8, 0), 1);
  EXPECT_EQ(p.peek(5 * kPage), std::nullopt);
  EXPECT_EQ(p.home(8 * kPage, 1), 0);
  EXPECT_EQ(p.home(9 * kPage, 0), 1);
  EXPECT_EQ(p.home(2 * kPage, 1), 0);
  expect_report(p.report("ft"), Counts{0, 1}, Counts{0, 256}, 0, 1);
  expect_report(p.report("rows"), Counts{1, 1}, Counts{256, 256});
}

// Requests are counted per allocation, local when homed at the requesting socket. Kernel-wide on 2 sockets,
// A = bytes 0..383 and B = 384..1023 (the shared page 1 follows A's first byte there, A's element 64 of 96:
// socket 1, as SharedPageIsPlacedByTheLowerAllocation derives). A: byte 10 (page 0, socket 0) by socket 0,
// local; byte 300 (page 1, socket 1) by socket 0, remote, and by socket 1, local. B: byte 400 (page 1,
// socket 1) by socket 0, remote; byte 1000 (page 3, first byte 768: B's element 96 of 160, socket 1) by
// socket 1, local. Byte 5000 lies in no allocation (page interleaving, page 19: socket 1) and is counted
// nowhere. First touch counts the first toucher's request local and a later toucher's remote.
TEST(Placement, CountsEachAllocationsRequestsLocalAndRemote) {
  Placement p(2, params(PlacementPolicy::kKernelWide), {alloc("A", 0, 384), alloc("B", 384, 640)});
  EXPECT_EQ(p.home(10, 0), 0);
  EXPECT_EQ(p.home(300, 0), 1);
  EXPECT_EQ(p.home(300, 1), 1);
  EXPECT_EQ(p.home(400, 0), 1);
  EXPECT_EQ(p.home(1000, 1), 1);
  EXPECT_EQ(p.home(5000, 0), 1);
  EXPECT_EQ(p.report("A").requests_local, 2u);
  EXPECT_EQ(p.report("A").requests_remote, 1u);
  EXPECT_EQ(p.report("B").requests_local, 1u);
  EXPECT_EQ(p.report("B").requests_remote, 1u);

  Placement ft(2, params(PlacementPolicy::kFirstTouch), {alloc("a", 0, 512)});
  ft.touch(0, 1);    // page 0 homed at socket 1: local
  ft.touch(8, 0);    // page 0 again, from socket 0: remote
  ft.touch(256, 0);  // page 1 homed at socket 0: local
  EXPECT_EQ(ft.report("a").requests_local, 2u);
  EXPECT_EQ(ft.report("a").requests_remote, 1u);
}

// One socket: every policy homes everything on socket 0.
TEST(Placement, OneSocket) {
  for (PlacementPolicy policy :
       {PlacementPolicy::kLineInterleave, PlacementPolicy::kPageInterleave, PlacementPolicy::kFirstTouch,
        PlacementPolicy::kKernelWide, PlacementPolicy::kStrideAware, PlacementPolicy::kRowBased,
        PlacementPolicy::kColBased}) {
    SCOPED_TRACE(name(policy));
    Allocation a = matrix("m", 0, 4, 128);  // 2 KB = 8 pages
    a.stride_bytes = 512;
    Placement p(1, params(policy), {a});
    for (std::uint64_t address = 0; address < 2048; address += 100)
      EXPECT_EQ(p.home(address, 0), 0);
    expect_report(p.report("m"), Counts{8}, Counts{2048});
  }
}

// The report lists allocations in the order given, not by address.
TEST(Placement, ReportInGivenOrder) {
  Placement p(2, params(PlacementPolicy::kPageInterleave), {alloc("hi", 1024, 256), alloc("lo", 0, 256)});
  const std::vector<AllocationReport> r = p.report();
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].name, "hi");
  EXPECT_EQ(r[1].name, "lo");
  expect_report(r[0], Counts{1, 0}, Counts{256, 0});  // page 4
}

// An allocation ending at the last byte of the address space: its last page is the last page.
TEST(Placement, TopOfAddressSpace) {
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  const Allocation a = alloc("top", top - 511, 512);  // the last 2 pages
  Placement p(2, params(PlacementPolicy::kKernelWide), {a});
  EXPECT_EQ(p.home(top, 0), 1);
  expect_report(p.report("top"), Counts{1, 1}, Counts{256, 256});
}

TEST(Placement, Validation) {
  const PlacementParams pp = params(PlacementPolicy::kPageInterleave);
  expect_invalid([&] { Placement(0, pp); }, "sockets must be 1..65535 (got 0)");
  expect_invalid([&] { Placement(65536, pp); }, "(got 65536)");
  expect_invalid([] { Placement(2, params(PlacementPolicy::kPageInterleave, 3000)); }, "page_bytes 3000");
  PlacementParams bad_granule = pp;
  bad_granule.granule_bytes = 0;
  expect_invalid([&] { Placement(2, bad_granule); }, "granule_bytes 0");

  expect_invalid([&] { Placement(2, pp, {alloc("", 0, 256)}); }, "has no name");
  expect_invalid([&] { Placement(2, pp, {alloc("a", 0, 0)}); }, "'a': size must be >= 1 B");
  expect_invalid([&] { Placement(2, pp, {alloc("a", 0, 256, 0)}); }, "element_bytes must be >= 1");
  expect_invalid([&] { Placement(2, pp, {alloc("a", 0, 250, 8)}); }, "not a multiple of its 8 B elements");
  expect_invalid([&] { Placement(2, pp, {alloc("a", std::numeric_limits<std::uint64_t>::max(), 2)}); },
                 "past the end of the address space");
  expect_invalid(
      [&] {
        Placement(2, pp, {alloc("a", 0, 512), alloc("b", 500, 12)});
      },
      "'b': overlaps allocation 'a'");
  expect_invalid([&] { Placement(2, pp, {alloc("a", 0, 256), alloc("a", 256, 256)}); }, "name used twice");

  Allocation wrong_shape = matrix("m", 0, 4, 4);
  wrong_shape.bytes = 128;
  expect_invalid([&] { Placement(2, pp, {wrong_shape}); },
                 "shape 4x4x1 of 4 B elements does not cover its 128 B");
  Allocation empty_shape = alloc("m", 0, 64);
  empty_shape.shape = Shape{0, 16, 1};
  expect_invalid([&] { Placement(2, pp, {empty_shape}); }, "rows, cols and depth must be >= 1");

  expect_invalid([] { Placement(2, params(PlacementPolicy::kStrideAware), {alloc("s", 0, 256)}); },
                 "'s': stride_aware placement needs stride_bytes");
  Allocation odd_stride = alloc("s", 0, 256);
  odd_stride.stride_bytes = 6;
  expect_invalid([&] { Placement(2, params(PlacementPolicy::kStrideAware), {odd_stride}); }, "(got 6)");
  expect_invalid([] { Placement(2, params(PlacementPolicy::kRowBased), {alloc("r", 0, 256)}); },
                 "row_based placement needs the allocation's shape");
  Allocation col = alloc("c", 0, 256);
  col.policy = PlacementPolicy::kColBased;
  expect_invalid([&] { Placement(2, pp, {col}); }, "col_based placement needs the allocation's shape");

  Placement p(2, pp, {alloc("a", 0, 256)});
  expect_invalid([&] { p.home(0, 2); }, "toucher socket 2 does not exist");
  expect_invalid([&] { p.report("b"); }, "no allocation named 'b'");
}

TEST(PlacementPolicyNames, RoundTrip) {
  for (PlacementPolicy p :
       {PlacementPolicy::kLineInterleave, PlacementPolicy::kPageInterleave, PlacementPolicy::kFirstTouch,
        PlacementPolicy::kKernelWide, PlacementPolicy::kStrideAware, PlacementPolicy::kRowBased,
        PlacementPolicy::kColBased}) {
    EXPECT_EQ(parse_placement_policy(name(p)), p);
  }
  EXPECT_STREQ(name(PlacementPolicy::kStrideAware), "stride_aware");
  expect_invalid([] { parse_placement_policy("interleave"); }, "unknown placement policy 'interleave'");
}

}  // namespace
}  // namespace numagpu::runtime
