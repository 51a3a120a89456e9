// TxnPool (common/txn.hpp): a payload taken again from the pool starts as a fresh transaction, whatever the
// last one left in it (NumaAttr::reset_for_reuse resets field by field).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "common/txn.hpp"

namespace numagpu {
namespace {

TEST(TxnPool, AReusedPayloadStartsFresh) {
  TxnPool pool;
  ComponentNames names;
  const std::uint16_t l1 = names.add("l1"), l2 = names.add("l2");
  tlm::tlm_generic_payload& first = pool.allocate(MemOp::kAtomic, 0x1000, 128);
  NumaAttr& a = attr(first);
  a.origin_socket = 3;
  a.origin_sm = 7;
  a.origin_warp = 9;
  a.home_socket = 2;
  a.kernel_id = 5;
  a.issue_cycle = 1234;
  a.issuer = Issuer::kCoherenceFlush;
  a.completed = true;
  a.arrival_port = 4;
  a.push_return_port(6);
  a.record_hop(l1);
  a.record_hop(l2);
  EXPECT_EQ(a.trail_text(names), "l1 -> l2");
  first.release();  // back to the pool (reference count 0)
  EXPECT_EQ(pool.live(), 0u);

  tlm::tlm_generic_payload& second = pool.allocate(MemOp::kRead, 0x2000, 64);
  EXPECT_EQ(&second, &first);  // the pool hands the same payload out again
  const NumaAttr& b = attr(second);
  EXPECT_EQ(b.id, 1u);  // ids count allocations: the second one
  EXPECT_EQ(b.op, MemOp::kRead);
  EXPECT_EQ(b.origin_socket, 0u);
  EXPECT_EQ(b.origin_sm, 0u);
  EXPECT_EQ(b.origin_warp, 0u);
  EXPECT_EQ(b.home_socket, 0u);
  EXPECT_EQ(b.kernel_id, 0u);
  EXPECT_EQ(b.issue_cycle, 0u);
  EXPECT_EQ(b.issuer, Issuer::kSm);
  EXPECT_FALSE(b.completed);
  EXPECT_EQ(b.arrival_port, 0u);
  EXPECT_EQ(b.trail_text(names), "(not sent)");                    // the trail is empty again
  EXPECT_THROW(attr(second).pop_return_port(), std::logic_error);  // and so is the route
  EXPECT_EQ(second.get_address(), 0x2000u);
  EXPECT_EQ(second.get_data_length(), 64u);
  EXPECT_TRUE(second.is_read());
  EXPECT_NE(second.get_data_ptr(), nullptr);
  second.release();
}

TEST(TxnPool, PayloadsOfDifferentChunksStayApart) {
  // More payloads live at once than one chunk (256) holds: each keeps its own attributes and data buffer.
  TxnPool pool;
  std::vector<tlm::tlm_generic_payload*> live;
  for (unsigned i = 0; i < 600; ++i) {
    live.push_back(&pool.allocate(MemOp::kRead, i * 128u, 128));
    attr(*live.back()).kernel_id = i;
  }
  EXPECT_EQ(pool.capacity(), 600u);
  for (unsigned i = 0; i < 600; ++i) {
    EXPECT_EQ(attr(*live[i]).kernel_id, i);
    EXPECT_EQ(attr(*live[i]).pool_slot, i);
    if (i) {
      EXPECT_NE(live[i]->get_data_ptr(), live[i - 1]->get_data_ptr());
    }
  }
  for (auto* gp : live)
    gp->release();
  EXPECT_EQ(pool.live(), 0u);
}

}  // namespace
}  // namespace numagpu
