// When a policy block stepped cycle by cycle has reached its quiet fixed point, told from its inputs and
// outputs alone, so that the same driver code serves the C++ reference and the Verilated RTL: the block has
// just decided "none" (decision_valid with decision kNone, which also means no lane is turning) at the end
// of a window in which every input was quiet. From there, whole windows of quiet inputs change nothing but
// the decision count (PolicyImpl::skip_quiet_windows), so a driver that knows its inputs stay quiet for k
// windows skips them in one call. Plain C++.
#pragma once

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

 private:
  bool window_quiet_ = false;  // the window before the first decision is not known to be whole
  bool at_fixed_point_ = false;
};

}  // namespace numagpu::policy
