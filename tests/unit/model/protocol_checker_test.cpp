// The protocol checker between a scripted initiator and a scripted target. Each test makes nb_transport calls
// directly (after elaboration) and asserts the violation the checker must report, or none.
#include "common/protocol_checker.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/health.hpp"
#include "common/txn.hpp"

namespace numagpu {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;
using Fn = std::function<tlm::tlm_sync_enum(tlm::tlm_generic_payload&, tlm::tlm_phase&, sc_time&)>;

struct Harness : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Harness> init{"init"};
  tlm_utils::simple_target_socket<Harness> targ{"targ"};
  RunHealth health;
  ProtocolChecker checker{"checker", health};
  Fn target_fw = [](auto&, auto&, auto&) { return tlm::TLM_ACCEPTED; };
  Fn initiator_bw = [](auto&, auto&, auto&) { return tlm::TLM_ACCEPTED; };

  explicit Harness(const sc_core::sc_module_name& n) : sc_module(n) {
    init.register_nb_transport_bw(this, &Harness::bw);
    targ.register_nb_transport_fw(this, &Harness::fw);
    init.bind(checker.target);
    checker.initiator.bind(targ);
  }
  tlm::tlm_sync_enum fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& p, sc_time& d) {
    return target_fw(gp, p, d);
  }
  tlm::tlm_sync_enum bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase& p, sc_time& d) {
    return initiator_bw(gp, p, d);
  }

  tlm::tlm_sync_enum send_fw(tlm::tlm_generic_payload& gp, tlm::tlm_phase p,
                             sc_time d = sc_core::SC_ZERO_TIME) {
    return init->nb_transport_fw(gp, p, d);
  }
  tlm::tlm_sync_enum send_bw(tlm::tlm_generic_payload& gp, tlm::tlm_phase p,
                             sc_time d = sc_core::SC_ZERO_TIME) {
    return targ->nb_transport_bw(gp, p, d);
  }
};

class ProtocolCheckerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: bind the sockets
  }
  bool reported(const std::string& text) const {
    for (const auto& m : h.health.messages(RunHealth::Kind::kProtocol)) {
      if (m.find(text) != std::string::npos) return true;
    }
    return false;
  }
  std::uint64_t violations() const { return h.health.count(RunHealth::Kind::kProtocol); }

  Harness h{"h"};
  TxnPool pool;
};

TEST_F(ProtocolCheckerTest, LegalFourPhaseSequenceHasNoViolation) {
  auto& gp = pool.allocate(MemOp::kRead, 0x80, 128);
  EXPECT_EQ(h.send_fw(gp, tlm::BEGIN_REQ), tlm::TLM_ACCEPTED);
  EXPECT_EQ(h.send_bw(gp, tlm::END_REQ), tlm::TLM_ACCEPTED);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(h.send_bw(gp, tlm::BEGIN_RESP, sc_time(5, SC_NS)), tlm::TLM_ACCEPTED);
  h.target_fw = [](auto&, auto&, auto&) { return tlm::TLM_COMPLETED; };
  EXPECT_EQ(h.send_fw(gp, tlm::END_RESP, sc_time(5, SC_NS)), tlm::TLM_COMPLETED);
  EXPECT_EQ(violations(), 0u);
  EXPECT_EQ(h.checker.open_transactions(), 0u);
  EXPECT_EQ(h.checker.phases_checked(), 5u);  // 4 calls + the COMPLETED return
  gp.release();
}

TEST_F(ProtocolCheckerTest, EarlyCompletionPathsAreLegal) {
  // Target ends the request phase in the return path; initiator completes the response on the return path.
  h.target_fw = [](auto&, tlm::tlm_phase& p, auto&) {
    p = tlm::END_REQ;
    return tlm::TLM_UPDATED;
  };
  h.initiator_bw = [](auto&, auto&, auto&) { return tlm::TLM_COMPLETED; };
  auto& gp = pool.allocate(MemOp::kWrite, 0x100, 128);
  EXPECT_EQ(h.send_fw(gp, tlm::BEGIN_REQ), tlm::TLM_UPDATED);
  gp.set_response_status(tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(h.send_bw(gp, tlm::BEGIN_RESP), tlm::TLM_COMPLETED);
  EXPECT_EQ(violations(), 0u);
  EXPECT_EQ(h.checker.open_transactions(), 0u);
  gp.release();
}

TEST_F(ProtocolCheckerTest, RequestExclusionRule) {
  auto& a = pool.allocate(MemOp::kRead, 0x0, 128);
  auto& b = pool.allocate(MemOp::kRead, 0x80, 128);
  h.send_fw(a, tlm::BEGIN_REQ);
  h.send_fw(b, tlm::BEGIN_REQ);  // a has not seen END_REQ
  EXPECT_EQ(violations(), 1u);
  EXPECT_TRUE(reported("BEGIN_REQ before END_REQ of the previous request (request exclusion)"));
  a.release();
  b.release();
}

TEST_F(ProtocolCheckerTest, ResponseExclusionRule) {
  auto& a = pool.allocate(MemOp::kRead, 0x0, 128);
  auto& b = pool.allocate(MemOp::kRead, 0x80, 128);
  h.send_fw(a, tlm::BEGIN_REQ);
  h.send_bw(a, tlm::END_REQ);
  h.send_fw(b, tlm::BEGIN_REQ);
  h.send_bw(b, tlm::END_REQ);
  a.set_response_status(tlm::TLM_OK_RESPONSE);
  b.set_response_status(tlm::TLM_OK_RESPONSE);
  h.send_bw(a, tlm::BEGIN_RESP);
  h.send_bw(b, tlm::BEGIN_RESP);  // a has not seen END_RESP
  EXPECT_EQ(violations(), 1u);
  EXPECT_TRUE(reported("BEGIN_RESP before END_RESP of the previous response (response exclusion)"));
  a.release();
  b.release();
}

TEST_F(ProtocolCheckerTest, ResponseStatusMustBeSetBeforeTheResponse) {
  auto& gp = pool.allocate(MemOp::kRead, 0x0, 128);
  h.send_fw(gp, tlm::BEGIN_REQ);
  h.send_bw(gp, tlm::BEGIN_RESP);  // status still TLM_INCOMPLETE_RESPONSE
  EXPECT_TRUE(reported("BEGIN_RESP with the response status still TLM_INCOMPLETE_RESPONSE"));
  gp.release();
}

TEST_F(ProtocolCheckerTest, PhasesOnTheWrongPathOrOutOfOrder) {
  auto& gp = pool.allocate(MemOp::kRead, 0x0, 128);
  h.send_fw(gp, tlm::BEGIN_REQ);
  h.send_fw(gp, tlm::END_REQ);  // END_REQ belongs to the backward path
  EXPECT_TRUE(reported("END_REQ on the forward path"));
  h.send_fw(gp, tlm::END_RESP);  // no response yet
  EXPECT_TRUE(reported("END_RESP outside the response phase"));
  auto& other = pool.allocate(MemOp::kRead, 0x80, 128);
  h.send_bw(other, tlm::END_REQ);  // never began on this hop
  EXPECT_TRUE(reported("END_REQ for a transaction not active on this hop"));
  EXPECT_EQ(violations(), 3u);
  gp.release();
  other.release();
}

TEST_F(ProtocolCheckerTest, TimingAnnotationsMustNotGoBackwards) {
  auto& a = pool.allocate(MemOp::kRead, 0x0, 128);
  auto& b = pool.allocate(MemOp::kRead, 0x80, 128);
  h.send_fw(a, tlm::BEGIN_REQ, sc_time(10, SC_NS));
  h.send_bw(a, tlm::END_REQ, sc_time(5, SC_NS));  // earlier than a's BEGIN_REQ
  EXPECT_TRUE(reported("END_REQ earlier than the previous phase"));
  h.send_fw(b, tlm::BEGIN_REQ, sc_time(3, SC_NS));  // earlier than the previous BEGIN_REQ on this hop
  EXPECT_TRUE(reported("BEGIN_REQ annotated earlier than the previous one on this hop"));
  EXPECT_EQ(violations(), 2u);
  a.release();
  b.release();
}

TEST_F(ProtocolCheckerTest, PayloadsMustComeFromAMemoryManager) {
  tlm::tlm_generic_payload stack_payload;  // no memory manager
  h.send_fw(stack_payload, tlm::BEGIN_REQ);
  EXPECT_TRUE(reported("forward path: payload has no memory manager"));
}

TEST_F(ProtocolCheckerTest, PayloadWithZeroReferencesIsReported) {
  auto& gp = pool.allocate(MemOp::kRead, 0x0, 128);
  gp.release();  // back in the pool: using it now is a use-after-free in the model
  h.send_fw(gp, tlm::BEGIN_REQ);
  EXPECT_TRUE(reported("forward path: payload used with reference count 0"));
}

}  // namespace
}  // namespace numagpu

// libsystemc provides main(); gtest_main provides main() too and wins at link time, but SystemC still
// requires the symbol.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
