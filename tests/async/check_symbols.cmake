# check_symbols.cmake: libgpucc_rt.so exports the whole mlirAsyncRuntime*
# ABI: every name below, every one that MLIR's own libmlir_async_runtime.so
# exports (when it is installed: a newer MLIR may add some), and none of the
# async runtime's internal async_* functions.
#
#   cmake -DNM=<nm> -DLIB=<libgpucc_rt.so> [-DUPSTREAM=<libmlir_async_runtime.so>]
#         -P check_symbols.cmake

cmake_minimum_required(VERSION 3.25)

# What -convert-async-to-llvm declares (LLVM 22), and the test helper.
set(required
  mlirAsyncRuntimeAddRef mlirAsyncRuntimeDropRef
  mlirAsyncRuntimeCreateToken mlirAsyncRuntimeCreateValue mlirAsyncRuntimeCreateGroup
  mlirAsyncRuntimeEmplaceToken mlirAsyncRuntimeEmplaceValue
  mlirAsyncRuntimeSetTokenError mlirAsyncRuntimeSetValueError
  mlirAsyncRuntimeIsTokenError mlirAsyncRuntimeIsValueError mlirAsyncRuntimeIsGroupError
  mlirAsyncRuntimeAwaitToken mlirAsyncRuntimeAwaitValue mlirAsyncRuntimeAwaitAllInGroup
  mlirAsyncRuntimeExecute mlirAsyncRuntimeGetValueStorage mlirAsyncRuntimeAddTokenToGroup
  mlirAsyncRuntimeAwaitTokenAndExecute mlirAsyncRuntimeAwaitValueAndExecute
  mlirAsyncRuntimeAwaitAllInGroupAndExecute mlirAsyncRuntimGetNumWorkerThreads
  mlirAsyncRuntimePrintCurrentThreadId)

function(defined_symbols lib out)
  execute_process(COMMAND ${NM} -D --defined-only ${lib}
    OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "'${NM}' failed on '${lib}': ${err}")
  endif()
  string(REGEX MATCHALL "[^\n]+" lines "${text}")
  set(names)
  foreach(line IN LISTS lines)
    if(line MATCHES "^[0-9a-fA-F]* *[A-Za-z] ([^@ ]+)")
      list(APPEND names ${CMAKE_MATCH_1})
    endif()
  endforeach()
  set(${out} ${names} PARENT_SCOPE)
endfunction()

defined_symbols(${LIB} ours)

if(UPSTREAM AND EXISTS ${UPSTREAM})
  defined_symbols(${UPSTREAM} theirs)
  foreach(name IN LISTS theirs)
    # __mlir_execution_engine_init/destroy take a C++ llvm::StringMap: only
    # for mlir-runner's --shared-libs, which finds the others by name anyway.
    if(name MATCHES "^mlirAsyncRuntim")
      list(APPEND required ${name})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES required)
endif()

set(missing)
foreach(name IN LISTS required)
  if(NOT name IN_LIST ours)
    list(APPEND missing ${name})
  endif()
endforeach()
set(internal)
foreach(name IN LISTS ours)
  if(name MATCHES "^async_")
    list(APPEND internal ${name})
  endif()
endforeach()

list(LENGTH required count)
message(STATUS "${LIB}: ${count} async runtime functions checked")
if(missing)
  message(FATAL_ERROR "missing exported symbols: ${missing}")
endif()
if(internal)
  message(FATAL_ERROR "internal async runtime symbols exported: ${internal}")
endif()
