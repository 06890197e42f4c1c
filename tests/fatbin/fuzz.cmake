# The libFuzzer target over the reader (fuzz_reader.c), built only where a
# clang with libFuzzer, ASan and UBSan is installed (Debian: clang-22 and
# libclang-rt-22-dev). The library's sources are compiled again with the
# instrumentation, since the project's own build of them has none.
#
# fatbin.fuzz runs it for 60 seconds from the seed corpus in corpus/ (read
# only); what it learns goes to a corpus directory in the build tree and any
# crashing input to fuzz-crash-* next to it. docs/fatbin.md says how to run
# it longer.
find_program(GPUCC_FUZZ_CC NAMES clang-22 clang)
if(GPUCC_FUZZ_CC AND NOT DEFINED GPUCC_FUZZ_WORKS)
  set(_probe ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe.c)
  file(WRITE ${_probe} "#include <stddef.h>\n#include <stdint.h>\n"
       "int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { return (int)(n && d[0]); }\n")
  execute_process(
    COMMAND ${GPUCC_FUZZ_CC} -fsanitize=fuzzer,address,undefined ${_probe}
            -o ${CMAKE_CURRENT_BINARY_DIR}/fuzz_probe
    RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(GPUCC_FUZZ_WORKS ON CACHE INTERNAL "clang has libFuzzer")
  else()
    set(GPUCC_FUZZ_WORKS OFF CACHE INTERNAL "clang has libFuzzer")
  endif()
endif()
if(NOT GPUCC_FUZZ_WORKS)
  message(STATUS "no clang with libFuzzer (Debian: libclang-rt-22-dev): fatbin.fuzz disabled")
  return()
endif()

set(_fuzz_bin ${CMAKE_CURRENT_BINARY_DIR}/fuzz_reader)
set(_fuzz_includes -I${PROJECT_SOURCE_DIR}/fatbin)
foreach(dir ${LibArchive_INCLUDE_DIRS} ${GPUCC_ZSTD_INCLUDE_DIRS} ${GPUCC_ZSTD_INCLUDE})
  list(APPEND _fuzz_includes -I${dir})
endforeach()
add_custom_command(OUTPUT ${_fuzz_bin}
  COMMAND ${GPUCC_FUZZ_CC} -std=c17 -g -O1 -fsanitize=fuzzer,address,undefined
          -fno-sanitize-recover=all ${_fuzz_includes}
          ${GPUCC_FATBIN_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_reader.c
          ${LibArchive_LIBRARIES} -lzstd -o ${_fuzz_bin}
  DEPENDS ${GPUCC_FATBIN_SOURCES} ${CMAKE_CURRENT_SOURCE_DIR}/fuzz_reader.c
          ${PROJECT_SOURCE_DIR}/fatbin/fatbin.h ${PROJECT_SOURCE_DIR}/fatbin/fatbin_private.h
  COMMENT "clang: fuzz_reader (libFuzzer, ASan, UBSan)"
  VERBATIM)
add_custom_target(fatbin_fuzz_reader ALL DEPENDS ${_fuzz_bin})

set(_fuzz_work ${CMAKE_CURRENT_BINARY_DIR}/fuzz-corpus)
file(MAKE_DIRECTORY ${_fuzz_work})
add_test(NAME fatbin.fuzz
  COMMAND ${_fuzz_bin} -max_total_time=60 -timeout=10 -rss_limit_mb=2048
          -print_final_stats=1 -artifact_prefix=${CMAKE_CURRENT_BINARY_DIR}/fuzz-crash-
          ${_fuzz_work} ${CMAKE_CURRENT_SOURCE_DIR}/corpus)
set_tests_properties(fatbin.fuzz PROPERTIES LABELS fuzz TIMEOUT 240)
