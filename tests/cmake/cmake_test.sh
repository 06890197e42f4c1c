#!/bin/sh
# CMake integration checks, one CASE per CTest test (glue around cmake,
# ninja, cpack, dpkg and pkg-config):
#   cmake_test.sh CASE
# The environment names the tools and places (see CMakeLists.txt): CMAKE,
# CPACK, NINJA, GPUCC_BUILD (gpucc's build tree), GPUCC_PKG (its
# lib/cmake/GPUCC), GPUCC_SRC, LIBDIR (CMAKE_INSTALL_LIBDIR), PROJECTS
# (tests/cmake/projects). Every case works in a fresh directory, builds with
# Ninja and runs what it built on the CPU. Exit 77 (skipped): gpucc lacks a
# flag the case needs.
set -eu
case_=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_BACKEND=host   # run kernels on the CPU, GPU or not

example=$GPUCC_SRC/examples/cmake
gpucc=$GPUCC_BUILD/bin/gpucc
four="sm_80;sm_90;gfx90a;gfx942;host" # four GPU targets, and the CPU to run on
ok_line="saxpy: 0 of 1000 wrong"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*"; exit 77; }
has_flag() { "$gpucc" --help | grep -q "^ *$1[ =]"; }
# configure DIR SOURCE [ARGS...]: a Ninja build of SOURCE in DIR (log: DIR.log)
configure() {
  d=$1 s=$2
  shift 2
  "$CMAKE" -S "$s" -B "$d" -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA" "$@" >"$d.log" 2>&1 ||
    { cat "$d.log" >&2; fail "configuring $s"; }
}
build() { "$NINJA" -C "$1" "${2:-all}" >>"$1.log" 2>&1 || { cat "$1.log" >&2; fail "building $1"; }; }
# expect_output PROGRAM LINE: PROGRAM succeeds and prints exactly LINE
expect_output() {
  out=$("$1" 2>&1) || fail "$1 exited with status $?: $out"
  [ "$out" = "$2" ] || fail "$1 printed '$out', want '$2'"
}
# expect_cache DIR VAR VALUE: the configured cache holds VAR=VALUE
expect_cache() {
  got=$(sed -n "s/^$2:[A-Z]*=//p" "$1/CMakeCache.txt")
  [ "$got" = "$3" ] || fail "$2 is '$got', want '$3'"
}
# expect_runtime PROGRAM DIR: PROGRAM loads libgpucc_rt from DIR
expect_runtime() {
  ldd "$1" | grep -q "libgpucc_rt.so.* => $2/libgpucc_rt" ||
    { ldd "$1" >&2; fail "$1 does not load libgpucc_rt from $2"; }
}
# log_has LOG TEXT: CMake's message in LOG says TEXT (messages are wrapped)
log_has() { tr -s ' \n' '  ' <"$1" | grep -qF -- "$2"; }
# expect_static_runtime PROGRAM [DIR]: PROGRAM carries the runtime (no
# libgpucc_rt.so) and no run path into DIR (default: gpucc's build tree)
expect_static_runtime() {
  readelf -d "$1" >dyn.out || fail "readelf -d $1"
  grep -q "NEEDED.*libgpucc_rt" dyn.out && { cat dyn.out >&2; fail "$1 needs libgpucc_rt.so, want the static runtime"; }
  no_runpath_into "$1" "${2:-$GPUCC_BUILD}"
}
# no_runpath_into PROGRAM DIR: no RPATH or RUNPATH of PROGRAM names DIR
no_runpath_into() {
  readelf -d "$1" | grep -E "R(UN)?PATH" >path.out || true
  grep -q "$2" path.out && fail "$1 has a run path into $2: $(cat path.out)"
  return 0
}
# expect_targets PROGRAM T...: PROGRAM's fat binaries carry exactly targets T
expect_targets() {
  p=$1
  shift
  "$GPUCC_BUILD/bin/gpucc-fatbin" list "$p" >list.out || fail "gpucc-fatbin list $p"
  got=$(grep -oE '(^|[[:space:]])(sm_[0-9]+a?|gfx[0-9a-f]+|host)([[:space:]:]|$)' list.out |
    tr -d ' \t:' | sort -u | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort -u | tr '\n' ' ')
  [ "$got" = "$want" ] || fail "$p carries targets '$got', want '$want'"
}
# expect_plan DIR [DESCRIPTION...]: `ninja -n` would run exactly these steps,
# or nothing at all without arguments
expect_plan() {
  d=$1
  shift
  "$NINJA" -C "$d" -n >plan.out || fail "ninja -n failed"
  if [ $# -eq 0 ]; then
    grep -q "^ninja: no work to do" plan.out || { cat plan.out >&2; fail "ninja has work to do, want none"; }
    return
  fi
  grep '^\[' plan.out | sed 's/^\[[0-9]*\/[0-9]*\] //' | sort >plan.got
  printf '%s\n' "$@" | sort >plan.want
  diff -u plan.want plan.got >&2 || fail "ninja -n plans other steps than expected"
}
# install_prefix DIR: cmake --install of gpucc's build into DIR
install_prefix() {
  "$CMAKE" --install "$GPUCC_BUILD" --prefix "$1" >install.log 2>&1 || { cat install.log >&2; fail "cmake --install"; }
}

case $case_ in
build_tree) # find_package through GPUCC_DIR into the build tree
  configure app "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_MLIR_ARCHITECTURES="$four"
  expect_cache app CMAKE_MLIR_COMPILER "$gpucc"
  build app
  expect_output app/saxpy "$ok_line"
  expect_static_runtime app/saxpy
  expect_targets app/saxpy sm_80 sm_90 gfx90a gfx942 host
  ;;

install_prefix) # find_package through CMAKE_PREFIX_PATH into an install
  install_prefix "$work/prefix"
  for f in "$LIBDIR/cmake/GPUCC/GPUCCConfig.cmake" "$LIBDIR/cmake/GPUCC/GPUCCConfigVersion.cmake" \
    "$LIBDIR/cmake/GPUCC/GPUCCTargets.cmake" "$LIBDIR/pkgconfig/gpucc_rt.pc"; do
    [ -f "prefix/$f" ] || fail "$f not installed"
  done
  configure app "$example" -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_MLIR_ARCHITECTURES="$four"
  expect_cache app GPUCC_DIR "$work/prefix/$LIBDIR/cmake/GPUCC"
  expect_cache app CMAKE_MLIR_COMPILER "$work/prefix/bin/gpucc"
  build app
  expect_output app/saxpy "$ok_line"
  expect_static_runtime app/saxpy "$work/prefix"
  expect_targets app/saxpy sm_80 sm_90 gfx90a gfx942 host
  ;;

installed) # installed programs run with gpucc's prefix gone, whichever runtime
  install_prefix "$work/prefix"
  configure app "$PROJECTS/installed" -DCMAKE_PREFIX_PATH="$work/prefix" -DEXAMPLE_DIR="$example" \
    -DCMAKE_MLIR_ARCHITECTURES=host -DCMAKE_INSTALL_PREFIX="$work/dest"
  build app install
  bin=dest/bin
  lib=dest/$LIBDIR
  for p in app_static app_lib app_shared; do
    [ -x "$bin/$p" ] || fail "$p not installed"
  done
  expect_static_runtime "$bin/app_static" "$work/prefix"
  expect_static_runtime "$lib/libkernels.so" "$work/prefix"
  expect_static_runtime "$bin/app_lib" "$work/prefix"
  readelf -d "$bin/app_shared" | grep -q "NEEDED.*libgpucc_rt.so.0" || fail "app_shared (MLIR_RUNTIME_LIBRARY Shared) does not need libgpucc_rt.so.0"
  no_runpath_into "$bin/app_shared" "$work/prefix"
  # The build tree's copy finds the runtime through its build run path.
  expect_runtime app/app_shared "$work/prefix/$LIBDIR"
  mv prefix gone
  for p in app_static app_lib; do
    expect_output "$bin/$p" "$ok_line"
  done
  # The shared runtime is found where the system would have it.
  out=$(LD_LIBRARY_PATH="$work/gone/$LIBDIR" "$bin/app_shared" 2>&1) || fail "app_shared: $out"
  [ "$out" = "$ok_line" ] || fail "app_shared printed '$out'"
  if "$bin/app_shared" >/dev/null 2>&1; then
    fail "app_shared ran with no libgpucc_rt.so.0 to load"
  fi
  ;;

arch_check) # architectures checked at configure time; the old names still work
  bad() { # bad NAME ARGS...: configuring with ARGS fails, naming NAME
    name=$1
    shift
    if "$CMAKE" -S "$example" -B bad -G Ninja -DCMAKE_MAKE_PROGRAM="$NINJA" -DGPUCC_DIR="$GPUCC_PKG" "$@" >bad.log 2>&1; then
      fail "configuring with $* succeeded"
    fi
    log_has bad.log "unknown GPU architecture '$name'" || { cat bad.log >&2; fail "the configure error does not name '$name'"; }
    rm -rf bad
  }
  bad sm_999 "-DCMAKE_MLIR_ARCHITECTURES=host;sm_999"
  bad gfx9000:xnack+ "-DCMAKE_GPUCC_ARCHITECTURES=gfx9000:xnack+"
  # What gpucc accepts passes: features, native, all.
  configure ok "$example" -DGPUCC_DIR="$GPUCC_PKG" "-DCMAKE_MLIR_ARCHITECTURES=gfx90a:xnack+;sm_90;host"
  grep -q "Manually-specified variables were not used" ok.log && { cat ok.log >&2; fail "CMAKE_MLIR_ARCHITECTURES reported unused"; }
  "$NINJA" -C ok -t commands saxpy | grep -q -- "--offload-arch=gfx90a:xnack+,sm_90,host " || fail "CMAKE_MLIR_ARCHITECTURES does not reach gpucc"
  "$CMAKE" ok -DCMAKE_MLIR_ARCHITECTURES=all >>ok.log 2>&1 || { cat ok.log >&2; fail "'all' refused"; }
  # The old variable: a deprecation message, and the same effect.
  configure old "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_GPUCC_ARCHITECTURES=gfx942
  log_has old.log "CMAKE_GPUCC_ARCHITECTURES is deprecated: use CMAKE_MLIR_ARCHITECTURES" || { cat old.log >&2; fail "no deprecation message"; }
  "$NINJA" -C old -t commands saxpy | grep -q -- "--offload-arch=gfx942 " || fail "CMAKE_GPUCC_ARCHITECTURES does not reach gpucc"
  # A bad runtime choice is refused too.
  if "$CMAKE" old -DCMAKE_MLIR_RUNTIME_LIBRARY=dynamic >rt.log 2>&1; then
    fail "CMAKE_MLIR_RUNTIME_LIBRARY=dynamic accepted"
  fi
  log_has rt.log "MLIR_RUNTIME_LIBRARY is 'dynamic'; it must be Static, Shared or None" || { cat rt.log >&2; fail "bad runtime message"; }
  ;;

incremental) # touching a file rebuilds its object and the link, nothing else
  cp -R "$example" src
  configure app src -DCMAKE_PREFIX_PATH="$GPUCC_BUILD" -DCMAKE_MLIR_ARCHITECTURES=host
  expect_cache app GPUCC_DIR "$GPUCC_PKG"
  build app
  expect_plan app
  touch src/kernels.mlir
  expect_plan app "Building MLIR object CMakeFiles/saxpy.dir/kernels.mlir.o" "Linking C executable saxpy"
  build app
  expect_plan app
  touch src/main.c
  expect_plan app "Building C object CMakeFiles/saxpy.dir/main.c.o" "Linking C executable saxpy"
  build app
  expect_plan app
  # Configuring again changes no command line.
  "$CMAKE" app >>app.log 2>&1 || fail "reconfiguring"
  expect_plan app
  expect_output app/saxpy "$ok_line"
  ;;

depfile) # gcc-style depfiles, read by Ninja (deps = gcc)
  has_flag -MD || skip "gpucc has no -MD"
  configure app "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_MLIR_ARCHITECTURES=host
  build app
  "$NINJA" -C app -t deps CMakeFiles/saxpy.dir/kernels.mlir.o >deps.out
  grep -q "kernels.mlir.o: #deps 1, .*(VALID)" deps.out || { cat deps.out >&2; fail "no depfile recorded for kernels.mlir.o"; }
  grep -q "^ *$example/kernels.mlir\$" deps.out || { cat deps.out >&2; fail "depfile does not name kernels.mlir"; }
  expect_plan app
  ;;

kinds) # executables, static, object libraries, MLIR-only programs, per-target archs
  configure app "$PROJECTS/kinds" -DGPUCC_DIR="$GPUCC_PKG" -DEXAMPLE_DIR="$example" -DCMAKE_MLIR_ARCHITECTURES=host
  log_has app.log "target mixed: CUDA_ARCHITECTURES (90) does not reach gpucc" || { cat app.log >&2; fail "no warning for CUDA_ARCHITECTURES"; }
  log_has app.log "target archs: CUDA_ARCHITECTURES" && fail "CUDA_ARCHITECTURES warning for a target that does not set it"
  build app
  for p in mixed with_static with_objects archs sub/sub_archs; do
    expect_output "app/$p" "$ok_line"
  done
  expect_output app/mlir_only 0
  expect_targets app/mixed host
  expect_targets app/archs gfx942 host
  expect_targets app/sub/sub_archs gfx90a host
  "$NINJA" -C app -t commands archs | grep "gpucc.* -c .*kernels.mlir" >cmd.out || fail "no gpucc command for archs"
  grep -q -- ' -I\| -D' cmd.out && fail "C include directories or definitions reach gpucc: $(cat cmd.out)"
  expect_plan app
  ;;

shared) # add_library(SHARED) of MLIR sources, linked by gpucc -shared
  has_flag -shared || skip "gpucc has no -shared"
  configure app "$PROJECTS/kinds" -DGPUCC_DIR="$GPUCC_PKG" -DEXAMPLE_DIR="$example" \
    -DCMAKE_MLIR_ARCHITECTURES=host -DWITH_SHARED=ON
  build app with_shared
  expect_output app/with_shared "$ok_line"
  ldd app/with_shared | grep -q "libkshared.so => $work/app/" || { ldd app/with_shared >&2; fail "with_shared does not load libkshared"; }
  ;;

launcher) # CMAKE_MLIR_COMPILER_LAUNCHER wraps gpucc compiles; CMAKE_MLIR_FLAGS reach them
  cat >launch.sh <<'EOF'
echo "$@" >>"$(dirname "$0")/launch.log"
exec "$@"
EOF
  configure app "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_MLIR_ARCHITECTURES=host \
    -DCMAKE_MLIR_COMPILER_LAUNCHER="sh;$work/launch.sh" -DCMAKE_MLIR_FLAGS=-O1
  build app
  grep -q "^$gpucc -O1 .* -c $example/kernels.mlir " launch.log ||
    fail "the launcher did not run gpucc -O1 (CMAKE_MLIR_FLAGS) on kernels.mlir: $(cat launch.log)"
  expect_output app/saxpy "$ok_line"
  ;;

version) # version variables and imported targets; no C compiler needed
  configure app "$PROJECTS/version" -DGPUCC_DIR="$GPUCC_PKG" -DWANT=0.1
  grep -q "^-- GPUCC 0\.1\.[0-9]* (0\.1\.[0-9]*) gpucc $gpucc MLIR GPUCC 0\.1\." app.log || { cat app.log >&2; fail "version variables"; }
  if "$CMAKE" -S "$PROJECTS/version" -B app2 -G Ninja -DGPUCC_DIR="$GPUCC_PKG" -DWANT=0.2 >app2.log 2>&1; then
    fail "find_package(GPUCC 0.2) accepted gpucc 0.1"
  fi
  grep -q "0\.1\.[0-9]" app2.log || { cat app2.log >&2; fail "the version refusal does not name the version found"; }
  ;;

pkgconfig) # gpucc_rt.pc links gpucc's objects into a C program, no CMake
  install_prefix "$work/prefix"
  export PKG_CONFIG_PATH="$work/prefix/$LIBDIR/pkgconfig"
  [ "$(pkg-config --modversion gpucc_rt)" = "$("$gpucc" --version | sed 's/^gpucc \([^ ]*\).*/\1/')" ] ||
    fail "gpucc_rt.pc has version $(pkg-config --modversion gpucc_rt)"
  # shellcheck disable=SC2046
  echo '#include <gpucc_rt.h>' | cc -fsyntax-only $(pkg-config --cflags gpucc_rt) -x c - || fail "gpucc_rt.h through pkg-config"
  "$work/prefix/bin/gpucc" --offload-arch=host -c "$example/kernels.mlir" -o kernels.o
  # shellcheck disable=SC2046
  cc "$example/main.c" kernels.o $(pkg-config --libs gpucc_rt) -Wl,-rpath,"$work/prefix/$LIBDIR" -o app ||
    fail "linking with pkg-config --libs gpucc_rt"
  expect_output ./app "$ok_line"
  expect_runtime ./app "$work/prefix/$LIBDIR"
  ;;

package) # the .deb files from CPack, for the deb and lintian cases (PKG_DIR)
  rm -rf "$PKG_DIR"
  "$CPACK" -G DEB --config "$GPUCC_BUILD/CPackConfig.cmake" -B "$work/pkg" >cpack.log 2>&1 || { cat cpack.log >&2; fail "cpack -G DEB"; }
  mkdir -p "$PKG_DIR.tmp"
  cp pkg/*.deb "$PKG_DIR.tmp/"
  mv "$PKG_DIR.tmp" "$PKG_DIR"
  ;;

deb) # the .deb from CPack, unpacked with dpkg -x, builds the example
  [ -d "$PKG_DIR" ] || fail "no packages in $PKG_DIR: run the cmake.package test first"
  cp -R "$PKG_DIR" pkg
  [ -f pkg/gpucc_*.deb ] || fail "cpack made no gpucc .deb"
  [ -f pkg/libgpucc-rt0_*.deb ] || fail "cpack made no libgpucc-rt0 .deb"
  dpkg-deb -f pkg/gpucc_*.deb Package Version Depends >control
  # MLIR and LLVM are inside gpucc: the package needs neither at run time.
  grep -q "^Depends: .*libarchive13" control || { cat control >&2; fail "the .deb's Depends misses libarchive13"; }
  grep -Eq "^Depends: .*(libmlir|libllvm)" control && { cat control >&2; fail "the .deb depends on LLVM's libraries"; }
  for deb in pkg/*.deb; do
    dpkg -x "$deb" root
  done
  configure app "$example" -DCMAKE_PREFIX_PATH="$work/root/usr" -DCMAKE_MLIR_ARCHITECTURES="$four"
  expect_cache app CMAKE_MLIR_COMPILER "$work/root/usr/bin/gpucc"
  build app
  expect_output app/saxpy "$ok_line"
  expect_static_runtime app/saxpy "$work/root"
  expect_targets app/saxpy sm_80 sm_90 gfx90a gfx942 host
  ;;

lintian) # the .deb files pass lintian and say what policy asks
  command -v lintian >/dev/null 2>&1 || skip "no lintian"
  [ -d "$PKG_DIR" ] || fail "no packages in $PKG_DIR: run the cmake.package test first"
  cp -R "$PKG_DIR" pkg
  main=$(echo pkg/gpucc_*.deb) lib=$(echo pkg/libgpucc-rt0_*.deb)
  [ -f "$main" ] && [ -f "$lib" ] || fail "cpack made no gpucc and libgpucc-rt0 packages: $(ls pkg)"
  version=$(dpkg-deb -f "$main" Version)
  # The runtime: its own package with shlibs and the ldconfig trigger, no
  # maintainer scripts; gpucc needs exactly this version of it.
  dpkg-deb --ctrl-tarfile "$lib" | tar -t >ctrl.out
  for f in shlibs triggers; do grep -q "^\./$f\$" ctrl.out || fail "libgpucc-rt0 has no $f"; done
  grep -q "post" ctrl.out && fail "libgpucc-rt0 has maintainer scripts: $(cat ctrl.out)"
  dpkg-deb --info "$lib" shlibs | grep -q "^libgpucc_rt 0 libgpucc-rt0 (>= $version)\$" || fail "libgpucc-rt0's shlibs: $(dpkg-deb --info "$lib" shlibs)"
  dpkg-deb -c "$lib" | grep -q "usr/$LIBDIR/libgpucc_rt.so.0 -> " || fail "libgpucc-rt0 lacks libgpucc_rt.so.0"
  dpkg-deb -c "$main" | awk '{print $6}' | grep -q "libgpucc_rt\.so\." && fail "gpucc ships the shared runtime too"
  deps=$(dpkg-deb -f "$main" Depends)
  for d in "libgpucc-rt0 (= $version)" "libc6 (>= " "libarchive13 (>= " "lld-22"; do
    case $deps in *"$d"*) ;; *) fail "gpucc's Depends lack '$d': $deps" ;; esac
  done
  case $deps in *libmlir* | *libllvm*) fail "gpucc depends on LLVM's libraries, which it links statically: $deps" ;; esac
  dpkg-deb -f "$main" Recommends | grep -q "libclang-rt-22-dev" || fail "gpucc does not recommend libclang-rt-22-dev"
  # The changelog's top entry is this version.
  dpkg-deb --fsys-tarfile "$main" | tar -xO ./usr/share/doc/gpucc/changelog.gz | gzip -d | head -n 1 >top.out
  grep -q "^gpucc ($version) " top.out || fail "changelog starts with '$(cat top.out)', not version $version"
  # No error and no warning but one: the package is not multiarch (its
  # libdir is the build's CMAKE_INSTALL_LIBDIR), so its .pc files are not in
  # lib/<triplet>/pkgconfig, which only cross-compilers care about.
  lintian --fail-on error,warning --suppress-tags pkg-config-unavailable-for-cross-compilation \
    "$main" "$lib" >lintian.out 2>&1 || { cat lintian.out >&2; fail "lintian"; }
  grep -E "^[EW]: " lintian.out && fail "lintian reported the above"
  ;;

split_plan) # GPUCC_SPLIT_ARCHITECTURES's build steps, with a stand-in gpucc
  # The stand-in has --device-only (writes its argv) and --bundle (checks its
  # device files, drops them, runs the real gpucc), so this checks the CMake
  # side whatever the real driver has.
  cat >fake-gpucc <<EOF
#!/bin/sh
real='$gpucc'
EOF
  cat >>fake-gpucc <<'EOF'
for a; do
  [ "$a" = --help ] && { "$real" --help; echo "  --device-only  (stand-in)"; echo "  --bundle  (stand-in)"; exit 0; }
done
case " $* " in
*" --device-only "*)
  prev=
  for a; do [ "$prev" = -o ] && out=$a; prev=$a; done
  echo "$*" >"$out"; exit 0 ;;
*" --bundle "*)
  for a; do
    shift
    case $a in
    --bundle) ;;
    *.gpucc-device) [ -f "$a" ] || { echo "fake-gpucc: no $a" >&2; exit 1; } ;;
    *) set -- "$@" "$a" ;;
    esac
  done ;;
esac
exec "$real" "$@"
EOF
  chmod +x fake-gpucc
  configure app "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_MLIR_COMPILER="$work/fake-gpucc" \
    -DCMAKE_BUILD_TYPE=Release -DGPUCC_SPLIT_ARCHITECTURES=ON -DCMAKE_MLIR_ARCHITECTURES="sm_90;gfx942;host"
  expect_plan app "Building MLIR device code for sm_90: kernels.mlir" \
    "Building MLIR device code for gfx942: kernels.mlir" "Building MLIR device code for host: kernels.mlir" \
    "Building C object CMakeFiles/saxpy.dir/main.c.o" "Building MLIR object CMakeFiles/saxpy.dir/kernels.mlir.o" \
    "Linking C executable saxpy"
  "$NINJA" -C app -t commands CMakeFiles/saxpy.dir/kernels.mlir.o | tail -n 1 >bundle.cmd
  for arch in sm_90 gfx942 host; do
    grep -q -- "--bundle .*kernels.mlir.$arch.gpucc-device" bundle.cmd || fail "bundle step lacks $arch: $(cat bundle.cmd)"
  done
  build app
  expect_output app/saxpy "$ok_line"
  expect_plan app
  touch "$work/app/CMakeFiles/gpucc-split/saxpy/kernels.mlir.host.gpucc-device"
  expect_plan app "Building MLIR object CMakeFiles/saxpy.dir/kernels.mlir.o" "Linking C executable saxpy"
  ;;

split) # the split build gives the same object and executable as one step
  has_flag --device-only || skip "gpucc has no --device-only"
  has_flag --bundle || skip "gpucc has no --bundle"
  for mode in OFF ON; do
    configure "$mode" "$example" -DGPUCC_DIR="$GPUCC_PKG" -DCMAKE_BUILD_TYPE=Release \
      -DGPUCC_SPLIT_ARCHITECTURES=$mode -DCMAKE_MLIR_ARCHITECTURES="$four"
    build "$mode"
    expect_output "$mode/saxpy" "$ok_line"
  done
  n=$("$NINJA" -C ON -t commands saxpy | grep -c -- "--device-only") || true
  [ "$n" -eq 5 ] || fail "$n --device-only steps, want 5"
  cmp OFF/CMakeFiles/saxpy.dir/kernels.mlir.o ON/CMakeFiles/saxpy.dir/kernels.mlir.o || fail "objects differ"
  cmp OFF/saxpy ON/saxpy || fail "executables differ"
  ;;

*) fail "unknown case '$case_'" ;;
esac
echo "ok: $case_"
