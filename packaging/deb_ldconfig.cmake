# deb_ldconfig.cmake: CPack runs this (CPACK_POST_BUILD_SCRIPTS) after it
# has written the packages. CPack's DEB generator gives a package with a
# shared library in /usr/lib postinst and postrm scripts that run ldconfig;
# since dpkg 1.18 the package's "activate-noawait ldconfig" trigger
# (packaging/debian/triggers) does that, and lintian warns about the scripts
# (maintscript-calls-ldconfig). CPack cannot be told to leave them out, so
# libgpucc-rt0's package is unpacked, loses them and is packed again with
# dpkg-deb. Without dpkg-deb the package keeps them: they are redundant,
# not wrong.

if(NOT CPACK_GENERATOR STREQUAL "DEB")
  return()
endif()
find_program(DPKG_DEB dpkg-deb)
if(NOT DPKG_DEB)
  message(STATUS "deb_ldconfig: no dpkg-deb; libgpucc-rt0 keeps its ldconfig scripts")
  return()
endif()

function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deb_ldconfig: ${ARGN} failed: ${err}")
  endif()
endfunction()

foreach(deb IN LISTS CPACK_PACKAGE_FILES)
  get_filename_component(name "${deb}" NAME)
  if(NOT name MATCHES "^libgpucc-rt[0-9]+_.*\\.deb$")
    continue()
  endif()
  set(tree "${deb}.tree")
  file(REMOVE_RECURSE "${tree}")
  run(${DPKG_DEB} --raw-extract "${deb}" "${tree}")
  file(REMOVE "${tree}/DEBIAN/postinst" "${tree}/DEBIAN/postrm")
  # Written beside the package, then renamed over it.
  run(${DPKG_DEB} --root-owner-group -Zxz --build "${tree}" "${deb}.tmp")
  file(RENAME "${deb}.tmp" "${deb}")
  file(REMOVE_RECURSE "${tree}")
endforeach()
