# check_symbols.cmake: libgpucc_rt.so exports the mgpu* ABI and the gpucc*
# API, all of it, and nothing else (no fatbin_*, no rt_*, no libarchive).
#
#   cmake -DNM=<nm> -DLIB=<libgpucc_rt.so> -P check_symbols.cmake

cmake_minimum_required(VERSION 3.25)

set(required
  gpuccSetErrorHandler gpuccBackendName gpuccAssertFailed gpuccPrintEntryResultI64
  gpuccPrintEntryResultF32 gpuccOpSite gpuccAllocSizeFailed
  mgpuModuleLoad mgpuModuleLoadJIT mgpuModuleUnload mgpuModuleGetFunction
  mgpuLaunchKernel mgpuLaunchClusterKernel
  mgpuStreamCreate mgpuStreamDestroy mgpuStreamSynchronize mgpuStreamWaitEvent
  mgpuEventCreate mgpuEventDestroy mgpuEventSynchronize mgpuEventRecord
  mgpuMemAlloc mgpuMemFree mgpuMemcpy mgpuMemset32 mgpuMemset16
  mgpuMemHostRegister mgpuMemHostUnregister
  mgpuMemHostRegisterMemRef mgpuMemHostUnregisterMemRef
  mgpuSetDefaultDevice mgpuTensorMapEncodeTiledMemref mgpuTensorMapEncodeTiled
  mgpuMemGetDeviceMemRef1dFloat mgpuMemGetDeviceMemRef1dInt32)

execute_process(COMMAND ${NM} -D --defined-only ${LIB}
  OUTPUT_VARIABLE out ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${NM} failed on ${LIB}: ${err}")
endif()

string(REPLACE "\n" ";" lines "${out}")
set(found "")
set(stray "")
foreach(line IN LISTS lines)
  # "<address> <type> <name>"; names may carry a @VERSION suffix.
  if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^@ ]+)")
    set(name "${CMAKE_MATCH_1}")
    list(APPEND found ${name})
    # mgpu*: the GPU ABI; gpucc*: gpucc_rt.h; the runner utilities and the
    # async runtime that MLIR's lowering and upstream programs call.
    # (upstream spells one async function mlirAsyncRuntimGetNumWorkerThreads)
    if(NOT name MATCHES "^(mgpu|gpucc|mlirAsyncRuntim|_mlir_ciface_|print|verifyMemRef)"
       AND NOT name MATCHES "^(rtclock|rtsrand|rtrand|rtdrand|memrefCopy|mlirAlloc|mlirAlignedAlloc|mlirFree|mlirAlignedFree)$")
      list(APPEND stray ${name})
    endif()
  endif()
endforeach()

set(missing "")
foreach(name IN LISTS required)
  if(NOT name IN_LIST found)
    list(APPEND missing ${name})
  endif()
endforeach()

list(LENGTH found count)
message(STATUS "${LIB}: ${count} exported symbols")
if(stray)
  message(FATAL_ERROR "exported symbols outside the mgpu*/gpucc*/runner/async ABI: ${stray}")
endif()
if(missing)
  message(FATAL_ERROR "missing exported symbols: ${missing}")
endif()
