# One definition per name in every test executable (issue 48). Two different classes of one name in two
# translation units of one executable (two `testing::Traffic` structs once did) are undefined behaviour that
# an optimised build hides by inlining and a -O0 build turned into a crash. GCC compares the types and
# declarations of all translation units when it merges their LTO bytecode and reports each mismatch (-Wodr,
# -Wlto-type-mismatch). So the test executables' objects carry their bytecode beside their machine code
# (-ffat-lto-objects; the executables still link from the machine code, -fno-lto, exactly as before) and
# one test per executable, odr_<executable>, merges its objects' bytecode with those warnings as errors.
# The merge is GCC's whole-program analysis stage alone (lto1 -fwpa, what a link with -flto runs first): it
# reads and merges the bytecode and writes it back in partitions, generating no code, about a second per
# executable. (A relocatable link, -flto -r, would do the same through the driver, but GCC 12 crashes
# writing its output for some of the objects.)
# Coverage: every executable under tests/, its own objects (the tests and the helpers they include), not
# the libraries it links (the model's objects are built without bytecode). GCC only; other compilers skip,
# and so does the sanitizer build (the Release suite runs the check; docs/reliability.md).
option(NUMAGPU_CHECK_ODR "Check the test executables for one-definition-rule violations (GCC, ctest odr_*)" ON)

if(NUMAGPU_CHECK_ODR AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT NUMAGPU_SANITIZE)
  execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-prog-name=lto1 OUTPUT_VARIABLE _lto1
                  OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT IS_ABSOLUTE "${_lto1}" OR NOT EXISTS "${_lto1}")
    message(STATUS "numagpu: GCC's lto1 not found, the one-definition check (odr_*) is left out")
    return()
  endif()
  set(_odr_dir ${PROJECT_BINARY_DIR}/odr)

  # The test odr_<name>: the bytecode of `target`'s objects merged, an ODR mismatch an error.
  function(numagpu_odr_test name target)
    target_compile_options(${target} PRIVATE -flto -ffat-lto-objects)
    set(objects ${_odr_dir}/${name}.objects)  # a response file: the list can be long
    file(GENERATE OUTPUT ${objects} CONTENT "$<JOIN:$<TARGET_OBJECTS:${target}>,\n>\n")
    add_test(NAME odr_${name}
             COMMAND ${_lto1} -quiet -fwpa -flinker-output=exec -Wodr -Werror=odr -Werror=lto-type-mismatch
                     -flto-partition=one -dumpbase ${_odr_dir}/${name}
                     -fltrans-output-list=${_odr_dir}/${name}.partitions
                     @${objects})
    set_tests_properties(odr_${name} PROPERTIES LABELS unit TIMEOUT 60)
  endfunction()

  include(${CMAKE_CURRENT_LIST_DIR}/Executables.cmake)
  numagpu_executables(${PROJECT_SOURCE_DIR}/tests _test_executables)
  foreach(t ${_test_executables})
    # A CUDA program's objects come from numagpu-cc (clang): no GCC bytecode to merge (NumagpuCuda.cmake).
    get_target_property(_cuda_objects ${t} NUMAGPU_CUDA_OBJECTS)
    if(_cuda_objects)
      continue()
    endif()
    numagpu_odr_test(${t} ${t})
    target_link_options(${t} PRIVATE -fno-lto)
  endforeach()

  # The check's own test: two translation units of tests/odr/ that define one struct twice must be reported.
  add_library(numagpu_odr_probe OBJECT ${PROJECT_SOURCE_DIR}/tests/odr/probe_one.cpp
                                       ${PROJECT_SOURCE_DIR}/tests/odr/probe_two.cpp)
  numagpu_odr_test(check_reports_a_violation numagpu_odr_probe)
  set_tests_properties(odr_check_reports_a_violation PROPERTIES
                       PASS_REGULAR_EXPRESSION "Shape.* violates the C\\+\\+ One Definition Rule")
endif()
