// PortTable: the first ports inline, the rest allocated one by one; sizes and addresses as documented.
#include "common/port_table.hpp"

#include <gtest/gtest.h>

namespace numagpu {
namespace {

struct State {
  int value = 0;
};

TEST(PortTable, GrowsToTheHighestPortAskedFor) {
  PortTable<State, 2> t;
  EXPECT_EQ(t.size(), 0u);
  t.grow_to(0).value = 10;
  EXPECT_EQ(t.size(), 1u);
  t.grow_to(4).value = 14;  // ports 1 to 4 come into being, 2 to 4 allocated
  EXPECT_EQ(t.size(), 5u);
  t.grow_to(1).value = 11;  // already there: no growth
  EXPECT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].value, 10);
  EXPECT_EQ(t[1].value, 11);
  EXPECT_EQ(t[2].value, 0);  // default state
  EXPECT_EQ(t[3].value, 0);
  EXPECT_EQ(t[4].value, 14);
}

// References handed out stay valid while the table grows (a port group keeps one across calls that may
// make a new port appear), inline ports and allocated ones alike.
TEST(PortTable, StatesStayWhereTheyAreWhenTheTableGrows) {
  PortTable<State, 2> t;
  State* inline_port = &t.grow_to(1);
  State* allocated_port = &t.grow_to(2);
  for (unsigned p = 3; p < 200; ++p)
    t.grow_to(p).value = static_cast<int>(p);
  EXPECT_EQ(&t[1], inline_port);
  EXPECT_EQ(&t[2], allocated_port);
  EXPECT_EQ(t[199].value, 199);
}

// The first ports live inside the table itself (what saves a hop its pointer load); later ones do not.
TEST(PortTable, TheFirstPortsLiveInsideTheTable) {
  PortTable<State, 2> t;
  t.grow_to(2);
  const auto* begin = reinterpret_cast<const char*>(&t);
  const auto* end = begin + sizeof t;
  auto inside = [&](const State& s) {
    const auto* p = reinterpret_cast<const char*>(&s);
    return p >= begin && p < end;
  };
  EXPECT_TRUE(inside(t[0]));
  EXPECT_TRUE(inside(t[1]));
  EXPECT_FALSE(inside(t[2]));
}

}  // namespace
}  // namespace numagpu
