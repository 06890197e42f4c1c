# GPUCCArchitectures.cmake: the GPU targets of each CMake target, and the
# per-architecture split of release builds. Included by GPUCCConfig.cmake.
#
# GPUCC_ARCHITECTURES (target property): the targets gpucc compiles that
#   target's MLIR sources for, as a CMake list of --offload-arch values:
#   sm_XX, sm_XXa, gfxXXX[:xnack±], host, native (the GPUs of the building
#   machine), all. Unset, empty or OFF: gpucc's default list.
# CMAKE_GPUCC_ARCHITECTURES (variable): the property's initial value.
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
# visits every target instead: a target that has no GPUCC_ARCHITECTURES gets
# the value CMAKE_GPUCC_ARCHITECTURES has at the end of the target's
# directory. Read the property through $<TARGET_PROPERTY:...>, not
# get_target_property() during configuration.

include_guard(GLOBAL)

option(GPUCC_SPLIT_ARCHITECTURES
  "Compile each GPU architecture of each .mlir file as a separate build step" OFF)

# Visits the targets of directory `dir` and of its subdirectories.
function(_gpucc_finish_directory dir)
  get_directory_property(archs DIRECTORY "${dir}" DEFINITION CMAKE_GPUCC_ARCHITECTURES)
  get_directory_property(split DIRECTORY "${dir}" DEFINITION GPUCC_SPLIT_ARCHITECTURES)
  get_directory_property(targets DIRECTORY "${dir}" BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
      continue()
    endif()
    get_property(is_set TARGET ${t} PROPERTY GPUCC_ARCHITECTURES SET)
    if(NOT is_set)
      set_property(TARGET ${t} PROPERTY GPUCC_ARCHITECTURES "${archs}")
    endif()
    # --offload-arch for MLIR sources, read from the property when the build
    # is generated, so the property may itself be a generator expression.
    target_compile_options(${t} PRIVATE "$<$<COMPILE_LANGUAGE:MLIR>:$<$<BOOL:$<TARGET_PROPERTY:GPUCC_ARCHITECTURES>>:--offload-arch=$<JOIN:$<TARGET_PROPERTY:GPUCC_ARCHITECTURES>,$<COMMA>>>>")
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

  get_target_property(archs ${t} GPUCC_ARCHITECTURES)
  if(NOT archs)
    get_directory_property(archs DIRECTORY "${dir}" DEFINITION CMAKE_MLIR_COMPILER_DEFAULT_ARCHITECTURES)
  endif()
  if(archs MATCHES "\\$<")
    message(FATAL_ERROR "GPUCC_SPLIT_ARCHITECTURES: target ${t}: GPUCC_ARCHITECTURES "
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
