#include "system/fresh_kernel.hpp"

#include <stdexcept>

namespace numagpu {

FreshSystemCKernel::FreshSystemCKernel() : previous_(sc_core::sc_get_curr_simcontext()) {
  // Between simulations (before the first sc_start, or after one returned) the current kernel is at rest;
  // swapping it from inside sc_start (a process or a phase callback) would pull its queues from under it.
  const sc_core::sc_status status = previous_->get_status();
  if (status != sc_core::SC_ELABORATION && status != sc_core::SC_PAUSED && status != sc_core::SC_STOPPED)
    throw std::logic_error("FreshSystemCKernel: the current SystemC kernel is inside sc_start");
  own_ = new sc_core::sc_simcontext;
  sc_core::sc_curr_simcontext = own_;
  sc_core::sc_default_global_context = own_;
}

FreshSystemCKernel::~FreshSystemCKernel() {
  sc_core::sc_curr_simcontext = previous_;
  sc_core::sc_default_global_context = previous_;
  delete own_;
}

}  // namespace numagpu
