// Writes Verilator's coverage counters from inside a `--binary` simulation. Verilator 5.006's generated
// main() does not write them, so the testbenches call this DPI-C function from a `final` block when
// +coverage=FILE is given (tb/sv/*_tb.sv). Linked only into Verilator builds with --coverage.
#include "verilated.h"
#include "verilated_cov.h"

extern "C" void numagpu_coverage_write(const char* file) {
  Verilated::threadContextp()->coveragep()->write(file);
}
