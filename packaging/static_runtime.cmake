# static_runtime.cmake: packs libgpucc_rt.a, the static runtime.
#
#   cmake -DLD=ld -DOBJCOPY=objcopy -DNM=nm -DAR=ar -DWORK=<dir> -DOUT=<libgpucc_rt.a>
#         -DOBJECTS=<the .o files of libgpucc_rt.so> -DARCHIVES=<select, fatbin reader>
#         -DZSTD=<libzstd.a> -P static_runtime.cmake
#
# Why one relocatable object rather than an archive of the objects: the
# runtime's files call each other through global symbols (rt_*, fatbin_*,
# host_*), hidden in libgpucc_rt.so but, in a plain archive, visible to
# every program that links it: a program defining its own fatbin_open or
# linking gpucc's fatbin library or another libzstd would clash with them or,
# worse, silently bind to the wrong one. `ld -r` resolves all those calls
# inside one object; objcopy then makes every symbol local but the ones
# libgpucc_rt.so exports, so the archive's namespace is exactly the shared
# library's. The copy of libzstd's decoder inside it is localized too: a
# program may link its own, other, libzstd.
#
# Steps:
#   1. ld -r our objects with the selection rules and the fatbin reader
#      (members pulled as referenced): the runtime as one object;
#   2. localize its hidden symbols; the globals left are what RT_EXPORT marks,
#      i.e. what libgpucc_rt.so exports: that list is written to
#      gpucc_rt.exports (the deploy tests compare it with the shared one);
#   3. ld -r that with libzstd.a: only the decoder's members come in;
#   4. keep those exports global, localize everything else (zstd's API);
#   5. archive the one object, deterministically.
cmake_minimum_required(VERSION 3.25)

foreach(v LD OBJCOPY NM AR WORK OUT OBJECTS ARCHIVES ZSTD)
  if(NOT DEFINED ${v} OR "${${v}}" STREQUAL "")
    message(FATAL_ERROR "static_runtime.cmake: -D${v}= is required")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "static runtime: ${what} failed (${rc}): ${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY ${WORK})
set(own ${WORK}/gpucc_rt_own.o)
set(all ${WORK}/gpucc_rt.o)
set(exports ${WORK}/gpucc_rt.exports)

run("ld -r (runtime)" ${LD} -r -o ${own} ${OBJECTS} ${ARCHIVES})
run("objcopy --localize-hidden" ${OBJCOPY} --localize-hidden ${own})

run("nm" ${NM} -g --defined-only ${own})
string(REPLACE "\n" ";" lines "${run_out}")
set(names "")
foreach(line IN LISTS lines)
  if(line MATCHES "^[0-9a-fA-F]+ [A-Za-z] (.+)$")
    list(APPEND names "${CMAKE_MATCH_1}")
  endif()
endforeach()
list(SORT names)
list(LENGTH names count)
if(count EQUAL 0)
  message(FATAL_ERROR "static runtime: no exported symbol left in ${own}")
endif()
list(JOIN names "\n" text)
file(WRITE ${exports}.tmp "${text}\n")
file(RENAME ${exports}.tmp ${exports})

run("ld -r (libzstd)" ${LD} -r -o ${all} ${own} ${ZSTD})
run("objcopy --keep-global-symbols" ${OBJCOPY} --keep-global-symbols=${exports} ${all})

# The archive: written beside its final name, then renamed into place.
file(REMOVE ${OUT}.tmp)
run("ar" ${AR} rcD ${OUT}.tmp ${all})
file(RENAME ${OUT}.tmp ${OUT})
message(STATUS "libgpucc_rt.a: ${count} exported symbols")
