// What the components of one simulated machine share besides the machine's facts: its clock, its queue of
// timed deliveries, its run health and the names of its components. The System owns one and hands it by
// reference to every component it builds (as it hands them the MachineFacts), so nothing of a machine is
// process-wide and two machines can be built in one process (each in its own SystemC kernel:
// system/fresh_kernel.hpp). A component tested alone gets a SimContext of its own from its test, and with it
// the scheduler its ports and wake-ups use.
#pragma once

#include <cstdint>

#include "common/delivery_scheduler.hpp"
#include "common/health.hpp"
#include "common/time.hpp"
#include "common/tlm_edge.hpp"
#include "common/txn.hpp"

namespace numagpu {

struct SimContext {
  // Builds the scheduler as a SystemC module: as the child `deliveries` of the module under construction (a
  // System, a test bench), or at the top level. The context is made before the components that use it.
  explicit SimContext(std::uint64_t clock_mhz = 1000)
      : clock(clock_mhz), deliveries(DeliveryScheduler::kChildName, clock) {}
  SimContext(const SimContext&) = delete;  // components keep references into it
  SimContext& operator=(const SimContext&) = delete;

  GpuClock clock;  // system.clock_mhz, changed at run time only by System::set_clock_mhz
  // Every arrival at a component and every component wake-up of this machine (common/delivery_scheduler.hpp).
  DeliveryScheduler deliveries;
  RunHealth health;
  ComponentNames names;
  // What the TLM edges need to judge a foreign payload, and the memory when it holds data
  // (common/tlm_edge.hpp).
  EdgeFacts edge;
};

}  // namespace numagpu
