# -DNUMAGPU_SANITIZE=address,undefined: every target is compiled and linked with the sanitizers (see the top
# CMakeLists.txt), and every executable gets cmake/sanitizer_options.cpp, which holds the run-time options the
# simulator needs under them. Built into the programs rather than set in the environment, so a test, a
# numagpu run or a debugger session started by hand behaves exactly like ctest. docs/reliability.md explains
# each option.

include(${CMAKE_CURRENT_LIST_DIR}/Executables.cmake)
numagpu_executables(${PROJECT_SOURCE_DIR} _executables)
foreach(t ${_executables})
  target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/sanitizer_options.cpp)
endforeach()
