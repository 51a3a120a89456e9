#include <algorithm>
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

}  // namespace
}  // namespace numagpu::stats
