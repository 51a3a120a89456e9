// Default run-time options of the sanitizers for every numagpu program built with -DNUMAGPU_SANITIZE (the
// sanitizer runtimes call these hooks at start-up; settings in ASAN_OPTIONS / UBSAN_OPTIONS still win).
// docs/reliability.md explains each choice.

// SystemC runs each SC_THREAD on a stack of its own and switches between them with QuickThreads, which does
// not tell ASan. detect_stack_use_after_return would move locals to ASan's "fake stack", tracked per real
// thread; with coroutine switches it reports false use-after-return errors, so it stays off.
// check_initialization_order and strict_init_order check our static initialization; detect_leaks reports any
// memory still allocated at exit that nothing points to.
extern "C" const char* __asan_default_options() {
  return "detect_stack_use_after_return=0:check_initialization_order=1:strict_init_order=1:detect_leaks=1:"
         "abort_on_error=0:exitcode=1";
}

// Every report is an error (the code is also compiled with -fno-sanitize-recover), with the stack it came
// from.
extern "C" const char* __ubsan_default_options() {
  return "print_stacktrace=1:halt_on_error=1";
}
