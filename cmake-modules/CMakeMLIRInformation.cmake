# CMakeMLIRInformation.cmake: how CMake compiles and links MLIR sources with
# gpucc. Loaded by enable_language(MLIR) after CMakeMLIRCompiler.cmake.

set(CMAKE_MLIR_OUTPUT_EXTENSION .o)

if(CMAKE_USER_MAKE_RULES_OVERRIDE_MLIR)
  include(${CMAKE_USER_MAKE_RULES_OVERRIDE_MLIR} RESULT_VARIABLE _override)
  set(CMAKE_USER_MAKE_RULES_OVERRIDE_MLIR "${_override}")
endif()

# CMAKE_MLIR_FLAGS and CMAKE_MLIR_FLAGS_<CONFIG>, cached, from $MLIRFLAGS as
# CFLAGS seeds CMAKE_C_FLAGS.
set(CMAKE_MLIR_FLAGS_INIT "$ENV{MLIRFLAGS} ${CMAKE_MLIR_FLAGS_INIT}")
set(CMAKE_MLIR_FLAGS_DEBUG_INIT "-O0")
set(CMAKE_MLIR_FLAGS_RELEASE_INIT "-O3")
set(CMAKE_MLIR_FLAGS_RELWITHDEBINFO_INIT "-O2")
set(CMAKE_MLIR_FLAGS_MINSIZEREL_INIT "-O2")
if(CMAKE_MLIR_COMPILER_HAS_G)
  string(APPEND CMAKE_MLIR_FLAGS_DEBUG_INIT " -g")
  string(APPEND CMAKE_MLIR_FLAGS_RELWITHDEBINFO_INIT " -g")
endif()
cmake_initialize_per_config_variable(CMAKE_MLIR_FLAGS "Flags used by the MLIR compiler (gpucc)")

# CMAKE_MLIR_COMPILER_LAUNCHER (ccache, distcc, a logging wrapper): CMake
# applies <LANG>_COMPILER_LAUNCHER to its built-in languages only, so the
# launcher is written into the rule here, from its value when the language is
# enabled (on the command line or before find_package(GPUCC)).
set(_mlir_launcher "")
foreach(_arg IN LISTS CMAKE_MLIR_COMPILER_LAUNCHER)
  string(APPEND _mlir_launcher "\"${_arg}\" ")
endforeach()

# No <DEFINES> or <INCLUDES>: MLIR has no preprocessor, and a target's C
# include directories and definitions (target_include_directories, or those
# of any library it links) must not reach gpucc, which rejects -I and -D.
# --offload-arch comes in <FLAGS>, from the MLIR_ARCHITECTURES property (see
# GPUCCArchitectures.cmake).
set(CMAKE_MLIR_COMPILE_OBJECT
  "${_mlir_launcher}<CMAKE_MLIR_COMPILER> <FLAGS> -c <SOURCE> -o <OBJECT>")

# Depfiles as gcc writes them: Ninja (deps = gcc) and the Makefile
# generators' compiler-generated dependencies read them. The .mlir is its
# object's only input, so without a depfile Ninja is still right, only less
# informed: drivers without -MD get none.
if(CMAKE_MLIR_COMPILER_HAS_MD)
  set(CMAKE_DEPFILE_FLAGS_MLIR "-MD -MT <DEP_TARGET> -MF <DEP_FILE>")
  set(CMAKE_MLIR_DEPFILE_FORMAT gcc)
  set(CMAKE_MLIR_DEPENDS_USE_COMPILER TRUE)
endif()

# Objects from gpucc are always position-independent: nothing to add for
# shared libraries or POSITION_INDEPENDENT_CODE.
set(CMAKE_SHARED_LIBRARY_MLIR_FLAGS "")
set(CMAKE_MLIR_COMPILE_OPTIONS_PIC "")
set(CMAKE_MLIR_COMPILE_OPTIONS_PIE "")

# Linking. A target made of MLIR sources alone links with gpucc, a target
# with C or C++ sources with that compiler; either way GPUCCRuntime.cmake
# puts the runtime its MLIR_RUNTIME_LIBRARY property chooses among the
# target's link items. gpucc's own addition is pinned to the static runtime,
# which adds no run path: after a libgpucc_rt.so item (Shared) the archive
# has nothing left to give, after a libgpucc_rt.a item (Static) it is a
# duplicate the linker skips.
set(CMAKE_MLIR_LINK_EXECUTABLE
  "<CMAKE_MLIR_COMPILER> <FLAGS> --gpucc-rt=static <CMAKE_MLIR_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_SHARED_LIBRARY_CREATE_MLIR_FLAGS "-shared")
set(CMAKE_SHARED_LIBRARY_SONAME_MLIR_FLAG "-Wl,-soname,")
set(CMAKE_MLIR_CREATE_SHARED_LIBRARY
  "<CMAKE_MLIR_COMPILER> <FLAGS> <CMAKE_SHARED_LIBRARY_CREATE_MLIR_FLAGS> --gpucc-rt=static <LINK_FLAGS> <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_MLIR_CREATE_SHARED_MODULE "${CMAKE_MLIR_CREATE_SHARED_LIBRARY}")
set(CMAKE_SHARED_MODULE_CREATE_MLIR_FLAGS "-shared")

if(NOT CMAKE_AR)
  find_program(CMAKE_AR NAMES ar)
  find_program(CMAKE_RANLIB NAMES ranlib)
endif()
set(CMAKE_MLIR_ARCHIVE_CREATE "<CMAKE_AR> qc <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_MLIR_ARCHIVE_APPEND "<CMAKE_AR> q <TARGET> <LINK_FLAGS> <OBJECTS>")
set(CMAKE_MLIR_ARCHIVE_FINISH "<CMAKE_RANLIB> <TARGET>")

# gpucc passes these to the system linker.
set(CMAKE_SHARED_LIBRARY_RUNTIME_MLIR_FLAG "-Wl,-rpath,")
set(CMAKE_SHARED_LIBRARY_RUNTIME_MLIR_FLAG_SEP ":")
set(CMAKE_SHARED_LIBRARY_RPATH_LINK_MLIR_FLAG "-Wl,-rpath-link,")
set(CMAKE_EXECUTABLE_RUNTIME_MLIR_FLAG "-Wl,-rpath,")
set(CMAKE_EXECUTABLE_RUNTIME_MLIR_FLAG_SEP ":")
set(CMAKE_EXECUTABLE_RPATH_LINK_MLIR_FLAG "-Wl,-rpath-link,")
set(CMAKE_LINK_LIBRARY_FLAG_MLIR "-l")

set(CMAKE_MLIR_INFORMATION_LOADED 1)
