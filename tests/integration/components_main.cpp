// The component test benches (cache, crossbar, DRAM) in one program; gtest_main runs the tests, SystemC asks
// for an sc_main it never calls here.
#include <systemc>

extern "C" int sc_main(int, char*[]) {
  return 0;
}
