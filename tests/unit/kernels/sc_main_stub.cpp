// libsystemc (linked through the model library) defines main() and needs an sc_main; gtest_main provides
// the main these tests run, so this one is never called.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
