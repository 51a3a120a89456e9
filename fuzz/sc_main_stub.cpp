// libsystemc, linked for the inline code of the model headers that the system schema includes, expects the
// program to define sc_main. These programs have a main() of their own (libFuzzer's, or ngt_seeds'), so it is
// never called.
extern "C" int sc_main(int, char*[]) {
  return 0;
}
