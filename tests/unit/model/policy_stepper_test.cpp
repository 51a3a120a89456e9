// PolicyStepper (policy/policy_stepper.hpp): the one catch-up loop Link and PartitionDriver drive their
// policy blocks with. A scripted toy block whose every step and skip is logged shows, by hand, which cycles
// the stepper steps and which it skips; then random sparse traffic, caught up at random moments, must give
// the owner exactly the outputs that stepping every cycle gives.
#include <cstdint>
#include <memory>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "policy/policy_impl.hpp"
#include "policy/policy_stepper.hpp"

namespace numagpu::policy {
namespace {

// A toy policy block with the contract of the real ones (docs/policies.md), small enough to predict: windows
// of `window` cycles; at the window's last cycle it decides kSome when a cycle of the window was busy (and
// outputs how many), else kNone, with a one-cycle decision pulse. A launch restarts the window: the next
// cycle is position 0.
struct Toy {
  struct Inputs {
    bool kernel_launch = false;
    bool busy = false;
  };
  enum class Decision : std::uint8_t { kNone = 0, kSome = 1 };
  struct Outputs {
    std::uint32_t count = 0;  // busy cycles of the last window
    bool decision_valid = false;
    Decision decision = Decision::kNone;
    friend bool operator==(const Outputs& a, const Outputs& b) {
      return a.count == b.count && a.decision_valid == b.decision_valid && a.decision == b.decision;
    }
  };
  static bool quiet_cycles_skippable(const Outputs& out) { return !out.decision_valid; }
  static bool quiet_inputs(const Inputs& in) { return !in.kernel_launch && !in.busy; }
};

// The toy behind PolicyImpl, logging "s<cycle>" per step (its own cycle count), "c<n>" per in-window skip and
// "w<n>" per skip of whole windows, and checking the skips' preconditions as the real blocks do.
class ToyImpl final : public PolicyImpl<Toy> {
 public:
  explicit ToyImpl(std::uint64_t window, std::vector<std::string>* log = nullptr)
      : window_(window), log_(log) {}

  Outputs step(const Inputs& in) override {
    if (log_) log_->push_back("s" + std::to_string(cycle_));
    ++cycle_;
    out_.decision_valid = false;
    if (in.kernel_launch) {
      pos_ = 0;
      busy_ = 0;
      out_ = Outputs{};
      fixed_point_ = false;
      return out_;
    }
    busy_ += in.busy;
    window_quiet_ = window_quiet_ && !in.busy;
    if (++pos_ == window_) {
      out_.count = busy_;
      out_.decision = busy_ ? Toy::Decision::kSome : Toy::Decision::kNone;
      out_.decision_valid = true;
      fixed_point_ = window_quiet_ && busy_ == 0;
      ++decisions_;
      pos_ = 0;
      busy_ = 0;
      window_quiet_ = true;
    } else {
      fixed_point_ = false;
    }
    return out_;
  }
  Outputs outputs() const override { return out_; }
  std::uint64_t decisions() const override { return decisions_; }
  std::uint64_t window_cycles() const override { return window_; }
  void skip_quiet_windows(std::uint64_t windows) override {
    if (!fixed_point_ || pos_ != 0) throw std::logic_error("skip_quiet_windows outside the fixed point");
    if (log_) log_->push_back("w" + std::to_string(windows));
    cycle_ += windows * window_;
    decisions_ += windows;
  }
  void skip_quiet_cycles(std::uint64_t cycles) override {
    if (!Toy::quiet_cycles_skippable(out_) || pos_ + cycles >= window_)
      throw std::logic_error("skip_quiet_cycles over a pulse or a window end");
    if (log_) log_->push_back("c" + std::to_string(cycles));
    cycle_ += cycles;
    pos_ += cycles;
  }
  std::uint64_t cycle() const { return cycle_; }

 private:
  std::uint64_t window_;
  std::vector<std::string>* log_;
  std::uint64_t cycle_ = 0;  // cycles stepped or skipped
  std::uint64_t pos_ = 0;
  std::uint32_t busy_ = 0;
  bool window_quiet_ = false;  // as QuietWindows: the first window is not known to be whole
  bool fixed_point_ = false;
  std::uint64_t decisions_ = 0;
  Outputs out_;
};

// An owner with its busy cycles known in advance, as a link knows its booked packets. It records every
// change of what it acts on (the count and the decision held; not the one-cycle decision pulse, which a
// skipped window does not show: like a link's lanes or a socket's way split), with the cycle from which the
// change holds.
struct ToyOwner {
  std::set<std::uint64_t> busy;
  std::uint64_t conservative_from = ~std::uint64_t{0};  // from this cycle on quiet_until answers `c` (unsure)
  struct Change {
    std::uint64_t cycle;
    Toy::Outputs out;
    friend bool operator==(const Change& a, const Change& b) { return a.cycle == b.cycle && a.out == b.out; }
  };
  std::vector<Change> changes;
  Toy::Outputs last;
  std::uint64_t last_input_cycle = 0;
  bool any_input = false;

  std::uint64_t quiet_until(std::uint64_t c, std::uint64_t until) const {
    if (c >= conservative_from) return c;
    const auto it = busy.lower_bound(c);
    return it == busy.end() ? until : std::min<std::uint64_t>(*it, until);
  }
  Toy::Inputs inputs_of(std::uint64_t c) {
    EXPECT_TRUE(!any_input || c > last_input_cycle) << "inputs asked out of order at " << c;
    any_input = true;
    last_input_cycle = c;
    Toy::Inputs in;
    in.busy = busy.count(c) != 0;
    in.kernel_launch = true;  // the stepper decides the strobe: this must be overwritten
    return in;
  }
  void take_outputs(std::uint64_t c, const Toy::Outputs& out) {
    ++taken;
    Toy::Outputs held = out;
    held.decision_valid = false;
    if (held == last) return;
    changes.push_back({c + 1, held});
    last = held;
  }
  std::uint64_t taken = 0;  // take_outputs calls: one per stepped cycle
};

// Hand-derived (window 4): which cycles are stepped and which skipped. A cycle must be stepped when the
// outputs show a decision pulse (the block forbids an in-window skip then), at a window's last cycle, at a
// busy cycle and at a launch; quiet cycles between are skipped, up to the window's last cycle; whole windows
// are skipped only from the quiet fixed point (a quiet window that decided none, not the first window).
TEST(PolicyStepper, StepsWhatMustBeSteppedAndSkipsTheRest) {
  std::vector<std::string> log;
  auto impl = std::make_unique<ToyImpl>(4, &log);
  const ToyImpl& toy = *impl;
  PolicyStepper<Toy> stepper(std::move(impl));
  ToyOwner owner;
  owner.busy = {9};

  stepper.catch_up(16, owner);
  // 0: nothing known yet, stepped; 1-2 skipped; 3 window end (none, first window: no fixed point); 4 pulse;
  // 5-6 skipped; 7 window end (none, quiet window: fixed point); 8 pulse (less than a window quiet ahead);
  // 9 busy; 10 skipped; 11 window end (kSome, count 1); 12 pulse; 13-14 skipped; 15 window end (none,
  // fixed point again).
  EXPECT_EQ(log, (std::vector<std::string>{"s0", "c2", "s3", "s4", "c2", "s7", "s8", "s9", "c1", "s11", "s12",
                                           "c2", "s15"}));
  EXPECT_EQ(stepper.stepped(), 16u);
  EXPECT_EQ(toy.decisions(), 4u);
  EXPECT_EQ(owner.taken, 9u);  // one per stepped cycle
  // The decision of the busy window holds from the cycle after its end, the next one's too.
  ASSERT_EQ(owner.changes.size(), 2u);
  EXPECT_EQ(owner.changes[0].cycle, 12u);
  EXPECT_EQ(owner.changes[0].out.count, 1u);
  EXPECT_EQ(owner.changes[0].out.decision, Toy::Decision::kSome);
  EXPECT_EQ(owner.changes[1].cycle, 16u);
  EXPECT_EQ(owner.changes[1].out.count, 0u);
  EXPECT_EQ(owner.changes[1].out.decision, Toy::Decision::kNone);

  // Quiet from the fixed point at 16 up to 40: six whole windows skipped at once, and nothing else.
  log.clear();
  stepper.catch_up(40, owner);
  EXPECT_EQ(log, (std::vector<std::string>{"w6"}));
  EXPECT_EQ(stepper.stepped(), 40u);
  EXPECT_EQ(toy.decisions(), 10u);

  // Less than a window to go, quiet: nothing is stepped yet, the cycles wait for what follows them.
  log.clear();
  stepper.kernel_launch(42, owner);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(stepper.stepped(), 40u);

  // 40 pulse (from the skipped windows' last decision); 41 skipped; 42 the launch (window restarts: its end
  // is 46); 43-45 skipped; 46 window end (none; the launch cycle was not quiet: no fixed point); 47 pulse;
  // 48-49 skipped, reaching `until`.
  stepper.catch_up(50, owner);
  EXPECT_EQ(log, (std::vector<std::string>{"s40", "c1", "s42", "c3", "s46", "s47", "c2"}));
  EXPECT_EQ(stepper.stepped(), 50u);
  EXPECT_EQ(toy.cycle(), 50u);
  EXPECT_EQ(owner.taken, 9u + 4u);
  EXPECT_EQ(owner.changes.size(), 2u);  // the launch and the decision at 46 leave count 0 and none
  EXPECT_EQ(toy.decisions(), 11u);
}

// The owner decides the inputs, the stepper the launch strobe: an owner that claims a launch gets none.
TEST(PolicyStepper, OnlyTheStepperSetsTheLaunchStrobe) {
  std::vector<std::string> log;
  PolicyStepper<Toy> stepper(std::make_unique<ToyImpl>(4, &log));
  ToyOwner owner;
  owner.busy = {0, 1, 2, 3};
  stepper.catch_up(4, owner);
  EXPECT_EQ(stepper.impl().outputs().count, 4u);  // no launch cleared the count
  EXPECT_EQ(stepper.impl().decisions(), 1u);
}

// An owner unsure of its inputs (quiet_until answers `c`) gets every cycle stepped.
TEST(PolicyStepper, AnUnsureOwnerGetsEveryCycleStepped) {
  std::vector<std::string> log;
  PolicyStepper<Toy> stepper(std::make_unique<ToyImpl>(4, &log));
  ToyOwner owner;
  owner.conservative_from = 0;
  stepper.catch_up(12, owner);
  ASSERT_EQ(log.size(), 12u);
  for (std::size_t c = 0; c < log.size(); ++c)
    EXPECT_EQ(log[c], "s" + std::to_string(c));
}

// step_every_cycle (debug.step_idle_windows) steps every cycle even in the fixed point.
TEST(PolicyStepper, StepEveryCycleNeverSkips) {
  std::vector<std::string> log;
  PolicyStepper<Toy> stepper(std::make_unique<ToyImpl>(4, &log));
  stepper.step_every_cycle();
  ToyOwner owner;
  stepper.catch_up(100, owner);
  EXPECT_EQ(log.size(), 100u);
  EXPECT_EQ(stepper.quiet_windows_skipped(), 0u);
  EXPECT_EQ(stepper.quiet_cycles_skipped(), 0u);
}

// Skipping equals stepping: sparse busy cycles and launches, caught up at random moments (as the simulator
// does, whenever a packet is booked or a sample is taken), give the owner the same changes at the same
// cycles, and the block the same decisions, as stepping every cycle.
TEST(PolicyStepper, SkippingEqualsSteppingUnderRandomCatchUps) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    std::mt19937_64 rng(seed);
    const std::uint64_t window = 1 + rng() % 12;
    const std::uint64_t cycles = 3000;
    ToyOwner skipping_owner, stepping_owner;
    std::vector<std::uint64_t> launches;
    for (std::uint64_t c = rng() % 50; c < cycles; c += 1 + rng() % 200) {
      if (rng() % 6 == 0) {
        launches.push_back(c);
      } else {
        const std::uint64_t len = 1 + rng() % 8;
        for (std::uint64_t k = 0; k < len; ++k)
          skipping_owner.busy.insert(c + k);
      }
    }
    stepping_owner.busy = skipping_owner.busy;
    PolicyStepper<Toy> skipping(std::make_unique<ToyImpl>(window));
    PolicyStepper<Toy> stepping(std::make_unique<ToyImpl>(window));
    stepping.step_every_cycle();

    std::uint64_t now = 0;
    std::size_t next_launch = 0;
    while (now < cycles) {
      now = std::min(cycles, now + rng() % 60);
      while (next_launch < launches.size() && launches[next_launch] <= now) {
        const std::uint64_t at = launches[next_launch++];
        skipping.kernel_launch(at, skipping_owner);
        stepping.kernel_launch(at, stepping_owner);
      }
      skipping.catch_up(now, skipping_owner);
      stepping.catch_up(now, stepping_owner);
    }
    // The skipping stepper may leave less than a window unstepped at the end: step both to a common point
    // past it by asking for one more window with a busy cycle at its start (never skipped).
    skipping_owner.busy.insert(cycles);
    stepping_owner.busy.insert(cycles);
    skipping.catch_up(cycles + window + 1, skipping_owner);
    stepping.catch_up(cycles + window + 1, stepping_owner);

    EXPECT_EQ(skipping_owner.changes, stepping_owner.changes) << "seed " << seed << ", window " << window;
    EXPECT_EQ(skipping.impl().decisions(), stepping.impl().decisions()) << "seed " << seed;
    EXPECT_EQ(skipping.impl().outputs(), stepping.impl().outputs()) << "seed " << seed;
    EXPECT_GT(skipping.quiet_cycles_skipped() + skipping.quiet_windows_skipped(), 0u) << "seed " << seed;
  }
}

}  // namespace
}  // namespace numagpu::policy
