#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "stats/path.hpp"

namespace numagpu::stats {
namespace {

TEST(GenericPath, FoldsTrailingDigitsOfEachComponent) {
  EXPECT_EQ(generic_component("sm12"), "sm*");
  EXPECT_EQ(generic_component("bank_3"), "bank_*");
  EXPECT_EQ(generic_component("7"), "*");
  EXPECT_EQ(generic_component("read_hits"), "read_hits");
  EXPECT_EQ(generic_component("l2tlb"), "l2tlb");  // only trailing digits fold
  EXPECT_EQ(generic_path("system.socket0.l2.bank3.read_hits"), "system.socket*.l*.bank*.read_hits");
  EXPECT_EQ(generic_path("system.socket3.sm255.instructions"), "system.socket*.sm*.instructions");
  EXPECT_EQ(generic_path("x"), "x");
  EXPECT_EQ(generic_path("9.a10.10b"), "*.a*.10b");
  // Malformed paths fold component by component all the same (the document validator meets them).
  EXPECT_EQ(generic_path(""), "");
  EXPECT_EQ(generic_path("a1..b2."), "a*..b*.");
  EXPECT_EQ(generic_path(".x3"), ".x*");
}

TEST(CheckPath, AcceptsSystemCStyleNames) {
  EXPECT_NO_THROW(check_path("system.socket0.l2.bank3.read_hits"));
  EXPECT_NO_THROW(check_path("top.sm_0.warp-sched"));
  EXPECT_NO_THROW(check_path("single"));
}

TEST(CheckPath, RejectsMalformedPaths) {
  for (const char* bad : {"", ".a", "a.", "a..b", "a.*.b", "a b", "a\tb", "a.b\n"}) {
    EXPECT_THROW(check_path(bad), std::invalid_argument) << "'" << bad << "'";
  }
}

TEST(SplitPath, Components) {
  EXPECT_EQ(split_path("a.bc.d"), (std::vector<std::string_view>{"a", "bc", "d"}));
  EXPECT_EQ(split_path("a"), (std::vector<std::string_view>{"a"}));
}

TEST(PathLess, NaturalOrderKeepsGroupsTogether) {
  std::vector<std::string> paths = {"s.sm10.x", "s.sm2.x", "s.sm1.y", "s.b-x",
                                    "s.b.x",    "s.sm1.x", "s.a",     "s.sm01.x"};
  std::sort(paths.begin(), paths.end(), PathLess{});
  // "s.b.x" is in group "s.b", which precedes the sibling component "b-x" even though '-' < '.' in ASCII.
  // sm01 and sm1 have the same number: the tie goes by plain string order ("sm01" < "sm1").
  const std::vector<std::string> expected = {"s.a",     "s.b.x",   "s.b-x",   "s.sm01.x",
                                             "s.sm1.x", "s.sm1.y", "s.sm2.x", "s.sm10.x"};
  EXPECT_EQ(paths, expected);
}

TEST(PathLess, IsStrict) {
  const PathLess less;
  EXPECT_FALSE(less("a.b", "a.b"));
  EXPECT_TRUE(less("a", "a.b"));
  EXPECT_FALSE(less("a.b", "a"));
  EXPECT_TRUE(less("sm01", "sm1"));
  EXPECT_FALSE(less("sm1", "sm01"));
  EXPECT_TRUE(less("sm9", "sm00010"));
  // Digit runs longer than 64 bits still compare by value.
  EXPECT_TRUE(less("n99999999999999999999999", "n100000000000000000000000"));
}

TEST(PathOrder, ListsPathsInPathLessOrder) {
  const std::vector<std::string_view> paths = {"system.sm10.x",     "system.sm2.x", "system.sm2",   "a.b",
                                               "system.l2.bank1.a", "system.l10.a", "system.sm02.x"};
  // By hand: "a" < "system"; then the second components l2 < l10 < sm02 < sm2 < sm10 (l before s; 2 before
  // 10 by value; sm02 and sm2 tie by value and "sm02" < "sm2" as strings); "system.sm2" before
  // "system.sm2.x" (fewer components first).
  const std::vector<std::size_t> expected = {3, 4, 5, 6, 2, 1, 0};
  EXPECT_EQ(path_order(paths), expected);
  EXPECT_TRUE(path_order({}).empty());
  EXPECT_EQ(path_order({"only"}), (std::vector<std::size_t>{0}));
}

TEST(PathOrder, AgreesWithSortingByPathLess) {
  // Paths built from a small alphabet of components, so that prefixes, digit runs of several lengths and
  // leading zeros all meet.
  const std::vector<std::string> parts = {"sm",   "sm1", "sm01", "sm2", "sm10", "l2",
                                          "bank", "b-x", "b",    "9",   "x"};
  std::vector<std::string> storage;
  std::uint64_t state = 7;
  for (int n = 0; n < 400; ++n) {
    std::string path;
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    const int depth = 1 + static_cast<int>((state >> 40) % 4);
    for (int d = 0; d < depth; ++d) {
      state = state * 6364136223846793005ULL + 1442695040888963407ULL;
      if (d) path += '.';
      path += parts[(state >> 33) % parts.size()];
    }
    storage.push_back(path);
  }
  std::sort(storage.begin(), storage.end());
  storage.erase(std::unique(storage.begin(), storage.end()), storage.end());
  const std::vector<std::string_view> paths(storage.begin(), storage.end());
  std::vector<std::string_view> expected = paths;
  std::sort(expected.begin(), expected.end(), PathLess{});
  std::vector<std::string_view> got;
  for (const std::size_t i : path_order(paths))
    got.push_back(paths[i]);
  EXPECT_EQ(got, expected);
}

}  // namespace
}  // namespace numagpu::stats
