// Port groups: a keyed retry grants held requests in round-robin order and stops at the first refusal
// (InputOwner::wait_key): an owner whose answer depends on the key alone would refuse the rest too. The
// round-robin starts after the port granted last and stays put when a retry grants nothing.
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "common/ports.hpp"
#include "common/sim_context.hpp"
#include "common/txn.hpp"

namespace numagpu {
namespace {

// Three initiators bound to one target whose owner takes `room` requests; every request waits on key 0.
// The test drives it with timed steps through the delivery scheduler they share.
struct Bench : sc_core::sc_module, InputOwner, OutputOwner {
  struct Step : Deliverable {
    std::function<void()> run;
    void deliver(tlm::tlm_generic_payload*) override { run(); }
  };

  SimContext ctx;  // made first: the ports use its delivery scheduler
  RequestOutputs a{"a", ctx, *this}, b{"b", ctx, *this}, c{"c", ctx, *this};
  RequestInputs in{"in", ctx, *this, 0};
  TxnPool pool;
  std::vector<std::unique_ptr<Step>> steps;
  unsigned room = 0;
  std::vector<std::string> asked;     // try_accept calls, by request (its line number)
  std::vector<std::string> accepted;  // on_request calls, in order

  explicit Bench(const sc_core::sc_module_name& n) : sc_module(n) {
    bind_direct(a, in);  // target ports 0, 1, 2
    bind_direct(b, in);
    bind_direct(c, in);
  }
  void at(std::uint64_t ns, std::function<void()> run) {
    steps.push_back(std::make_unique<Step>());
    steps.back()->run = std::move(run);
    ctx.deliveries.schedule(ns * 1000, *steps.back(), nullptr);
  }
  static std::string line(const Payload& gp) { return std::to_string(gp.get_address() / 128); }

  bool try_accept(unsigned, Payload& gp) override {
    asked.push_back(line(gp));
    if (room == 0) return false;
    --room;
    return true;
  }
  void on_request(unsigned, Payload& gp) override {
    accepted.push_back(line(gp));
    gp.release();
  }
  void on_response(unsigned, Payload&) override {}
};

using Lines = std::vector<std::string>;

TEST(KeyedRetry, GrantsInRoundRobinOrderAndStopsAtTheFirstRefusal) {
  Bench bench("bench");
  bench.at(10, [&] {  // lines 1, 2, 3 from a, b, c: all refused and held
    bench.a.send(0, bench.pool.allocate(MemOp::kRead, 1 * 128, 128), sc_core::SC_ZERO_TIME);
    bench.b.send(0, bench.pool.allocate(MemOp::kRead, 2 * 128, 128), sc_core::SC_ZERO_TIME);
    bench.c.send(0, bench.pool.allocate(MemOp::kRead, 3 * 128, 128), sc_core::SC_ZERO_TIME);
  });
  bench.at(20, [&] {
    bench.asked.clear();
    bench.room = 1;
    // The retry starts at port 0 (first retry): line 1 is taken, line 2 refused; line 3 is not asked again.
    bench.in.retry_blocked(0);
    EXPECT_EQ(bench.asked, (Lines{"1", "2"}));
    EXPECT_EQ(bench.in.held_requests(), 2u);
  });
  bench.at(30, [&] {
    bench.asked.clear();
    bench.room = 2;
    // The round-robin start moved to port 1: lines 2 and 3 are taken, nothing is left to refuse.
    bench.in.retry_blocked(0);
    EXPECT_EQ(bench.asked, (Lines{"2", "3"}));
    EXPECT_EQ(bench.in.held_requests(), 0u);
  });
  sc_core::sc_start();
  EXPECT_EQ(bench.accepted, (Lines{"1", "2", "3"}));
}

// A grant sequence derived by hand. Ports 0, 1, 2 are a, b, c; `start` is where the next retry begins.
//  t10 a, b, c send lines 1, 2, 3: all held.                       start 0
//  t20 room 1: port 0 (line 1) granted, port 1 (line 2) refused.     start 1 (after port 0)
//  t30 a sends line 4 (held); room 1: port 1 (2) granted, port 2 (3) refused.  start 2
//  t40 room 0: port 2 (3) refused, nothing granted.                  start stays 2
//  t50 room 1: port 2 (3) granted, then port 0 (4) refused.          start 0
//      (a start that moved by one per retry would be at 0 here and grant line 4 before line 3.)
//  t60 room 1: port 0 (4) granted.                                    start 1
//  t70 c sends 6, a sends 7 (both held; port 1 holds nothing).
//  t80 room 1: port 1 is skipped, port 2 (6) granted, port 0 (7) refused.  start 0
//  t90 room 1: port 0 (7) granted.
TEST(RoundRobin, StartsAfterThePortGrantedLastAndStaysWhenNothingIsGranted) {
  Bench bench("bench");
  auto send = [&](RequestOutputs& from, std::uint64_t line) {
    from.send(0, bench.pool.allocate(MemOp::kRead, line * 128, 128), sc_core::SC_ZERO_TIME);
  };
  auto retry = [&](unsigned room, Lines asked) {
    bench.asked.clear();
    bench.room = room;
    bench.in.retry_blocked(0);
    EXPECT_EQ(bench.asked, asked);
  };
  bench.at(10, [&] {
    send(bench.a, 1);
    send(bench.b, 2);
    send(bench.c, 3);
  });
  bench.at(20, [&] { retry(1, {"1", "2"}); });
  bench.at(30, [&] {
    send(bench.a, 4);
    retry(1, {"2", "3"});
  });
  bench.at(40, [&] { retry(0, {"3"}); });
  bench.at(50, [&] { retry(1, {"3", "4"}); });
  bench.at(60, [&] { retry(1, {"4"}); });
  bench.at(70, [&] {
    send(bench.c, 6);
    send(bench.a, 7);
  });
  bench.at(80, [&] { retry(1, {"6", "7"}); });
  bench.at(90, [&] { retry(1, {"7"}); });
  sc_core::sc_start();
  EXPECT_EQ(bench.accepted, (Lines{"1", "2", "3", "4", "6", "7"}));
  EXPECT_EQ(bench.in.held_requests(), 0u);
}

}  // namespace
}  // namespace numagpu
