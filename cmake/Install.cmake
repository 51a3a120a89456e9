# Installing numagpu as a component (docs/embedding.md): the libraries (static archives, and libnumagpu.so),
# the headers under include/numagpu/, the program, the configurations, a versioned CMake package with
# imported targets (numagpu::model, numagpu::shared, ...) and numagpu.pc; CPack makes a Debian package of
# the same tree. Included last by the top-level CMakeLists.txt, once every target exists.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(_numagpu_libs numagpu_config numagpu_stats numagpu_trace numagpu_policy numagpu_runtime numagpu_power
                  numagpu_model)
if(TARGET numagpu_rtl_loop)
  list(APPEND _numagpu_libs numagpu_rtl_loop)
endif()

# In the build tree "numagpu/..." names models/ (a link), as it names include/numagpu/ once installed, so
# that examples/ include the same paths either way. The model's own headers include each other from the
# models/ root ("system/system.hpp"), hence include/numagpu/ on the installed include path too.
file(MAKE_DIRECTORY ${PROJECT_BINARY_DIR}/include)
file(CREATE_LINK ${PROJECT_SOURCE_DIR}/models ${PROJECT_BINARY_DIR}/include/numagpu SYMBOLIC)
foreach(_lib ${_numagpu_libs})
  get_target_property(_incs ${_lib} INTERFACE_INCLUDE_DIRECTORIES)
  set(_wrapped "")
  foreach(_inc ${_incs})
    list(APPEND _wrapped "$<BUILD_INTERFACE:${_inc}>")
  endforeach()
  list(APPEND _wrapped "$<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>"
       "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}/numagpu>" "$<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>")
  set_property(TARGET ${_lib} PROPERTY INTERFACE_INCLUDE_DIRECTORIES "${_wrapped}")
  get_target_property(_sys ${_lib} INTERFACE_SYSTEM_INCLUDE_DIRECTORIES)
  if(_sys)
    set(_wrapped "")
    foreach(_inc ${_sys})
      list(APPEND _wrapped "$<BUILD_INTERFACE:${_inc}>")
    endforeach()
    set_property(TARGET ${_lib} PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "${_wrapped}")
  endif()
  string(REPLACE "numagpu_" "" _export_name ${_lib})
  set_target_properties(${_lib} PROPERTIES EXPORT_NAME ${_export_name})
endforeach()
set_target_properties(numagpu_warnings PROPERTIES EXPORT_NAME warnings)
# libsystemc is built as C++17: its users compile as C++17 or later, and a later standard must still name
# 2.3.4's C++17 API (docs/architecture.md).
target_compile_features(numagpu_model INTERFACE cxx_std_17)
target_compile_definitions(numagpu_model INTERFACE $<INSTALL_INTERFACE:SC_CPLUSPLUS=201703L>)

# libnumagpu.so: the same objects as the static archives (compiled position-independent; docs/embedding.md
# has the measured cost, none), linked into one shared library with its dependencies.
option(NUMAGPU_SHARED_LIBRARY "Build and install libnumagpu.so (the static libraries' objects, position-independent)" ON)
if(NUMAGPU_SANITIZE)
  set(NUMAGPU_SHARED_LIBRARY OFF)
endif()
set(_numagpu_install_targets ${_numagpu_libs} numagpu_warnings)
if(NUMAGPU_SHARED_LIBRARY)
  set(_objects "")
  foreach(_lib ${_numagpu_libs})
    set_target_properties(${_lib} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    # No interposition of the libraries' own functions: calls within them bind and inline as in the program.
    target_compile_options(${_lib} PRIVATE -fno-semantic-interposition)
    list(APPEND _objects $<TARGET_OBJECTS:${_lib}>)
  endforeach()
  add_library(numagpu_shared SHARED ${_objects})
  set_target_properties(numagpu_shared PROPERTIES OUTPUT_NAME numagpu EXPORT_NAME shared LINKER_LANGUAGE CXX
                        VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})
  get_target_property(_model_incs numagpu_model INTERFACE_INCLUDE_DIRECTORIES)
  target_include_directories(numagpu_shared PUBLIC ${_model_incs})
  get_target_property(_model_defs numagpu_model INTERFACE_COMPILE_DEFINITIONS)
  if(_model_defs)
    target_compile_definitions(numagpu_shared PUBLIC ${_model_defs})
  endif()
  find_package(LibLZMA REQUIRED)
  find_package(ZLIB REQUIRED)
  find_package(Threads REQUIRED)
  target_compile_features(numagpu_shared INTERFACE cxx_std_17)
  # The private dependencies of the archives (the Verilated blocks' runtime wants threads and libatomic).
  target_link_libraries(numagpu_shared PUBLIC PkgConfig::SYSTEMC nlohmann_json::nlohmann_json
                        PRIVATE yaml-cpp LibLZMA::LibLZMA ZLIB::ZLIB Threads::Threads)
  if(TARGET numagpu_rtl_loop)
    target_link_libraries(numagpu_shared PRIVATE atomic)
  endif()
  target_link_options(numagpu_shared PRIVATE -Wl,--no-undefined)
  add_library(numagpu::shared ALIAS numagpu_shared)
  list(APPEND _numagpu_install_targets numagpu_shared)
endif()

install(TARGETS ${_numagpu_install_targets} EXPORT numagpuTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS numagpu RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

# Headers: every header of the model, in its folder (the program's own, app/, the configuration engine's
# private config/src/, and the RTL adapter's Verilator-facing one stay out).
file(GLOB_RECURSE _headers RELATIVE ${PROJECT_SOURCE_DIR}/models CONFIGURE_DEPENDS
     ${PROJECT_SOURCE_DIR}/models/*.hpp)
foreach(_h ${_headers})
  if(_h MATCHES "^(app|config/src)/" OR _h MATCHES "^rtl_loop/rtl_policy.hpp$")
    continue()
  endif()
  get_filename_component(_dir ${_h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/models/${_h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/numagpu/${_dir})
endforeach()

# The configurations: systems, topologies, GPUs, workloads, examples and study specs.
install(DIRECTORY ${PROJECT_SOURCE_DIR}/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/numagpu/configs)
install(FILES ${PROJECT_SOURCE_DIR}/docs/embedding.md DESTINATION ${CMAKE_INSTALL_DOCDIR})

# The CMake package: find_package(numagpu 0.1) finds it; the targets bring SystemC (pkg-config), yaml-cpp,
# nlohmann-json, liblzma and zlib along.
set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/numagpu)
install(EXPORT numagpuTargets NAMESPACE numagpu:: DESTINATION ${_cmake_dir})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/numagpuConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/numagpuConfig.cmake INSTALL_DESTINATION ${_cmake_dir}
                              PATH_VARS CMAKE_INSTALL_DATADIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/numagpuConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/numagpuConfig.cmake ${PROJECT_BINARY_DIR}/numagpuConfigVersion.cmake
              ${PROJECT_SOURCE_DIR}/cmake/NumagpuCuda.cmake DESTINATION ${_cmake_dir})

# pkg-config: the shared library (pkg-config --cflags --libs numagpu).
if(NUMAGPU_SHARED_LIBRARY)
  # The prefix from the .pc file's own folder (lib/pkgconfig or lib/<multiarch>/pkgconfig): a prefix moved
  # or unpacked elsewhere (dpkg-deb -x) still finds itself.
  file(RELATIVE_PATH NUMAGPU_PC_TO_PREFIX ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
  string(REGEX REPLACE "/$" "" NUMAGPU_PC_TO_PREFIX "${NUMAGPU_PC_TO_PREFIX}")
  configure_file(${PROJECT_SOURCE_DIR}/cmake/numagpu.pc.in ${PROJECT_BINARY_DIR}/numagpu.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/numagpu.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()

# cpack -G DEB (in the build directory): numagpu_<version>_<arch>.deb of the tree above.
set(CPACK_PACKAGE_NAME numagpu)
set(CPACK_PACKAGE_VENDOR "numagpu")
set(CPACK_PACKAGE_CONTACT "numagpu maintainers <numagpu@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libsystemc-dev (>= 2.3.4), libyaml-cpp-dev, nlohmann-json3-dev, liblzma-dev, zlib1g-dev, pkg-config")
set(CPACK_GENERATOR DEB)
include(CPack)
