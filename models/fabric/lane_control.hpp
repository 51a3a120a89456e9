// What decides how a link's lanes are split between its two directions, stepped once per cycle by the link
// with that cycle's activity. StaticLanes never changes the split; the dynamic implementation wraps the link
// balancer policy (models/policy/), and the RTL-in-the-loop implementation wraps its Verilated model: all
// three see the same per-cycle inputs and drive the link through the same outputs.
#pragma once

#include <cstdint>

namespace numagpu {

struct LaneInputs {
  bool kernel_launch = false;
  bool busy[2] = {false, false};  // direction 0 (side 0 -> side 1) and 1 carried data this cycle
  bool drained = false;           // the quiescing lane, if any, carries nothing any more
};

struct LaneOutputs {
  unsigned lanes[2] = {0, 0};  // active lanes per direction
  bool quiescing = false;      // a lane has left direction `from` and is draining
  bool switching = false;      // a drained lane is turning around (carries nothing)
  int from = 0;                // direction the turning lane left (valid while quiescing or switching)
};

class LaneControl {
 public:
  virtual ~LaneControl() = default;
  // Advances one cycle; the returned outputs hold from the next cycle on.
  virtual LaneOutputs step(const LaneInputs& in) = 0;
  virtual LaneOutputs outputs() const = 0;
  // False when outputs can never change (the link then skips stepping entirely).
  virtual bool dynamic() const = 0;
  // Window decisions taken so far (activity.json); a static split takes none.
  virtual std::uint64_t decisions() const { return 0; }
};

class StaticLanes : public LaneControl {
 public:
  explicit StaticLanes(unsigned total_lanes) {
    out_.lanes[0] = total_lanes / 2;
    out_.lanes[1] = total_lanes - total_lanes / 2;
  }
  LaneOutputs step(const LaneInputs&) override { return out_; }
  LaneOutputs outputs() const override { return out_; }
  bool dynamic() const override { return false; }

 private:
  LaneOutputs out_;
};

}  // namespace numagpu
