# CMakeDetermineMLIRCompiler.cmake: finds gpucc for enable_language(MLIR)
# and records what it is and what it can do in
# ${CMAKE_PLATFORM_INFO_DIR}/CMakeMLIRCompiler.cmake, so later configure runs
# skip this file, as for C.
#
# The compiler is, in this order: CMAKE_MLIR_COMPILER (cache or -D), the
# MLIRC environment variable, GPUCC_EXECUTABLE (set by GPUCCConfig.cmake to
# the package's own gpucc), gpucc on PATH.

if(NOT CMAKE_MLIR_COMPILER)
  if(NOT "$ENV{MLIRC}" STREQUAL "")
    set(CMAKE_MLIR_COMPILER "$ENV{MLIRC}")
  elseif(GPUCC_EXECUTABLE)
    set(CMAKE_MLIR_COMPILER "${GPUCC_EXECUTABLE}")
  endif()
endif()
if(NOT CMAKE_MLIR_COMPILER)
  find_program(CMAKE_MLIR_COMPILER NAMES gpucc)
endif()
if(NOT CMAKE_MLIR_COMPILER)
  message(FATAL_ERROR "no MLIR compiler: set CMAKE_MLIR_COMPILER or MLIRC to gpucc, "
    "or use find_package(GPUCC)")
endif()
set(CMAKE_MLIR_COMPILER "${CMAKE_MLIR_COMPILER}" CACHE FILEPATH "MLIR compiler (gpucc)")

# "gpucc 0.1.0 (MLIR/LLVM 22.1.8)" names the compiler and its version.
execute_process(COMMAND "${CMAKE_MLIR_COMPILER}" --version
  OUTPUT_VARIABLE _mlir_version_out ERROR_VARIABLE _mlir_version_out RESULT_VARIABLE _mlir_rc)
if(NOT _mlir_rc EQUAL 0 OR NOT _mlir_version_out MATCHES "^gpucc ([0-9][0-9.]*)")
  message(FATAL_ERROR "'${CMAKE_MLIR_COMPILER} --version' did not identify gpucc:\n${_mlir_version_out}")
endif()
set(CMAKE_MLIR_COMPILER_ID GPUCC)
set(CMAKE_MLIR_COMPILER_VERSION "${CMAKE_MATCH_1}")

# Optional driver features, read off the option table that --help prints, so
# one set of modules works with older and newer drivers.
execute_process(COMMAND "${CMAKE_MLIR_COMPILER}" --help OUTPUT_VARIABLE _mlir_help ERROR_QUIET)
foreach(_f IN ITEMS MD g shared -device-only -bundle -gpucc-rt)
  string(TOUPPER "${_f}" _v)
  string(REPLACE "-" "" _v "${_v}")
  if(_mlir_help MATCHES "\n +-${_f}[ =\n]")
    set(CMAKE_MLIR_COMPILER_HAS_${_v} 1)
  else()
    set(CMAKE_MLIR_COMPILER_HAS_${_v} 0)
  endif()
endforeach()
# "default targets: sm_80,sm_90,...": what an empty MLIR_ARCHITECTURES means,
# needed where each architecture is its own build step.
set(CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES "")
if(_mlir_help MATCHES "\ndefault targets: ([^\n]+)")
  string(REPLACE "," ";" CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES "${CMAKE_MATCH_1}")
endif()

# The runtime, read off gpucc's own link lines (`gpucc -### x.o` prints
# "cc -o x x.o <dir>/libgpucc_rt.a '-Wl,--export-dynamic-symbol=gpuccHost*'
# -lpthread -ldl [builtins] -lm"), the way CMake learns a C compiler's
# implicit libraries from `cc -v`. What follows the objects on each line
# becomes CMAKE_MLIR_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC or _SHARED, which
# GPUCCRuntime.cmake adds to every target with MLIR objects, whichever
# compiler links it. The shared line's -L and -Wl,-rpath become the
# library's full path: CMake then puts its directory in the build tree's
# run path only, never in an installed program's.
function(_mlir_probe_runtime kind out)
  execute_process(COMMAND "${CMAKE_MLIR_COMPILER}" "-###" "--gpucc-rt=${kind}" gpucc-probe.o -o gpucc-probe
    OUTPUT_VARIABLE link ERROR_VARIABLE link RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0 OR NOT link MATCHES " gpucc-probe\\.o (-L([^ ]+) -lgpucc_rt|[^ ]+/libgpucc_rt\\.a)( [^\n]*)?")
    message(FATAL_ERROR "cannot find gpucc's runtime in its link line "
      "('${CMAKE_MLIR_COMPILER} -### --gpucc-rt=${kind}'):\n${link}")
  endif()
  if(CMAKE_MATCH_2)
    set(items "${CMAKE_MATCH_2}/libgpucc_rt.so")
  else()
    set(items "${CMAKE_MATCH_1}")
  endif()
  separate_arguments(rest UNIX_COMMAND "${CMAKE_MATCH_3}")
  foreach(arg IN LISTS rest)
    if(NOT arg MATCHES "^-Wl,-rpath,")
      list(APPEND items "${arg}")
    endif()
  endforeach()
  set(${out} "${items}" PARENT_SCOPE)
endfunction()
if(NOT CMAKE_MLIR_COMPILER_HAS_GPUCCRT)
  message(FATAL_ERROR "${CMAKE_MLIR_COMPILER} has no --gpucc-rt= (gpucc 0.1 or newer needed)")
endif()
_mlir_probe_runtime(static CMAKE_MLIR_RUNTIME_LIBRARY_LINK_OPTIONS_STATIC)
_mlir_probe_runtime(shared CMAKE_MLIR_RUNTIME_LIBRARY_LINK_OPTIONS_SHARED)

# The GPU architectures gpucc knows, one name each (AMD's without their
# :feature suffixes), to check MLIR_ARCHITECTURES at configure time:
# `gpucc --list-gpu-arch` where the driver has it, else the "known targets:"
# line of --help. Either may list the names one a line or comma-separated.
set(CMAKE_MLIR_COMPILER_KNOWN_ARCHITECTURES "")
execute_process(COMMAND "${CMAKE_MLIR_COMPILER}" --list-gpu-arch
  OUTPUT_VARIABLE _mlir_archs ERROR_QUIET RESULT_VARIABLE _mlir_rc)
if(NOT _mlir_rc EQUAL 0)
  set(_mlir_archs "")
  if(_mlir_help MATCHES "\nknown targets: ([^\n]+)")
    set(_mlir_archs "${CMAKE_MATCH_1}")
  endif()
endif()
string(REGEX MATCHALL "[A-Za-z0-9_]+" CMAKE_MLIR_COMPILER_KNOWN_ARCHITECTURES "${_mlir_archs}")

set(CMAKE_MLIR_COMPILER_ENV_VAR MLIRC)
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeMLIRCompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeMLIRCompiler.cmake @ONLY)
