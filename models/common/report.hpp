// Errors and warnings of a machine go through SystemC's report handler (sc_core::sc_report_handler), with a
// message type per kind, so that a platform's own handler, actions and limits apply to them as to its own
// (docs/embedding.md, "Errors and warnings"). With SystemC's default actions an error throws sc_report (a
// std::exception whose what() holds the message) and a warning is printed.
#pragma once

#include <string>

namespace numagpu::report {

// The message types: one per kind of problem, so that a platform can set actions per type.
inline constexpr const char* kConfig = "numagpu/config";  // a configuration the machine cannot be built from
inline constexpr const char* kPort = "numagpu/port";      // a port or plug point: unbound, unknown, misused
inline constexpr const char* kStats = "numagpu/stats";    // statistics: names, registries
// What a run finds wrong (RunHealth, common/health.hpp): warnings, the run goes on and the System is then
// not healthy(). A platform that wants one to stop the simulation sets its actions (SC_STOP, SC_THROW).
inline constexpr const char* kProtocol = "numagpu/protocol";  // a TLM protocol violation at a hop
inline constexpr const char* kAudit = "numagpu/audit";        // a transaction lost or completed twice
inline constexpr const char* kWatchdog = "numagpu/watchdog";  // no progress for checks.watchdog_cycles

// For a program that prints the run's reports itself (RunHealth::set_echo): the handler does nothing with
// the run's warnings (process-wide, as SystemC's report actions are).
void leave_run_reports_to_the_caller();

// An error after which the caller cannot go on. Reported as SC_ERROR; if the handler returns (a platform
// that set the action to log only), the same message is then thrown as std::runtime_error. The report's
// file and line are the caller's, as SC_REPORT_ERROR's are.
[[noreturn]] void fail(const char* type, const std::string& message, const char* file = __builtin_FILE(),
                       int line = __builtin_LINE());
// A warning (SC_WARNING): the run goes on.
void warn(const char* type, const std::string& message, const char* file = __builtin_FILE(),
          int line = __builtin_LINE());

}  // namespace numagpu::report
