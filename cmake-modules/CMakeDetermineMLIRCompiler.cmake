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
foreach(_f IN ITEMS MD g shared -device-only -bundle)
  string(TOUPPER "${_f}" _v)
  string(REPLACE "-" "" _v "${_v}")
  if(_mlir_help MATCHES "\n +-${_f}[ =\n]")
    set(CMAKE_MLIR_COMPILER_HAS_${_v} 1)
  else()
    set(CMAKE_MLIR_COMPILER_HAS_${_v} 0)
  endif()
endforeach()
# "default targets: sm_80,sm_90,...": what an empty GPUCC_ARCHITECTURES means,
# needed where each architecture is its own build step.
set(CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES "")
if(_mlir_help MATCHES "\ndefault targets: ([^\n]+)")
  string(REPLACE "," ";" CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES "${CMAKE_MATCH_1}")
endif()

# The runtime gpucc links into every program, read off its own link line
# (`gpucc -### -shared x.o` prints "cc ... -L<dir> -lgpucc_rt
# -Wl,-rpath,<dir> -lm"), the way CMake learns a C compiler's implicit
# libraries from `cc -v`. When C (or C++) links a target with MLIR objects,
# CMake adds the implicit libraries and directories of MLIR to the link
# line, as it adds the Fortran runtime when C links Fortran objects; see
# CMakeMLIRCompiler.cmake.in for the rpath. The probe is a -shared link:
# shared libraries always get the shared runtime, whereas gpucc links
# executables with its static one (libgpucc_rt.a) by default, a line with
# no -lgpucc_rt to read; implicit libraries serve every kind of target, so
# C-linked targets keep the shared runtime.
execute_process(COMMAND "${CMAKE_MLIR_COMPILER}" "-###" -shared gpucc-probe.o -o gpucc-probe.so
  OUTPUT_VARIABLE _mlir_link ERROR_VARIABLE _mlir_link RESULT_VARIABLE _mlir_rc)
if(NOT _mlir_rc EQUAL 0 OR NOT _mlir_link MATCHES " -L([^ ]+) -lgpucc_rt ")
  message(FATAL_ERROR "cannot find gpucc's runtime in its link line ('${CMAKE_MLIR_COMPILER} -###'):\n${_mlir_link}")
endif()
set(CMAKE_MLIR_IMPLICIT_LINK_DIRECTORIES "${CMAKE_MATCH_1}")
set(CMAKE_MLIR_IMPLICIT_LINK_LIBRARIES gpucc_rt)
if(_mlir_link MATCHES " -lm( |\n|$)")
  list(APPEND CMAKE_MLIR_IMPLICIT_LINK_LIBRARIES m)
endif()

set(CMAKE_MLIR_COMPILER_ENV_VAR MLIRC)
configure_file(${CMAKE_CURRENT_LIST_DIR}/CMakeMLIRCompiler.cmake.in
  ${CMAKE_PLATFORM_INFO_DIR}/CMakeMLIRCompiler.cmake @ONLY)
