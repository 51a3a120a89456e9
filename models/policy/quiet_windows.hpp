// When a policy block stepped cycle by cycle has reached its quiet fixed point, told from its inputs and
// outputs alone, so that the same driver code serves the C++ reference and the Verilated RTL: the block has
// just decided "none" (decision_valid with decision kNone, which also means no lane is turning) at the end
// of a window in which every input was quiet. From there, whole windows of quiet inputs change nothing but
// the decision count (PolicyImpl::skip_quiet_windows), so a driver that knows its inputs stay quiet for k
// windows skips them in one call. Plain C++.
#pragma once

#include <cstdint>

namespace numagpu::policy {

template <class Block>
class QuietWindows {
 public:
  // After each step: were this cycle's inputs quiet (no launch, nothing busy, no request), and the block's
  // outputs now.
  void stepped(bool quiet_inputs, const typename Block::Outputs& out) {
    window_quiet_ = window_quiet_ && quiet_inputs;
    if (out.decision_valid) {
      at_fixed_point_ = window_quiet_ && out.decision == Block::Decision::kNone;
      window_quiet_ = true;  // a new window starts
    } else {
      at_fixed_point_ = false;
    }
  }
  // At the first cycle of a window, in the fixed point: whole quiet windows may be skipped from here (and
  // after skipping, this still holds).
  bool at_fixed_point() const { return at_fixed_point_; }

  // In the fixed point at cycle `c`, with every input quiet until `quiet_end`: skips the whole windows
  // before quiet_end in `impl` (a PolicyImpl) and returns the cycle reached (a window start, <= quiet_end).
  template <class Impl>
  std::uint64_t skip(std::uint64_t c, std::uint64_t quiet_end, Impl& impl) {
    const std::uint64_t window = impl.window_cycles();
    const std::uint64_t windows = (quiet_end - c) / window;
    if (windows == 0) return c;
    impl.skip_quiet_windows(windows);
    skipped_ += windows;
    return c + windows * window;
  }
  // Windows skipped so far (numagpu run --bench).
  std::uint64_t skipped() const { return skipped_; }

 private:
  bool window_quiet_ = false;  // the window before the first decision is not known to be whole
  bool at_fixed_point_ = false;
  std::uint64_t skipped_ = 0;
};

}  // namespace numagpu::policy
