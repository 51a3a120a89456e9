// Idle time for free (docs/performance.md): which cycles of a policy block stepped cycle by cycle can be
// skipped in closed form, told from the block's inputs and outputs alone, so that the same driver code serves
// the C++ reference and the Verilated RTL. Two cases:
//
// - Whole windows, in the quiet fixed point: the block has just decided "none" (decision_valid with
//   decision kNone, which also means no lane is turning) at the end of a window in which every input was
//   quiet. From there, whole windows of quiet inputs change nothing but the decision count
//   (PolicyImpl::skip_quiet_windows).
// - Quiet cycles inside a window: with no turn in progress and no decision pulse showing
//   (Block::quiet_cycles_skippable), cycles of quiet inputs before the window's last cycle only advance the
//   window position (PolicyImpl::skip_quiet_cycles). The window's last cycle, where the block decides, is
//   always stepped.
//
// Where the windows end is known from the steps: a window ends `window` cycles after the cycle that decided
// or launched, and the first one at cycle window-1. Plain C++.
#pragma once

#include <algorithm>
#include <cstdint>

namespace numagpu::policy {

template <class Block>
class QuietWindows {
 public:
  explicit QuietWindows(std::uint64_t window = 1) : window_(window), window_end_(window - 1) {}

  // After stepping cycle `c`: were its inputs quiet (no launch, nothing busy, no request), was it a kernel
  // launch, and the block's outputs now.
  void stepped(std::uint64_t c, bool quiet_inputs, bool launch, const typename Block::Outputs& out) {
    window_quiet_ = window_quiet_ && quiet_inputs;
    // A launch restarts the window (the next cycle is its first), as does a decision.
    if (launch || out.decision_valid) window_end_ = c + window_;
    if (out.decision_valid) {
      at_fixed_point_ = window_quiet_ && out.decision == Block::Decision::kNone;
      window_quiet_ = true;  // a new window starts
    } else {
      at_fixed_point_ = false;
    }
    skippable_ = Block::quiet_cycles_skippable(out);
  }
  // At the first cycle of a window, in the fixed point: whole quiet windows may be skipped from here (and
  // after skipping, this still holds).
  bool at_fixed_point() const { return at_fixed_point_; }

  // In the fixed point at cycle `c`, with every input quiet until `quiet_end`: skips the whole windows
  // before quiet_end in `impl` (a PolicyImpl) and returns the cycle reached (a window start, <= quiet_end).
  template <class Impl>
  std::uint64_t skip(std::uint64_t c, std::uint64_t quiet_end, Impl& impl) {
    const std::uint64_t windows = (quiet_end - c) / window_;
    if (windows == 0) return c;
    impl.skip_quiet_windows(windows);
    skipped_ += windows;
    window_end_ += windows * window_;
    return c + windows * window_;
  }

  // At cycle `c` (the next to step), with every input quiet until `quiet_end`: skips the quiet cycles before
  // quiet_end and before the window's last cycle, if the block allows it now, and returns the cycle reached.
  template <class Impl>
  std::uint64_t skip_cycles(std::uint64_t c, std::uint64_t quiet_end, Impl& impl) {
    if (!skippable_) return c;
    const std::uint64_t end = std::min(quiet_end, window_end_);
    if (end <= c) return c;
    impl.skip_quiet_cycles(end - c);
    cycles_skipped_ += end - c;
    return end;
  }

  // Windows and in-window cycles skipped so far (numagpu run --bench).
  std::uint64_t skipped() const { return skipped_; }
  std::uint64_t cycles_skipped() const { return cycles_skipped_; }

 private:
  std::uint64_t window_;
  std::uint64_t window_end_;   // the cycle in which the current window decides
  bool window_quiet_ = false;  // the window before the first decision is not known to be whole
  bool at_fixed_point_ = false;
  bool skippable_ = false;  // the outputs allow skipping quiet cycles
  std::uint64_t skipped_ = 0;
  std::uint64_t cycles_skipped_ = 0;
};

}  // namespace numagpu::policy
