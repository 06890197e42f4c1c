# sanitizers.cmake: the runtime and its tests once more under sanitizers,
# inside the normal build, so that plain `ctest` (what CI runs) checks them.
#
# Variants (each a suffix on target names and a prefix on test names):
#   asan  AddressSanitizer + UndefinedBehaviorSanitizer; LeakSanitizer runs at
#         exit, as it does by default with ASan: runtime.asan.*
#   tsan  ThreadSanitizer: runtime.tsan.*
# For each, the runtime's sources (read from the gpucc_rt and
# gpucc_rt_select targets, so the list lives in runtime/CMakeLists.txt only)
# are compiled into a test-only shared library, libgpucc_rt_<v>.so, and the
# fake drivers, host objects, harness, host engine and test programs are
# compiled with the same flags; CMakeLists.txt then registers each scenario
# once per variant (rt_test). The fatbin library is linked uninstrumented:
# tests/fatbin fuzzes it under ASan.
#
# A sanitizer that cannot run here (gcc 12's TSan refuses kernels with
# 32-bit mmap randomization, for one) is replaced by one skipped test that
# says so, rather than by many failures. A build that already uses a
# sanitizer everywhere (CMAKE_C_FLAGS with -fsanitize) gets no variants:
# ASan and TSan cannot be combined.

set(rt_san_asan_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
  -fno-omit-frame-pointer)
set(rt_san_tsan_flags -fsanitize=thread)
# The harness fails a scenario whose stderr mentions "Sanitizer", so a report
# counts even in a scenario that is expected to exit 1.
set(rt_san_asan_env
  ASAN_OPTIONS=detect_leaks=1:strict_string_checks=1
  UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1)
set(rt_san_tsan_env TSAN_OPTIONS=second_deadlock_stack=1)

# Which scenarios each variant runs (a regular expression on the test name;
# empty: all). ASan runs every one: memory errors and leaks can hide in any
# path, error paths first. TSan runs those where several threads use the
# runtime at once (concurrent first use, loads, launches, allocations and
# streams; the host backend's worker pool with 4 workers; printf from
# concurrent blocks): with one thread it has nothing to find.
#
# Fibers under TSan: a block whose threads synchronize runs them as fibers
# switched by host_fiber.c's assembly, which TSan is not told about (no
# __tsan_switch_to_fiber). That is sound here: the fibers of a block share
# one OS thread and never run at once, so TSan rightly sees one thread. Two
# side effects: a report from inside a fiber would show a mixed-up call
# stack, and each fiber that finishes leaves one entry on TSan's shadow call
# stack (64Ki entries per OS thread), which these tests, a few thousand GPU
# threads per OS thread at most, stay far below.
set(rt_san_asan_only "")
set(rt_san_tsan_only
  "\\.(threads|stress|thread_device)$|_t4$|^host\\.(printf|atomic_lines|in_kernel|module_)")

# The absolute source paths of a target.
function(rt_target_sources target out)
  get_target_property(srcs ${target} SOURCES)
  get_target_property(dir ${target} SOURCE_DIR)
  set(abs)
  foreach(s ${srcs})
    cmake_path(ABSOLUTE_PATH s BASE_DIRECTORY ${dir} OUTPUT_VARIABLE a)
    list(APPEND abs ${a})
  endforeach()
  set(${out} ${abs} PARENT_SCOPE)
endfunction()

# rt_sanitize(<target> <variant>): compile and link with the variant's flags.
function(rt_sanitize target v)
  target_compile_options(${target} PRIVATE ${rt_san_${v}_flags} -g)
  target_link_options(${target} PRIVATE ${rt_san_${v}_flags})
endfunction()

# rt_variant_env(<variant> <out> VAR=value...): a test's environment for the
# variant: the fake drivers and host objects replaced by the variant's, and
# the sanitizer's options added.
function(rt_variant_env v out)
  set(env)
  foreach(e ${ARGN})
    string(REGEX REPLACE "TARGET_FILE:(fake_[a-z0-9]+|rt_host_fixture[a-z0-9_]*)>"
      "TARGET_FILE:\\1_${v}>" e "${e}")
    list(APPEND env "${e}")
  endforeach()
  set(${out} ${env} ${rt_san_${v}_env} PARENT_SCOPE)
endfunction()

# The variant targets. Called by CMakeLists.txt once the plain targets exist.
function(rt_sanitizer_targets)
  set(rt_src ${PROJECT_SOURCE_DIR}/runtime)
  rt_target_sources(gpucc_rt runtime_sources)
  rt_target_sources(gpucc_rt_select select_sources)
  foreach(v ${rt_sanitizers})
    # libgpucc_rt_<v>.so: the same sources, hidden visibility and exports.
    add_library(gpucc_rt_${v} SHARED ${runtime_sources} ${select_sources})
    target_include_directories(gpucc_rt_${v} PUBLIC ${rt_src})
    target_compile_definitions(gpucc_rt_${v} PRIVATE
      $<TARGET_PROPERTY:gpucc_rt,COMPILE_DEFINITIONS>)
    target_link_libraries(gpucc_rt_${v} PUBLIC gpucc_fatbin gpucc_host_abi
      PRIVATE Threads::Threads ${CMAKE_DL_LIBS})
    set_target_properties(gpucc_rt_${v} PROPERTIES C_VISIBILITY_PRESET hidden)
    rt_sanitize(gpucc_rt_${v} ${v})

    foreach(fake fake_cuda fake_hip fake_hip5)
      get_target_property(srcs ${fake} SOURCES)
      add_library(${fake}_${v} MODULE ${srcs})
      target_compile_definitions(${fake}_${v} PRIVATE
        $<TARGET_PROPERTY:${fake},COMPILE_DEFINITIONS>)
      target_link_libraries(${fake}_${v} PRIVATE Threads::Threads)
      set_target_properties(${fake}_${v} PROPERTIES
        C_VISIBILITY_PRESET hidden
        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
      rt_sanitize(${fake}_${v} ${v})
    endforeach()

    # Host objects instrumented too, so that the sanitizer sees the kernels'
    # memory accesses from the worker threads.
    foreach(fixture rt_host_fixture rt_host_fixture_b rt_host_fixture_abi99)
      add_library(${fixture}_${v} MODULE host_fixture.c)
      target_compile_definitions(${fixture}_${v} PRIVATE
        $<TARGET_PROPERTY:${fixture},COMPILE_DEFINITIONS>)
      target_include_directories(${fixture}_${v} PRIVATE ${rt_src})
      target_link_libraries(${fixture}_${v} PRIVATE gpucc_host_abi)
      set_target_properties(${fixture}_${v} PROPERTIES
        C_VISIBILITY_PRESET hidden
        LIBRARY_OUTPUT_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR})
      rt_sanitize(${fixture}_${v} ${v})
    endforeach()

    add_library(rt_test_harness_${v} STATIC harness.c)
    target_compile_definitions(rt_test_harness_${v} PUBLIC _POSIX_C_SOURCE=200809L)
    target_include_directories(rt_test_harness_${v} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
    target_link_libraries(rt_test_harness_${v} PUBLIC gpucc_fatbin)
    rt_sanitize(rt_test_harness_${v} ${v})

    rt_target_sources(rt_host_engine engine_sources)
    add_library(rt_host_engine_${v} STATIC ${engine_sources})
    target_compile_definitions(rt_host_engine_${v} PRIVATE
      $<TARGET_PROPERTY:rt_host_engine,COMPILE_DEFINITIONS>)
    target_include_directories(rt_host_engine_${v} PUBLIC ${rt_src})
    target_link_libraries(rt_host_engine_${v} PUBLIC gpucc_fatbin gpucc_host_abi Threads::Threads)
    rt_sanitize(rt_host_engine_${v} ${v})

    foreach(prog cuda hip nodriver host_module)
      add_executable(rt_${prog}_test_${v} test_${prog}.c)
      target_link_libraries(rt_${prog}_test_${v} PRIVATE gpucc_rt_${v} rt_test_harness_${v}
        Threads::Threads ${CMAKE_DL_LIBS})
      rt_sanitize(rt_${prog}_test_${v} ${v})
    endforeach()
    add_dependencies(rt_host_module_test_${v}
      rt_host_fixture_${v} rt_host_fixture_b_${v} rt_host_fixture_abi99_${v})
    foreach(prog host_exec host_shuffle host_printf)
      add_executable(rt_${prog}_test_${v} test_${prog}.c)
      target_link_libraries(rt_${prog}_test_${v} PRIVATE rt_host_engine_${v}
        rt_test_harness_${v})
      rt_sanitize(rt_${prog}_test_${v} ${v})
    endforeach()
  endforeach()

  # The selection rules parse target ids: worth ASan/UBSan, not TSan.
  if("asan" IN_LIST rt_sanitizers)
    add_executable(rt_select_test_asan test_select.c ${select_sources})
    target_include_directories(rt_select_test_asan PRIVATE ${rt_src})
    target_link_libraries(rt_select_test_asan PRIVATE gpucc_fatbin)
    rt_sanitize(rt_select_test_asan asan)
    add_test(NAME runtime.asan.select COMMAND rt_select_test_asan)
    set_tests_properties(runtime.asan.select PROPERTIES
      ENVIRONMENT "${rt_san_asan_env}" LABELS "sanitizer;asan")
  endif()
endfunction()

# Which variants can run here.
set(rt_sanitizers)
string(FIND "${CMAKE_C_FLAGS}" "-fsanitize" _rt_global_san)
if(NOT _rt_global_san EQUAL -1)
  message(STATUS "runtime: the build already uses a sanitizer; no sanitizer variants")
  return()
endif()

include(CheckCSourceRuns)
foreach(v asan tsan)
  string(TOUPPER ${v} V)
  list(JOIN rt_san_${v}_flags " " CMAKE_REQUIRED_FLAGS)
  set(CMAKE_REQUIRED_LINK_OPTIONS ${rt_san_${v}_flags})
  set(CMAKE_REQUIRED_LIBRARIES Threads::Threads)
  set(CMAKE_REQUIRED_QUIET ON)
  check_c_source_runs([[
#include <pthread.h>
#include <stdlib.h>
static void *run(void *p) { return p; }
int main(void) {
  pthread_t t;
  char *p = malloc(16);
  if (pthread_create(&t, NULL, run, p) != 0 || pthread_join(t, NULL) != 0)
    return 1;
  free(p);
  return 0;
}]] GPUCC_RT_${V}_RUNS)
  unset(CMAKE_REQUIRED_FLAGS)
  unset(CMAKE_REQUIRED_LINK_OPTIONS)
  unset(CMAKE_REQUIRED_LIBRARIES)
  unset(CMAKE_REQUIRED_QUIET)
  if(GPUCC_RT_${V}_RUNS)
    list(APPEND rt_sanitizers ${v})
  else()
    message(STATUS "runtime: ${v} programs do not run here: no runtime.${v}.* tests")
    list(JOIN rt_san_${v}_flags " " flags)
    add_test(NAME runtime.${v}.unavailable COMMAND sh -c
      "echo 'a program built with ${flags} does not run on this machine'; exit 77")
    set_tests_properties(runtime.${v}.unavailable PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endforeach()
