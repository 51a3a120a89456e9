# The verification kit around the RTL policy blocks (docs/rtl.md, "Verification kit"): the C++ reference
# models as a DPI-C shared library with a SystemVerilog package, SystemVerilog testbenches that use it as
# scoreboard under Verilator (--binary --timing), vector files of the lockstep stimulus replayed on Icarus
# Verilog and Verilator, Python bindings, and the merged coverage report. Included from cmake/Rtl.cmake
# (after Verilator was found); every test here is labelled `rtl`.

set(NUMAGPU_TB_DIR ${PROJECT_SOURCE_DIR}/tb)
set(NUMAGPU_SV_BUILD_DIR ${CMAKE_CURRENT_BINARY_DIR}/sv_tb)

# The DPI-C scoreboard library (numagpu_policy_dpi) is defined in tb/CMakeLists.txt, with the kit's install rules.

# --- Vector files: the lockstep stimulus with the reference's outputs ------------------------------------------
add_executable(rtl_vectors ${NUMAGPU_TB_DIR}/vectors/rtl_vectors.cpp)
target_include_directories(rtl_vectors PRIVATE ${PROJECT_SOURCE_DIR})
# tb/lockstep.hpp includes Verilator's headers (nothing of them is linked).
target_include_directories(rtl_vectors SYSTEM PRIVATE ${VERILATOR_ROOT}/include ${VERILATOR_ROOT}/include/vltstd)
target_link_libraries(rtl_vectors PRIVATE numagpu_policy numagpu_warnings)

# --- Verilator --binary --timing testbenches -------------------------------------------------------------------
# Each is built by Verilator itself (its own make), with coverage, VCD tracing and the RTL's assertions. The
# binaries land in build/tests/sv_tb/<name>/<name>.
find_program(NUMAGPU_CCACHE ccache)
set(_sv_objcache "")
if(NUMAGPU_CCACHE)
  set(_sv_objcache OBJCACHE=${NUMAGPU_CCACHE})
endif()
file(MAKE_DIRECTORY ${NUMAGPU_SV_BUILD_DIR})

# numagpu_sv_tb(<name> <top> [DPI] SOURCES <files...> [GARGS <-G...>])
function(numagpu_sv_tb name top)
  cmake_parse_arguments(A "DPI" "" "SOURCES;GARGS" ${ARGN})
  set(dir ${NUMAGPU_SV_BUILD_DIR}/${name})
  set(libs "")
  set(deps ${A_SOURCES} ${NUMAGPU_RTL_DIR}/numagpu_assert.svh ${NUMAGPU_TB_DIR}/sv/verilator_coverage_write.cpp)
  if(A_DPI)
    set(libs $<TARGET_FILE:numagpu_policy_dpi> -LDFLAGS -Wl,-rpath,$<TARGET_FILE_DIR:numagpu_policy_dpi>)
    list(APPEND deps numagpu_policy_dpi)
  endif()
  # Verilator's build output goes to <name>.build.log, shown only when the build fails.
  set(cmd ${VERILATOR_BIN} --binary --timing -j 1 --coverage --trace --assert +define+NUMAGPU_ASSERTIONS
          -I${NUMAGPU_RTL_DIR} --top-module ${top} ${A_GARGS} --Mdir ${dir} -o ${name}
          ${A_SOURCES} ${NUMAGPU_TB_DIR}/sv/verilator_coverage_write.cpp ${libs})
  list(JOIN cmd " " cmd)
  add_custom_command(
    OUTPUT ${dir}/${name}
    COMMAND ${CMAKE_COMMAND} -E env ${_sv_objcache}
            sh -c "${cmd} > ${dir}.build.log 2>&1 || { cat ${dir}.build.log; exit 1; }"
    DEPENDS ${deps}
    COMMENT "Verilating ${name} (--binary --timing)"
    VERBATIM)
  add_custom_target(${name} ALL DEPENDS ${dir}/${name})
  set(NUMAGPU_SV_TB_${name} ${dir}/${name} PARENT_SCOPE)
endfunction()

# The DPI-C scoreboard testbenches: one per block, at parameter sets with short windows so that a CI-sized
# run takes every decision many times.
numagpu_sv_tb(sv_tb_link_balancer link_balancer_tb DPI SOURCES
  ${NUMAGPU_TB_DIR}/dpi/numagpu_policy_pkg.sv ${NUMAGPU_RTL_PRIM_SOURCES} ${NUMAGPU_RTL_DIR}/link_balancer.sv
  ${NUMAGPU_TB_DIR}/sv/link_balancer_cover.sv ${NUMAGPU_TB_DIR}/sv/link_balancer_tb.sv)
numagpu_sv_tb(sv_tb_cache_partition_ctrl cache_partition_ctrl_tb DPI SOURCES
  ${NUMAGPU_TB_DIR}/dpi/numagpu_policy_pkg.sv ${NUMAGPU_RTL_PRIM_SOURCES}
  ${NUMAGPU_RTL_DIR}/cache_partition_ctrl.sv
  ${NUMAGPU_TB_DIR}/sv/cache_partition_ctrl_cover.sv ${NUMAGPU_TB_DIR}/sv/cache_partition_ctrl_tb.sv)
# The vector replay testbenches on Verilator (Icarus builds its own at test time), at the parameter sets of
# lb_l4 and pc_w5; the coverage test replays the lockstep stimulus through them.
numagpu_sv_tb(sv_vectors_link_balancer link_balancer_vectors_tb SOURCES
  ${NUMAGPU_RTL_PRIM_SOURCES} ${NUMAGPU_RTL_DIR}/link_balancer.sv ${NUMAGPU_TB_DIR}/sv/link_balancer_cover.sv
  ${NUMAGPU_TB_DIR}/sv/link_balancer_vectors_tb.sv
  GARGS -GLanes=4 -GSampleCycles=64 -GSwitchCycles=5)
numagpu_sv_tb(sv_vectors_cache_partition_ctrl cache_partition_ctrl_vectors_tb SOURCES
  ${NUMAGPU_RTL_PRIM_SOURCES} ${NUMAGPU_RTL_DIR}/cache_partition_ctrl.sv
  ${NUMAGPU_TB_DIR}/sv/cache_partition_ctrl_cover.sv
  ${NUMAGPU_TB_DIR}/sv/cache_partition_ctrl_vectors_tb.sv
  GARGS -GWays=5 -GSampleCycles=40 -GSatNum=3 -GSatDen=4)

# DPI-C scoreboard runs: 10^6 random cycles per seed (about 15,600 windows of the link balancer, 25,000 of the
# partition controller); each binary fails on a mismatch, an assertion, or a decision code never taken.
foreach(block link_balancer cache_partition_ctrl)
  foreach(seed 1 2)
    add_test(NAME rtl_sv_dpi_${block}_seed${seed}
             COMMAND ${NUMAGPU_SV_TB_sv_tb_${block}} +cycles=1000000 +seed=${seed})
    set_tests_properties(rtl_sv_dpi_${block}_seed${seed} PROPERTIES LABELS rtl TIMEOUT 120)
  endforeach()
endforeach()

# The scoreboard can fail: the reference alone resets in cycle 5000 (launches and resets stop there). Both
# sides' windows then end at different cycles, so decision_valid_o differs at the latest when the RTL's
# current window ends: by cycle 5000 + 64 (link balancer) or 5000 + 40 (partition controller). The test
# passes when the run fails (Verilator's $fatal aborts) with that report.
foreach(block link_balancer cache_partition_ctrl)
  add_test(NAME rtl_sv_dpi_${block}_catches_divergence
           COMMAND sh -c "! \"$0\" +cycles=20000 +seed=3 +ref_fault=5000" ${NUMAGPU_SV_TB_sv_tb_${block}})
  set_tests_properties(rtl_sv_dpi_${block}_catches_divergence PROPERTIES LABELS rtl TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "scoreboard mismatch at cycle 50[0-6][0-9] ")
endforeach()

# The lockstep stimulus on Icarus Verilog (tests/rtl/icarus_vectors_test.sh); skipped (77) without iverilog
# outside CI, failed in CI.
add_test(NAME rtl_icarus_vectors
         COMMAND bash ${NUMAGPU_RTL_TESTS}/icarus_vectors_test.sh $<TARGET_FILE:rtl_vectors> ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/rtl_icarus 50000)
set_tests_properties(rtl_icarus_vectors PROPERTIES LABELS rtl TIMEOUT 300 SKIP_RETURN_CODE 77)

# Coverage over the lockstep runs (lb_l4, pc_w5), their vector replays and the SV runs, merged by
# verilator_coverage, with minimum percentages.
add_test(NAME rtl_coverage
         COMMAND bash ${NUMAGPU_RTL_TESTS}/rtl_coverage_test.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/rtl_coverage $<TARGET_FILE:rtl_vectors>
                 ${NUMAGPU_SV_TB_sv_vectors_link_balancer} ${NUMAGPU_SV_TB_sv_vectors_cache_partition_ctrl}
                 ${NUMAGPU_SV_TB_sv_tb_link_balancer} ${NUMAGPU_SV_TB_sv_tb_cache_partition_ctrl}
                 $<TARGET_FILE:test_rtl_lockstep>)
set_tests_properties(rtl_coverage PROPERTIES LABELS rtl TIMEOUT 300)

# --- Python package (tb/python/CMakeLists.txt) -----------------------------------------------------------------
if(TARGET numagpu_policy_py)
  add_test(NAME rtl_python_bindings
           COMMAND ${NUMAGPU_PYTHON_EXECUTABLE} ${NUMAGPU_RTL_TESTS}/python_bindings_test.py
                   --module-dir ${NUMAGPU_PYTHON_DIR} --rtl-vectors $<TARGET_FILE:rtl_vectors>
                   --sv-vectors-lb ${NUMAGPU_SV_TB_sv_vectors_link_balancer}
                   --sv-vectors-pc ${NUMAGPU_SV_TB_sv_vectors_cache_partition_ctrl}
                   --repo ${PROJECT_SOURCE_DIR} --work ${CMAKE_CURRENT_BINARY_DIR}/rtl_python)
  # The RTL classes Verilate into a cache inside the build tree, filled with the project's build (the three
  # parameter sets the test constructs: Verilator's C++ build is most of a cold run), so the test only loads.
  set(_rtl_cache ${CMAKE_CURRENT_BINARY_DIR}/rtl_python_cache)
  add_custom_command(
    OUTPUT ${_rtl_cache}/warm.stamp
    COMMAND ${CMAKE_COMMAND} -E env NUMAGPU_RTL_CACHE=${_rtl_cache} PYTHONPATH=${NUMAGPU_PYTHON_DIR}
            ${NUMAGPU_PYTHON_EXECUTABLE} -c "import numagpu_policy as n; n.LinkBalancerRtl(lanes=4, sample_cycles=64, switch_cycles=5); n.LinkBalancerRtl(lanes=8, sample_cycles=100, switch_cycles=10, sat_num=9, sat_den=10); n.PartitionControllerRtl(ways=5, sample_cycles=40, sat_num=3, sat_den=4)"
    COMMAND ${CMAKE_COMMAND} -E touch ${_rtl_cache}/warm.stamp
    DEPENDS numagpu_policy_py numagpu_policy_py_files ${NUMAGPU_RTL_DIR}/link_balancer.sv
            ${NUMAGPU_RTL_DIR}/cache_partition_ctrl.sv ${NUMAGPU_RTL_PRIM_SOURCES} ${NUMAGPU_RTL_DIR}/numagpu_assert.svh
            ${NUMAGPU_TB_DIR}/python/numagpu_policy/rtl.py ${NUMAGPU_TB_DIR}/python/numagpu_policy/rtl_capi.cpp
    COMMENT "Verilating the Python package's RTL classes for rtl_python_bindings"
    VERBATIM)
  add_custom_target(numagpu_policy_rtl_cache ALL DEPENDS ${_rtl_cache}/warm.stamp)
  set_tests_properties(rtl_python_bindings PROPERTIES LABELS rtl TIMEOUT 300 ENVIRONMENT "NUMAGPU_RTL_CACHE=${_rtl_cache}")
  # `pip install ./tb/python` into a fresh venv, offline; the installed package's RTL class loads from the cache.
  add_test(NAME rtl_python_pip_install
           COMMAND bash ${NUMAGPU_RTL_TESTS}/python_pip_install_test.sh ${PROJECT_SOURCE_DIR}
                   ${CMAKE_CURRENT_BINARY_DIR}/rtl_python_pip ${_rtl_cache})
  set_tests_properties(rtl_python_pip_install PROPERTIES LABELS rtl TIMEOUT 300 SKIP_RETURN_CODE 77)
else()
  # Without pybind11 the test still exists: it fails in CI and is skipped elsewhere (tests/CMakeLists.txt's rule).
  add_test(NAME rtl_python_bindings
           COMMAND sh -c "echo 'pybind11 not found (run scripts/setup.sh)'; [ \"$CI\" != true ] && exit 77; exit 1")
  set_tests_properties(rtl_python_bindings PROPERTIES LABELS rtl SKIP_RETURN_CODE 77)
endif()

# The kit's SystemVerilog that users compile into their own testbenches stays lint-clean too.
add_test(NAME rtl_lint_kit_numagpu_policy_pkg
         COMMAND ${VERILATOR_BIN} --lint-only -Wall ${NUMAGPU_TB_DIR}/dpi/numagpu_policy_pkg.sv)
foreach(block link_balancer cache_partition_ctrl)
  add_test(NAME rtl_lint_kit_${block}_cover
           COMMAND ${VERILATOR_BIN} --lint-only -Wall ${NUMAGPU_TB_DIR}/sv/${block}_cover.sv)
endforeach()
set_tests_properties(rtl_lint_kit_numagpu_policy_pkg rtl_lint_kit_link_balancer_cover
                     rtl_lint_kit_cache_partition_ctrl_cover PROPERTIES LABELS rtl TIMEOUT 60)

# The venv with cocotb and cocotb-coverage (scripts/setup.sh), set before the first test that takes it: an
# empty argument would shift the ones after it.
if(DEFINED ENV{NUMAGPU_VENV})
  set(_venv_default $ENV{NUMAGPU_VENV})
else()
  set(_venv_default $ENV{HOME}/.local/share/numagpu/venv)
endif()
set(NUMAGPU_VENV ${_venv_default} CACHE PATH "The Python venv with cocotb and cocotb-coverage (scripts/setup.sh)")

# The installed kit (tb/CMakeLists.txt, rtl/CMakeLists.txt): `cmake --install --component kit` into a scratch
# prefix, then the filelists, the package and the DPI library are used from there.
add_test(NAME rtl_kit_install
         COMMAND bash ${NUMAGPU_RTL_TESTS}/kit_install_test.sh ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/rtl_kit_install "${NUMAGPU_VENV}" ${CMAKE_CURRENT_BINARY_DIR}/rtl_python_cache
                 $<IF:$<TARGET_EXISTS:numagpu_policy_py>,1,0>)
set_tests_properties(rtl_kit_install PROPERTIES LABELS rtl TIMEOUT 120)

# --- cocotb testbenches (tb/cocotb) ----------------------------------------------------------------------------
# Each block on Icarus and on Verilator, with the C++ reference (numagpu_policy from the build tree) as
# scoreboard and a cocotb-coverage goal; cocotb and cocotb-coverage come from the venv scripts/setup.sh makes
# (pinned: cocotb 1.9.2, the last line that supports Debian 12's Verilator 5.006). Without the venv or a
# simulator a test skips (fails in CI).
set(NUMAGPU_COCOTB_DIR ${CMAKE_CURRENT_BINARY_DIR}/cocotb)
foreach(block link_balancer cache_partition_ctrl)
  foreach(sim icarus verilator)
    set(name rtl_cocotb_${sim}_${block})
    if(TARGET numagpu_policy_py)
      add_test(NAME ${name}
               COMMAND bash ${NUMAGPU_RTL_TESTS}/cocotb_test.sh ${sim} ${block} ${PROJECT_SOURCE_DIR}
                       ${NUMAGPU_COCOTB_DIR}/${sim}_${block} ${NUMAGPU_VENV} ${NUMAGPU_PYTHON_DIR})
    else()
      add_test(NAME ${name} COMMAND sh -c "echo 'pybind11 not found (run scripts/setup.sh)'; [ \"$CI\" != true ] && exit 77; exit 1")
    endif()
    set_tests_properties(${name} PROPERTIES LABELS rtl TIMEOUT 300 SKIP_RETURN_CODE 77)
  endforeach()
  # The Verilator simulation is built with the project (Verilator's C++ build is most of a cold run), into the
  # folder the test's `make` then finds up to date.
  if(EXISTS ${NUMAGPU_VENV}/bin/cocotb-config AND TARGET numagpu_policy_py)
    set(build_dir ${NUMAGPU_COCOTB_DIR}/verilator_${block}/sim_build)
    file(GLOB _cocotb_sources CONFIGURE_DEPENDS ${NUMAGPU_TB_DIR}/cocotb/*)
    file(MAKE_DIRECTORY ${NUMAGPU_COCOTB_DIR}/verilator_${block})
    add_custom_command(
      OUTPUT ${build_dir}/Vtop
      COMMAND ${CMAKE_COMMAND} -E env PATH=${NUMAGPU_VENV}/bin:$ENV{PATH}
              sh -c "make -f ${NUMAGPU_TB_DIR}/cocotb/Makefile SIM=verilator BLOCK=${block} SIM_BUILD=${build_dir} ${build_dir}/Vtop > ${build_dir}.log 2>&1 || { cat ${build_dir}.log; exit 1; }"
      WORKING_DIRECTORY ${NUMAGPU_COCOTB_DIR}/verilator_${block}
      DEPENDS ${NUMAGPU_RTL_DIR}/${block}.sv ${NUMAGPU_RTL_PRIM_SOURCES} ${NUMAGPU_RTL_DIR}/numagpu_assert.svh
              ${NUMAGPU_TB_DIR}/cocotb/Makefile
      COMMENT "Verilating ${block} for its cocotb testbench"
      VERBATIM)
    add_custom_target(cocotb_verilator_${block} ALL DEPENDS ${build_dir}/Vtop)
  endif()
endforeach()
# The scoreboard can fail: a reference whose lanes switch for 6 cycles (the RTL: 5) must be caught.
if(TARGET numagpu_policy_py)
  add_test(NAME rtl_cocotb_icarus_link_balancer_catches_divergence
           COMMAND bash ${NUMAGPU_RTL_TESTS}/cocotb_test.sh --expect-mismatch icarus link_balancer ${PROJECT_SOURCE_DIR}
                   ${NUMAGPU_COCOTB_DIR}/icarus_link_balancer_fault ${NUMAGPU_VENV} ${NUMAGPU_PYTHON_DIR})
  set_tests_properties(rtl_cocotb_icarus_link_balancer_catches_divergence PROPERTIES LABELS rtl TIMEOUT 120
                       SKIP_RETURN_CODE 77)
endif()
