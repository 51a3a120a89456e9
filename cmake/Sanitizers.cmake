# -DNUMAGPU_SANITIZE=address,undefined: every target is compiled and linked with the sanitizers (see the top
# CMakeLists.txt), and every executable gets cmake/sanitizer_options.cpp, which holds the run-time options the
# simulator needs under them. Built into the programs rather than set in the environment, so a test, a
# numagpu run or a debugger session started by hand behaves exactly like ctest. docs/reliability.md explains
# each option.

# Adds the options file to every executable defined in `dir` and below.
function(numagpu_add_sanitizer_options dir)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t ${targets})
    get_target_property(type ${t} TYPE)
    if(type STREQUAL "EXECUTABLE")
      target_sources(${t} PRIVATE ${PROJECT_SOURCE_DIR}/cmake/sanitizer_options.cpp)
    endif()
  endforeach()
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub ${subdirs})
    numagpu_add_sanitizer_options(${sub})
  endforeach()
endfunction()

numagpu_add_sanitizer_options(${PROJECT_SOURCE_DIR})
