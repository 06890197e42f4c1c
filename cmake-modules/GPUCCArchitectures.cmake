# GPUCCArchitectures.cmake: the GPU targets of each CMake target, the
# per-architecture split of release builds, and (GPUCCRuntime.cmake) the
# runtime each target links. Included by GPUCCConfig.cmake.
#
# MLIR_ARCHITECTURES (target property): the targets gpucc compiles that
#   target's MLIR sources for, as a CMake list of --offload-arch values:
#   sm_XX, sm_XXa, gfxXXX[:xnack±], host, native (the GPUs of the building
#   machine), all. Unset, empty or OFF: gpucc's default list. Checked when
#   the project is configured against the architectures gpucc knows
#   (`gpucc --list-gpu-arch`): an unknown one is a configure error naming
#   it, not one error per file at build time.
# CMAKE_MLIR_ARCHITECTURES (variable): the property's initial value.
# GPUCC_ARCHITECTURES, CMAKE_GPUCC_ARCHITECTURES: the old names of the two
#   (the language is MLIR); still read, with a deprecation message.
# GPUCC_SPLIT_ARCHITECTURES (option, and target property of the same name):
#   compile each architecture of each MLIR source as its own build step
#   (`gpucc --device-only --offload-arch=X`), then bundle them with the host
#   code into the object (`gpucc --bundle`): Ninja runs the steps in
#   parallel and a cache or remote executor can distribute them; the object
#   is byte-identical to the one-step build. Needs a gpucc with both flags and
#   a single-configuration generator; the device steps get CMAKE_MLIR_FLAGS
#   and CMAKE_MLIR_FLAGS_<CONFIG>, not target compile options.
#
# CMake initializes only its own properties from variables when a target is
# created (define_property(INITIALIZE_FROM_VARIABLE) refuses names starting
# with CMAKE_), so one deferred call at the end of the top-level directory
# visits every target instead: a target that has no MLIR_ARCHITECTURES gets
# the value CMAKE_MLIR_ARCHITECTURES has at the end of the target's
# directory. Read the property through $<TARGET_PROPERTY:...>, not
# get_target_property() during configuration.

include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/GPUCCRuntime.cmake")

option(GPUCC_SPLIT_ARCHITECTURES
  "Compile each GPU architecture of each .mlir file as a separate build step" OFF)

# The value of CMAKE_MLIR_ARCHITECTURES in directory `dir`, or of its old
# name, with a deprecation message.
function(_gpucc_directory_archs dir out)
  get_directory_property(archs DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_ARCHITECTURES)
  if("${archs}" STREQUAL "")
    get_directory_property(archs DIRECTORY "${dir}" DEFINITION CMAKE_GPUCC_ARCHITECTURES)
    if(NOT "${archs}" STREQUAL "")
      _gpucc_deprecated(CMAKE_GPUCC_ARCHITECTURES CMAKE_MLIR_ARCHITECTURES)
    endif()
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

# One deprecation message per old name and configure run.
function(_gpucc_deprecated old new)
  get_property(said GLOBAL PROPERTY _GPUCC_DEPRECATED_${old})
  if(NOT said)
    set_property(GLOBAL PROPERTY _GPUCC_DEPRECATED_${old} 1)
    message(DEPRECATION "${old} is deprecated: use ${new}, which means the same")
  endif()
endfunction()

# Checks the MLIR_ARCHITECTURES of target `t` (a plain list; generator
# expressions are left to gpucc) against what gpucc knows.
function(_gpucc_check_archs t dir)
  get_target_property(archs ${t} MLIR_ARCHITECTURES)
  if(NOT archs OR archs MATCHES "\\$<")
    return()
  endif()
  get_directory_property(known DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_KNOWN_ARCHITECTURES)
  if(NOT known)
    return() # MLIR is not enabled there, or gpucc lists nothing
  endif()
  foreach(arch IN LISTS archs)
    string(REGEX REPLACE ":.*" "" chip "${arch}")
    if(NOT chip IN_LIST known AND NOT chip MATCHES "^(native|all)$")
      list(JOIN known ", " known_text)
      message(FATAL_ERROR "target ${t}: unknown GPU architecture '${arch}' in MLIR_ARCHITECTURES "
        "(${archs}); gpucc knows ${known_text}, native and all")
    endif()
  endforeach()
endfunction()

# CUDA_ARCHITECTURES on a target with MLIR sources, in a directory without
# the CUDA language (which would have set it on every target), was meant
# for gpucc, which does not read it: say so rather than ignore it.
function(_gpucc_warn_cuda_archs t dir mlir_set)
  get_property(cuda_set TARGET ${t} PROPERTY CUDA_ARCHITECTURES SET)
  get_directory_property(cuda DIRECTORY "${dir}" DEFINITION CMAKE_CUDA_COMPILER_LOADED)
  if(NOT cuda_set OR mlir_set OR cuda)
    return()
  endif()
  _gpucc_has_mlir(${t} has)
  if(has)
    get_target_property(cuda_archs ${t} CUDA_ARCHITECTURES)
    message(WARNING "target ${t}: CUDA_ARCHITECTURES (${cuda_archs}) does not reach gpucc; "
      "set MLIR_ARCHITECTURES to --offload-arch names instead (sm_90 for 90)")
  endif()
endfunction()

# Visits the targets of directory `dir` and of its subdirectories.
function(_gpucc_finish_directory dir)
  _gpucc_directory_archs("${dir}" archs)
  get_directory_property(split DIRECTORY "${dir}" DEFINITION GPUCC_SPLIT_ARCHITECTURES)
  get_directory_property(targets DIRECTORY "${dir}" BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_property(is_set TARGET ${t} PROPERTY MLIR_ARCHITECTURES SET)
    if(NOT is_set)
      get_property(old_set TARGET ${t} PROPERTY GPUCC_ARCHITECTURES SET)
      if(old_set)
        _gpucc_deprecated(GPUCC_ARCHITECTURES MLIR_ARCHITECTURES)
        get_target_property(archs_t ${t} GPUCC_ARCHITECTURES)
        set_property(TARGET ${t} PROPERTY MLIR_ARCHITECTURES "${archs_t}")
      else()
        set_property(TARGET ${t} PROPERTY MLIR_ARCHITECTURES "${archs}")
      endif()
    endif()
    _gpucc_check_archs(${t} "${dir}")
    _gpucc_warn_cuda_archs(${t} "${dir}" ${is_set})
    # --offload-arch for MLIR sources, read from the property when the build
    # is generated, so the property may itself be a generator expression.
    target_compile_options(${t} PRIVATE "$<$<COMPILE_LANGUAGE:MLIR>:$<$<BOOL:$<TARGET_PROPERTY:MLIR_ARCHITECTURES>>:--offload-arch=$<JOIN:$<TARGET_PROPERTY:MLIR_ARCHITECTURES>,$<COMMA>>>>")
    _gpucc_link_runtime(${t} "${dir}")
    get_property(is_set TARGET ${t} PROPERTY GPUCC_SPLIT_ARCHITECTURES SET)
    if(NOT is_set)
      set_property(TARGET ${t} PROPERTY GPUCC_SPLIT_ARCHITECTURES "${split}")
    endif()
    get_target_property(split_t ${t} GPUCC_SPLIT_ARCHITECTURES)
    if(split_t)
      _gpucc_split_target(${t} "${dir}")
    endif()
  endforeach()
  get_directory_property(subdirs DIRECTORY "${dir}" SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _gpucc_finish_directory("${sub}")
  endforeach()
endfunction()

# One build step per (MLIR source, architecture) of target `t`, defined in
# directory `dir`. The steps are custom commands of a helper target
# <t>_gpucc_device (custom commands must live in the directory that runs this
# function, the top level); the object rule of each source then bundles
# their outputs with the host code.
function(_gpucc_split_target t dir)
  get_directory_property(compiler DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER)
  get_directory_property(has_device_only DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_HAS_DEVICEONLY)
  get_directory_property(has_bundle DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_HAS_BUNDLE)
  if(NOT compiler)
    return() # MLIR is not enabled where `t` lives
  endif()
  if(NOT has_device_only OR NOT has_bundle)
    message(WARNING "GPUCC_SPLIT_ARCHITECTURES: ${compiler} has no --device-only/--bundle; "
      "target ${t} compiles its MLIR sources in one step")
    return()
  endif()
  get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
  if(multi_config)
    message(WARNING "GPUCC_SPLIT_ARCHITECTURES needs a single-configuration generator; "
      "target ${t} compiles its MLIR sources in one step")
    return()
  endif()

  get_target_property(archs ${t} MLIR_ARCHITECTURES)
  if(NOT archs)
    get_directory_property(archs DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES)
  endif()
  if(archs MATCHES "\\$<")
    message(FATAL_ERROR "GPUCC_SPLIT_ARCHITECTURES: target ${t}: MLIR_ARCHITECTURES "
      "must be a plain list, not a generator expression: ${archs}")
  endif()
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  get_directory_property(flags DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_FLAGS)
  get_directory_property(config_flags DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_FLAGS_${config})
  separate_arguments(flags UNIX_COMMAND "${flags} ${config_flags}")
  get_directory_property(launcher DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_LAUNCHER)

  get_target_property(src_dir ${t} SOURCE_DIR)
  get_target_property(sources ${t} SOURCES)
  set(out_dir "${CMAKE_BINARY_DIR}/CMakeFiles/gpucc-split/${t}")
  set(all_outputs)
  foreach(src IN LISTS sources)
    if(src MATCHES "\\$<" OR NOT src MATCHES "\\.mlir(bc)?$")
      continue()
    endif()
    get_filename_component(src "${src}" ABSOLUTE BASE_DIR "${src_dir}")
    file(RELATIVE_PATH rel "${src_dir}" "${src}")
    if(rel MATCHES "^\\.\\./")
      get_filename_component(rel "${src}" NAME)
    endif()
    # Ninja makes output directories, the Makefile generators do not.
    get_filename_component(rel_dir "${out_dir}/${rel}" DIRECTORY)
    file(MAKE_DIRECTORY "${rel_dir}")
    set(outputs)
    foreach(arch IN LISTS archs)
      string(REPLACE ":" "_" arch_file "${arch}")
      set(out "${out_dir}/${rel}.${arch_file}.gpucc-device")
      add_custom_command(OUTPUT "${out}"
        COMMAND ${launcher} "${compiler}" ${flags} --device-only "--offload-arch=${arch}"
                -c "${src}" -o "${out}"
        DEPENDS "${src}"
        COMMENT "Building MLIR device code for ${arch}: ${rel}"
        VERBATIM)
      list(APPEND outputs "${out}")
    endforeach()
    list(APPEND all_outputs ${outputs})
    # The object rule bundles the device objects: <FLAGS> gets
    # `--bundle <files>` for this target only (source properties are shared
    # by the targets of a directory).
    set_property(SOURCE "${src}" TARGET_DIRECTORY ${t} APPEND PROPERTY OBJECT_DEPENDS ${outputs})
    list(JOIN outputs "$<SEMICOLON>" bundle_inputs)
    set_property(SOURCE "${src}" TARGET_DIRECTORY ${t} APPEND PROPERTY COMPILE_OPTIONS
      "$<$<STREQUAL:$<TARGET_PROPERTY:NAME>,${t}>:--bundle$<SEMICOLON>${bundle_inputs}>")
  endforeach()
  if(all_outputs)
    add_custom_target(${t}_gpucc_device DEPENDS ${all_outputs})
    # Ninja follows OBJECT_DEPENDS to the steps by file; a target-level
    # dependency there would also hold back the target's C objects.
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
      add_dependencies(${t} ${t}_gpucc_device)
    endif()
  endif()
endfunction()

get_property(_gpucc_deferred GLOBAL PROPERTY _GPUCC_FINISH_DEFERRED)
if(NOT _gpucc_deferred)
  set_property(GLOBAL PROPERTY _GPUCC_FINISH_DEFERRED 1)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}"
    CALL _gpucc_finish_directory "${CMAKE_SOURCE_DIR}")
endif()
unset(_gpucc_deferred)
