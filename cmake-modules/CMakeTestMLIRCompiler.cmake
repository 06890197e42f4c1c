# CMakeTestMLIRCompiler.cmake: checks once, on the first configure, that
# gpucc compiles and links a trivial program, so a broken installation fails
# here with gpucc's own message rather than in the middle of a build.

if(CMAKE_MLIR_COMPILER_FORCED)
  set(CMAKE_MLIR_COMPILER_WORKS TRUE)
  return()
endif()

include(CMakeTestCompilerCommon)
PrintTestCompilerStatus("MLIR")

# No gpu.module: quick for any target list, and it still exercises parsing,
# host code generation and the link against libgpucc_rt.
set(_mlir_test_src ${CMAKE_BINARY_DIR}${CMAKE_FILES_DIRECTORY}/testMLIRCompiler.mlir)
file(WRITE ${_mlir_test_src} "func.func @main() {\n  return\n}\n")
unset(CMAKE_MLIR_COMPILER_WORKS CACHE)
try_compile(CMAKE_MLIR_COMPILER_WORKS ${CMAKE_BINARY_DIR} ${_mlir_test_src}
  OUTPUT_VARIABLE _mlir_test_out)
set(CMAKE_MLIR_COMPILER_WORKS ${CMAKE_MLIR_COMPILER_WORKS})
unset(CMAKE_MLIR_COMPILER_WORKS CACHE)

if(NOT CMAKE_MLIR_COMPILER_WORKS)
  PrintTestCompilerResult(CHECK_FAIL "broken")
  string(REPLACE "\n" "\n  " _mlir_test_out "${_mlir_test_out}")
  message(FATAL_ERROR "The MLIR compiler\n  \"${CMAKE_MLIR_COMPILER}\"\n"
    "is not able to compile and link a simple test program:\n  ${_mlir_test_out}")
endif()
PrintTestCompilerResult(CHECK_PASS "works")
