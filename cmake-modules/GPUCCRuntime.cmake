# GPUCCRuntime.cmake: which gpucc runtime each CMake target links, as
# CMake's CUDA_RUNTIME_LIBRARY chooses cudart. Included by
# GPUCCArchitectures.cmake, whose end-of-configure visit of every target
# calls _gpucc_link_runtime.
#
# MLIR_RUNTIME_LIBRARY (target property): Static (the default), Shared or
#   None, case-insensitive; read on the target that links, so a static
#   library's MLIR objects bring the runtime its executable chooses.
#   - Static: libgpucc_rt.a. The program needs the C library alone and runs
#     where gpucc is not installed; a shared library gets its own copy,
#     linked -z nodelete (the host backend's threads run in its code).
#   - Shared: libgpucc_rt.so.0, found in the build tree through the build
#     run path and, installed, as any library (the system's directories, the
#     target's INSTALL_RPATH, LD_LIBRARY_PATH): CMake puts no run path into
#     gpucc's prefix in installed binaries. For processes that dlopen
#     libraries built by gpucc, which must then share one runtime.
#   - None: CMake adds no runtime (a target linked by gpucc still gets
#     gpucc's static one).
# CMAKE_MLIR_RUNTIME_LIBRARY (variable): the property's initial value, read
#   at the end of each target's directory.
#
# Why link items rather than CMake's implicit libraries of a language: those
# are one list for the whole language and cannot depend on a target, and
# CMake adds them only when another language's compiler links. Here every
# target whose link takes MLIR objects gets the same items, in its link line
# (executables, shared and module libraries with MLIR sources or with
# $<TARGET_OBJECTS> of an object library that has them) or in its link
# interface (static and object libraries), as generator expressions on the
# consuming target's MLIR_RUNTIME_LIBRARY and TYPE.

include_guard(GLOBAL)

# Does target `t` compile MLIR sources, or take the objects of a target that
# does? (SOURCES as written, before generator expressions are evaluated.)
function(_gpucc_has_mlir t out)
  set(${out} 0 PARENT_SCOPE)
  get_target_property(sources ${t} SOURCES)
  if(NOT sources)
    return()
  endif()
  foreach(src IN LISTS sources)
    if(src MATCHES "\\.mlir(bc)?(>|$)")
      set(${out} 1 PARENT_SCOPE)
      return()
    endif()
    string(REGEX MATCHALL "\\$<TARGET_OBJECTS:[^>]+>" objs "${src}")
    foreach(o IN LISTS objs)
      string(REGEX REPLACE "^\\$<TARGET_OBJECTS:(.+)>$" "\\1" lib "${o}")
      if(TARGET ${lib} AND NOT lib STREQUAL t)
        _gpucc_has_mlir(${lib} has)
        if(has)
          set(${out} 1 PARENT_SCOPE)
          return()
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()

# The link items of the runtime as generator expressions that pick, on the
# target that links, the list of its MLIR_RUNTIME_LIBRARY (the
# CMAKE_MLIR_RUNTIME_LIBRARY_LINK_OPTIONS_<KIND> of directory `dir`, read off
# gpucc's link lines when MLIR was enabled).
function(_gpucc_runtime_items dir out)
  set(kind "$<UPPER_CASE:$<TARGET_PROPERTY:MLIR_RUNTIME_LIBRARY>>")
  set(items "")
  foreach(k STATIC SHARED)
    get_directory_property(opts DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_RUNTIME_LIBRARY_LINK_OPTIONS_${k})
    foreach(item IN LISTS opts)
      string(REPLACE "," "$<COMMA>" item "${item}")
      list(APPEND items "$<$<STREQUAL:${kind},${k}>:${item}>")
    endforeach()
  endforeach()
  set(type "$<TARGET_PROPERTY:TYPE>")
  list(APPEND items "$<$<AND:$<STREQUAL:${kind},STATIC>,$<OR:$<STREQUAL:${type},SHARED_LIBRARY>,$<STREQUAL:${type},MODULE_LIBRARY>>>:-Wl$<COMMA>-z$<COMMA>nodelete>")
  set(${out} "${items}" PARENT_SCOPE)
endfunction()

# Gives target `t` of directory `dir` its MLIR_RUNTIME_LIBRARY (from
# CMAKE_MLIR_RUNTIME_LIBRARY there, Static when unset), checks it, and adds
# the runtime where `t` links MLIR objects.
function(_gpucc_link_runtime t dir)
  get_property(is_set TARGET ${t} PROPERTY MLIR_RUNTIME_LIBRARY SET)
  if(NOT is_set)
    get_directory_property(choice DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_RUNTIME_LIBRARY)
    if("${choice}" STREQUAL "")
      set(choice Static)
    endif()
    set_property(TARGET ${t} PROPERTY MLIR_RUNTIME_LIBRARY "${choice}")
  endif()
  get_target_property(choice ${t} MLIR_RUNTIME_LIBRARY)
  string(TOUPPER "${choice}" upper)
  if(NOT choice MATCHES "\\$<" AND NOT upper MATCHES "^(STATIC|SHARED|NONE)$")
    message(FATAL_ERROR "target ${t}: MLIR_RUNTIME_LIBRARY is '${choice}'; "
      "it must be Static, Shared or None (CMAKE_MLIR_RUNTIME_LIBRARY sets it for every target)")
  endif()

  get_directory_property(compiler DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER)
  if(NOT compiler)
    return() # MLIR is not enabled where `t` lives
  endif()
  _gpucc_has_mlir(${t} has)
  if(NOT has)
    return()
  endif()
  _gpucc_runtime_items("${dir}" items)
  get_target_property(type ${t} TYPE)
  # set_property, not target_link_libraries: the project may have used
  # either signature of the latter on `t`, and they do not mix.
  if(type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$")
    foreach(item IN LISTS items)
      set_property(TARGET ${t} APPEND PROPERTY INTERFACE_LINK_LIBRARIES "$<LINK_ONLY:${item}>")
    endforeach()
  else()
    set_property(TARGET ${t} APPEND PROPERTY LINK_LIBRARIES ${items})
  endif()
endfunction()
