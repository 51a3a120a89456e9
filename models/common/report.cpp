#include "common/report.hpp"

#include <stdexcept>

#include <systemc>

namespace numagpu::report {

void fail(const char* type, const std::string& message, const char* file, int line) {
  sc_core::sc_report_handler::report(sc_core::SC_ERROR, type, message.c_str(), file, line);
  throw std::runtime_error(std::string(type) + ": " + message);
}

void warn(const char* type, const std::string& message, const char* file, int line) {
  sc_core::sc_report_handler::report(sc_core::SC_WARNING, type, message.c_str(), file, line);
}

void leave_run_reports_to_the_caller() {
  for (const char* type : {kProtocol, kAudit, kWatchdog})
    sc_core::sc_report_handler::set_actions(type, sc_core::SC_WARNING, sc_core::SC_DO_NOTHING);
}

}  // namespace numagpu::report
