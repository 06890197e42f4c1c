# deb_stage.cmake: CPack runs this (CPACK_PRE_BUILD_SCRIPTS) after it has
# installed the project into its staging directories and before it packs
# them, to give the .deb files what Debian policy asks and `cmake --install`
# does not do (packaging/CMakeLists.txt sets the CPACK_GPUCC_* variables):
#
#   - the shared runtime (libgpucc_rt.so.0 and its file) moves from gpucc's
#     staging directory (CMake component Unspecified: the project's install
#     rules name none) to libgpucc-rt0's (component runtime), so that it is
#     a shared-library package of its own; the development link
#     libgpucc_rt.so stays in gpucc;
#   - man pages and changelogs are compressed with gzip -9n (no name, no
#     time: the same bytes each build);
#   - the static runtime loses its debugging sections, as dh_strip does, and
#     every ELF file the compiler's .comment;
#
# Other generators (TGZ) get the compression and stripping only.

function(gpucc_stage_gzip file)
  execute_process(COMMAND "${CPACK_GPUCC_GZIP}" -9nf "${file}" RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deb_stage: gzip -9n ${file} failed")
  endif()
endfunction()

# One staging root per component (DEB), or one for the whole package.
set(roots "")
foreach(comp IN ITEMS Unspecified runtime)
  if(IS_DIRECTORY "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/${comp}")
    list(APPEND roots "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/${comp}")
  endif()
endforeach()
if(NOT roots)
  set(roots "${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
endif()

foreach(root IN LISTS roots)
  set(usr "${root}${CPACK_PACKAGING_INSTALL_PREFIX}")
  file(GLOB_RECURSE pages LIST_DIRECTORIES false "${usr}/share/man/*.[1-9]")
  file(GLOB_RECURSE changelogs LIST_DIRECTORIES false "${usr}/share/doc/*/changelog")
  foreach(f IN LISTS pages changelogs)
    gpucc_stage_gzip("${f}")
  endforeach()
  # CPACK_STRIP_FILES stripped the executables and the shared library;
  # the compiler's .comment goes too, and the archive's debugging sections.
  file(GLOB archives "${usr}/${CPACK_GPUCC_LIBDIR}/libgpucc_rt.a")
  file(GLOB elves "${usr}/${CPACK_GPUCC_BINDIR}/gpucc*" "${usr}/${CPACK_GPUCC_LIBDIR}/libgpucc_rt.so.*.*")
  foreach(f IN LISTS archives elves)
    if(IS_SYMLINK "${f}")
      continue()
    endif()
    set(debug "")
    if(f MATCHES "\\.a$")
      set(debug --strip-debug)
    endif()
    execute_process(COMMAND "${CPACK_GPUCC_STRIP}" ${debug} --remove-section=.comment "${f}"
      RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
      message(FATAL_ERROR "deb_stage: strip ${f} failed")
    endif()
  endforeach()
endforeach()

if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()

set(main "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/Unspecified${CPACK_PACKAGING_INSTALL_PREFIX}")
set(lib_pkg "${CPACK_TEMPORARY_INSTALL_DIRECTORY}/runtime${CPACK_PACKAGING_INSTALL_PREFIX}")
if(NOT IS_DIRECTORY "${main}" OR NOT IS_DIRECTORY "${lib_pkg}")
  message(FATAL_ERROR "deb_stage: no staging directories for components Unspecified and runtime "
    "under ${CPACK_TEMPORARY_INSTALL_DIRECTORY}")
endif()
file(GLOB shared RELATIVE "${main}" "${main}/${CPACK_GPUCC_LIBDIR}/libgpucc_rt.so.*")
if(NOT shared)
  message(FATAL_ERROR "deb_stage: no libgpucc_rt.so.* in ${main}/${CPACK_GPUCC_LIBDIR}")
endif()
file(MAKE_DIRECTORY "${lib_pkg}/${CPACK_GPUCC_LIBDIR}")
foreach(f IN LISTS shared)
  file(RENAME "${main}/${f}" "${lib_pkg}/${f}")
endforeach()

