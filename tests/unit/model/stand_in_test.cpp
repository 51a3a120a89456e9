// The TLM edge's stand-in (common/tlm_edge.hpp): a foreign payload's pooled stand-in from open_stand_in to
// close_stand_in, the one lifecycle of both edges a host's payload enters by (a component's socket, a host
// initiator's plug point).
#include <gtest/gtest.h>

#include <array>

#include "common/tlm_edge.hpp"

namespace numagpu {
namespace {

// A host's access of 8 bytes at 0x1234, its data in `bytes`.
struct HostAccess {
  std::array<unsigned char, 8> bytes{};
  tlm::tlm_generic_payload gp;
  explicit HostAccess(tlm::tlm_command command) {
    gp.set_command(command);
    gp.set_address(0x1234);
    gp.set_data_ptr(bytes.data());
    gp.set_data_length(8);
    gp.set_streaming_width(8);
  }
};

// On 128 B lines, bytes 0x1234 .. 0x123b lie in the line at 0x1200: the stand-in asks for that whole line
// (unsectored), with the access's operation, and the two point at each other until the stand-in closes, which
// returns it to its pool.
TEST(StandIn, StandsForTheForeignAccessOnItsLineUntilClosed) {
  TxnPool pool;
  const EdgeFacts facts;  // 128 B lines, unsectored, no functional memory
  HostAccess host(tlm::TLM_WRITE_COMMAND);
  tlm::tlm_generic_payload& s = open_stand_in(pool, host.gp, facts);
  EXPECT_TRUE(pool.owns(s));
  EXPECT_EQ(pool.live(), 1u);
  EXPECT_EQ(s.get_address(), 0x1200u);
  EXPECT_EQ(s.get_data_length(), 128u);
  EXPECT_EQ(attr(s).op, MemOp::kWrite);
  EXPECT_EQ(attr(s).sectors, 0u);  // the whole line
  EXPECT_EQ(attr(s).counterpart, &host.gp);
  ASSERT_NE(host.gp.get_extension<NumaAttr>(), nullptr);
  EXPECT_EQ(host.gp.get_extension<NumaAttr>()->counterpart, &s);

  EXPECT_EQ(&close_stand_in(s), &host.gp);
  EXPECT_EQ(pool.live(), 0u);
  EXPECT_EQ(host.gp.get_extension<NumaAttr>()->counterpart, nullptr);
}

// Sectored: bytes 0x34 .. 0x3b of the line are in its 32 B sector 1 (0x20 .. 0x3f): mask 0b0010.
TEST(StandIn, OnASectoredMachineAsksForTheSectorsTouched) {
  TxnPool pool;
  EdgeFacts facts;
  facts.sectored = true;
  HostAccess host(tlm::TLM_READ_COMMAND);
  tlm::tlm_generic_payload& s = open_stand_in(pool, host.gp, facts);
  EXPECT_EQ(attr(s).op, MemOp::kRead);
  EXPECT_EQ(attr(s).sectors, 0b0010u);
  close_stand_in(s);
}

// A success moves the data: the host's write lands in the functional memory, and a read of it fills the
// host's bytes.
TEST(StandIn, ASuccessfulResponseMovesTheData) {
  TxnPool pool;
  FunctionalMemory memory;
  EdgeFacts facts;
  facts.memory = &memory;
  HostAccess write(tlm::TLM_WRITE_COMMAND);
  write.bytes = {1, 2, 3, 4, 5, 6, 7, 8};
  tlm::tlm_generic_payload& w = open_stand_in(pool, write.gp, facts);
  w.set_response_status(tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(&answer_foreign(w, facts), &write.gp);
  EXPECT_EQ(write.gp.get_response_status(), tlm::TLM_OK_RESPONSE);
  close_stand_in(w);

  HostAccess read(tlm::TLM_READ_COMMAND);
  tlm::tlm_generic_payload& r = open_stand_in(pool, read.gp, facts);
  r.set_response_status(tlm::TLM_OK_RESPONSE);
  answer_foreign(r, facts);
  close_stand_in(r);
  EXPECT_EQ(read.bytes, write.bytes);
}

// An error moves nothing and reaches the host as the model answered it; so does a status the model left at
// TLM_INCOMPLETE_RESPONSE: the edge passes it on for the host's checker to see rather than turning it into
// a success (the model's targets set the status when they respond; under checks.protocol a host target
// answering without one is reported at its port, HostTargetPort).
TEST(StandIn, AnyOtherStatusReachesTheHostUnchangedAndMovesNothing) {
  TxnPool pool;
  FunctionalMemory memory;
  EdgeFacts facts;
  facts.memory = &memory;
  const unsigned char stored[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  memory.write(0x1234, stored, 8);
  for (tlm::tlm_response_status status : {tlm::TLM_ADDRESS_ERROR_RESPONSE, tlm::TLM_INCOMPLETE_RESPONSE}) {
    HostAccess read(tlm::TLM_READ_COMMAND);
    read.gp.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);  // what answer_foreign replaces
    tlm::tlm_generic_payload& r = open_stand_in(pool, read.gp, facts);
    r.set_response_status(status);
    answer_foreign(r, facts);
    close_stand_in(r);
    EXPECT_EQ(read.gp.get_response_status(), status);
    EXPECT_EQ(read.bytes, (std::array<unsigned char, 8>{})) << "status " << status;
  }
}

}  // namespace
}  // namespace numagpu
