#include "cache/tag_array.hpp"

#include <gtest/gtest.h>

namespace numagpu {
namespace {

// 2 sets x 2 ways. Lines map to set (line % 2): even lines to set 0, odd lines to set 1.
TEST(TagArray, LruEvictsLeastRecentlyUsedInTheSet) {
  TagArray t(2, 2);
  EXPECT_FALSE(t.access(0));
  EXPECT_FALSE(t.insert(0, false).has_value());  // set 0: {0}
  EXPECT_FALSE(t.insert(2, false).has_value());  // set 0: {0, 2}, 2 most recent
  EXPECT_FALSE(t.insert(1, false).has_value());  // set 1 is independent
  EXPECT_TRUE(t.access(0));                      // 0 becomes most recent: LRU order 2, 0
  const auto victim = t.insert(4, false);        // evicts 2
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 2u);
  EXPECT_FALSE(victim->dirty);
  EXPECT_TRUE(t.contains(0));
  EXPECT_TRUE(t.contains(4));
  EXPECT_FALSE(t.contains(2));
  EXPECT_TRUE(t.contains(1));
}

TEST(TagArray, DirtyVictimIsReported) {
  TagArray t(1, 1);
  t.insert(7, false);
  EXPECT_TRUE(t.mark_dirty(7));
  EXPECT_FALSE(t.mark_dirty(8));  // absent
  const auto victim = t.insert(8, false);
  ASSERT_TRUE(victim.has_value());
  EXPECT_EQ(victim->line, 7u);
  EXPECT_TRUE(victim->dirty);
}

TEST(TagArray, InvalidateAllCountsValidLines) {
  TagArray t(4, 2);
  t.insert(0, false);
  t.insert(1, true);
  t.insert(5, false);
  EXPECT_EQ(t.invalidate_all(), 3u);
  EXPECT_FALSE(t.contains(0));
  EXPECT_EQ(t.invalidate_all(), 0u);
}

}  // namespace
}  // namespace numagpu
