// A fresh SystemC kernel, so that one process can build and simulate several Systems one after another.
//
// SystemC elaborates once: after the first sc_start the module hierarchy is frozen and a finished simulation
// cannot be restarted. IEEE 1666 offers no way back, but the reference implementation (2.3.x) keeps all of
// a kernel's state -- object hierarchy, processes, event queues, current time, coroutines, elaboration and
// simulation status -- in one sc_simcontext object, reached through the global pointer sc_curr_simcontext
// (sc_simcontext.h; sc_get_curr_simcontext() is an inline read of it, and sc_default_global_context is the
// same pointer kept for library code). FreshSystemCKernel points both at a new sc_simcontext for its
// lifetime, and on destruction points them back at the kernel that was current before and deletes its own.
//
// What this relies on, and the rules that follow (checked with libsystemc 2.3.4 under ASan/UBSan/LSan by
// tests/integration/system_test.cpp, FreshKernel.*):
//  - Every sc_object and sc_event remembers the kernel it was created in and unregisters from that kernel
//    when destroyed. So everything built while a FreshSystemCKernel is current must be destroyed before it:
//    declare the kernel before the System (and anything else SystemC) in the same scope.
//  - Kernels nest like scopes: destroy them in the reverse order of construction.
//  - The kernel the process started with is never deleted: libsystemc's own static sc_events are registered
//    with it and unregister at exit (deleting it crashes the process at exit). This is why the old kernel
//    is restored rather than replaced.
//  - A few library globals outlive a kernel and are harmless here: the last-created-process pointer
//    (overwritten by each new process), the coroutine package's instance count (balanced by the deletion),
//    and sc_report_handler's counts and actions (process-wide, as before). Time resolution is per kernel and
//    starts at SystemC's default again, which is the one numagpu uses (docs/architecture.md, "Time and
//    cost").
//  - Not from inside sc_start (a process or a phase callback): the constructor throws there.
#pragma once

#include <systemc>

namespace numagpu {

class FreshSystemCKernel {
 public:
  FreshSystemCKernel();
  ~FreshSystemCKernel();
  FreshSystemCKernel(const FreshSystemCKernel&) = delete;
  FreshSystemCKernel& operator=(const FreshSystemCKernel&) = delete;

 private:
  sc_core::sc_simcontext* previous_;
  sc_core::sc_simcontext* own_;
};

}  // namespace numagpu
