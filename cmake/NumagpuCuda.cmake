# numagpu_cuda_executable(<name> [ARCH sm_XX] [CUDART <target or library>] [OPTIONS <flags>...] <sources>...)
#
# Builds a CUDA program for numagpu (docs/cuda.md, "Compiling CUDA programs"): each .cu source through
# numagpu-cc -c (device side to PTX, host side with the PTX embedded), the other sources as usual, into the
# executable <name>, linked against numagpu's CUDA runtime library (libnumagpu_cudart.so) with an RPATH to
# it. The target's include directories and compile definitions reach the .cu files too; OPTIONS are further
# numagpu-cc flags for them (-O2, -Wall, -std=c++17, --keep-ptx DIR, ...); ARCH is the GPU architecture
# (default sm_70). CUDART names another runtime library (a target or a file).
#
# In numagpu's own build tree the function uses the numagpu-cc and numagpu_cudart targets; installed, it is
# part of the CMake package (find_package(numagpu) brings it) and finds both beside the package.
if(DEFINED PACKAGE_PREFIX_DIR)
  set(_NUMAGPU_CUDA_PREFIX "${PACKAGE_PREFIX_DIR}")
else()
  get_filename_component(_NUMAGPU_CUDA_PREFIX "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
endif()

function(numagpu_cuda_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 _arg "" "ARCH;CUDART" "OPTIONS")
  if(NOT _arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "numagpu_cuda_executable(${name}): no sources")
  endif()
  if(NOT _arg_ARCH)
    set(_arg_ARCH sm_70)
  endif()
  if(TARGET numagpu-cc)
    set(_cc $<TARGET_FILE:numagpu-cc>)
    set(_cc_depends numagpu-cc ${NUMAGPU_CUDA_HEADERS})
  else()
    find_program(NUMAGPU_CC_EXECUTABLE numagpu-cc HINTS ${_NUMAGPU_CUDA_PREFIX}/bin REQUIRED)
    set(_cc ${NUMAGPU_CC_EXECUTABLE})
    set(_cc_depends ${NUMAGPU_CC_EXECUTABLE})
  endif()

  set(_incs "$<TARGET_PROPERTY:${name},INCLUDE_DIRECTORIES>")
  set(_defs "$<TARGET_PROPERTY:${name},COMPILE_DEFINITIONS>")
  set(_objects "")
  set(_others "")
  set(_index 0)
  foreach(_src ${_arg_UNPARSED_ARGUMENTS})
    get_filename_component(_abs ${_src} ABSOLUTE)
    get_filename_component(_ext ${_src} LAST_EXT)
    if(NOT _ext STREQUAL ".cu")
      list(APPEND _others ${_abs})
      continue()
    endif()
    get_filename_component(_stem ${_src} NAME_WE)
    set(_obj ${CMAKE_CURRENT_BINARY_DIR}/${name}.cuda/${_index}_${_stem}.o)
    math(EXPR _index "${_index} + 1")
    add_custom_command(
      OUTPUT ${_obj}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_CURRENT_BINARY_DIR}/${name}.cuda
      COMMAND ${_cc} -c -arch=${_arg_ARCH} "$<$<BOOL:${_incs}>:-I$<JOIN:${_incs},;-I>>"
              "$<$<BOOL:${_defs}>:-D$<JOIN:${_defs},;-D>>" ${_arg_OPTIONS} ${_abs} -o ${_obj}
      DEPENDS ${_abs} ${_cc_depends}
      COMMENT "numagpu-cc ${_src}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND _objects ${_obj})
  endforeach()
  set_source_files_properties(${_objects} PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  add_executable(${name} ${_objects} ${_others})
  # Linked by the C++ compiler; NUMAGPU_CUDA_OBJECTS marks the objects as clang's (numagpu's own checks of
  # GCC objects, cmake/OdrCheck.cmake, leave them out).
  set_target_properties(${name} PROPERTIES LINKER_LANGUAGE CXX NUMAGPU_CUDA_OBJECTS TRUE)

  if(_arg_CUDART)
    set(_cudart ${_arg_CUDART})
  elseif(TARGET numagpu_cudart)
    set(_cudart numagpu_cudart)
  elseif(TARGET numagpu::cudart)
    set(_cudart numagpu::cudart)
  else()
    find_library(NUMAGPU_CUDART_LIBRARY numagpu_cudart HINTS ${_NUMAGPU_CUDA_PREFIX}/lib REQUIRED)
    set(_cudart ${NUMAGPU_CUDART_LIBRARY})
  endif()
  target_link_libraries(${name} PRIVATE ${_cudart})
  # An RPATH to the runtime library, installed too (the build tree's is CMake's default).
  if(NOT TARGET ${_cudart})
    get_filename_component(_cudart_dir ${_cudart} DIRECTORY)
    set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH ${_cudart_dir})
  endif()
endfunction()
