# run_e2e.cmake: runs the program built from LLVM 22's host code (e2e.mlir)
# with the fake CUDA driver and checks what reached the driver: the module
# loaded lazily for the right device, the 12-argument launch marshaled, the
# destructor's unload; and the message when no object fits.
#
#   cmake -DPROG=... -DFAKE=... -DLOG=... -P run_e2e.cmake
cmake_minimum_required(VERSION 3.25)

function(run cc expect_rc)
  file(REMOVE ${LOG})
  execute_process(
    COMMAND ${CMAKE_COMMAND} -E env GPUCC_CUDA_LIBRARY=${FAKE} GPUCC_HIP_LIBRARY=/nonexistent
            GPUCC_BACKEND= GPUCC_DEVICE= GPUCC_LOG= FAKE_CUDA_CC=${cc}
            FAKE_CUDA_LOG=${LOG} FAKE_CUDA_DUMP_ARGS=1 ${PROG}
    RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "compute capability ${cc}: exit ${rc}, expected ${expect_rc}: ${err}")
  endif()
  set(log "")
  if(EXISTS ${LOG})
    file(READ ${LOG} log)
  endif()
  set(err "${err}" PARENT_SCOPE)
  set(log "${log}" PARENT_SCOPE)
endfunction()

function(expect text what)
  if(NOT text MATCHES "${what}")
    message(FATAL_ERROR "expected '${what}' in:\n${text}")
  endif()
endfunction()

run(9.0 0)
expect("${log}" "cuModuleLoadData image=FAKECUBIN:sm_90")
expect("${log}" "cuMemAllocManaged size=64 flags=1")
expect("${log}" "cuLaunchKernel name=k grid=2,1,1 block=32,1,1 smem=0 stream=0x[0-9a-f]+ params=0x[0-9a-f]+ extra=\\(nil\\) args=42")
expect("${log}" "cuStreamSynchronize")
expect("${log}" "cuModuleUnload")

run(8.6 0)
expect("${log}" "cuModuleLoadData image=FAKECUBIN:sm_80")

run(7.5 1)
expect("${err}" "gpucc: runtime error: mgpuModuleGetFunction: no code for device 0 'Fake GPU' \\(sm_75\\) in module 'kern', which carries code for: sm_80 sm_90 gfx90a; rebuild with --offload-arch=sm_75")
