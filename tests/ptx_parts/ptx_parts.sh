#!/bin/sh
# A gpu.module of many kernels, built for one NVIDIA target, is finished in
# parts (lowering/device_nvidia_ptx_parts.c): the plan runs ptxas -c on each
# part and nvlink on the objects; the cubin holds every kernel once, the
# build is byte-reproducible and its -### script makes the same bytes;
# with two targets the module stays whole; a module-scope variable keeps
# every kernel in part 0; of two modules only one with most of the
# kernels is parted; the cache keeps parted and whole cubins apart; a
# failing ptxas part or nvlink is a named error that leaves nothing behind,
# and a toolkit without nvlink builds modules whole.
# Needs ptxas and nvlink (exit 77 without).
# Usage: ptx_parts.sh GPUCC LLVM_READELF
set -eu
gpucc=$1 readelf=$2
cuda=${CUDA_PATH:-/usr/local/cuda}
[ -x "$cuda/bin/ptxas" ] && [ -x "$cuda/bin/nvlink" ] || { echo "skipped: no ptxas and nvlink in $cuda/bin"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp" "$work/run"
export TMPDIR="$work/tmp" GPUCC_CACHE_DIR=
cd "$work/run"
. "$(dirname "$0")/../lib/check.sh"

# program KERNELS [global]: KERNELS kernels that scale a buffer; with
# "global", each also bumps a counter in a module-scope variable.
program() {
  n=$1 global=${2:-}
  echo "module attributes {gpu.container_module} {"
  echo "  gpu.module @kernels {"
  [ -n "$global" ] && echo "    memref.global @counter : memref<1xi32> = dense<0>"
  k=0
  while [ $k -lt "$n" ]; do
    echo "    gpu.func @k$k(%a: memref<?xf32>, %n: index) kernel {"
    echo "      %i = gpu.thread_id x"
    echo "      %x = memref.load %a[%i] : memref<?xf32>"
    echo "      %c = arith.constant $k.0 : f32"
    echo "      %y = arith.mulf %x, %c : f32"
    echo "      memref.store %y, %a[%i] : memref<?xf32>"
    if [ -n "$global" ]; then
      echo "      %g = memref.get_global @counter : memref<1xi32>"
      echo "      %z = arith.constant 0 : index"
      echo "      %one = arith.constant 1 : i32"
      echo "      %old = memref.atomic_rmw addi %one, %g[%z] : (i32, memref<1xi32>) -> i32"
    fi
    echo "      gpu.return"
    echo "    }"
    k=$((k + 1))
  done
  echo "  }"
  echo "  func.func @run(%a: memref<?xf32>) {"
  echo "    %c1 = arith.constant 1 : index"
  echo "    %c32 = arith.constant 32 : index"
  echo "    %c0 = arith.constant 0 : index"
  echo "    %n = memref.dim %a, %c0 : memref<?xf32>"
  k=0
  while [ $k -lt "$n" ]; do
    echo "    gpu.launch_func @kernels::@k$k blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1) args(%a : memref<?xf32>, %n : index)"
    k=$((k + 1))
  done
  echo "    return"
  echo "  }"
  echo "}"
}
# two_modules A B: gpu.modules @a and @b of A and B kernels, launched.
two_modules() {
  echo "module attributes {gpu.container_module} {"
  for mod in a:$1 b:$2; do
    name=${mod%%:*} n=${mod#*:} k=0
    echo "  gpu.module @$name {"
    while [ $k -lt "$n" ]; do
      echo "    gpu.func @k$k(%a: memref<?xf32>) kernel {"
      echo "      %i = gpu.thread_id x"
      echo "      %x = memref.load %a[%i] : memref<?xf32>"
      echo "      %c = arith.constant $k.0 : f32"
      echo "      %y = arith.addf %x, %c : f32"
      echo "      memref.store %y, %a[%i] : memref<?xf32>"
      echo "      gpu.return"
      echo "    }"
      k=$((k + 1))
    done
    echo "  }"
  done
  echo "  func.func @run(%a: memref<?xf32>) {"
  echo "    %c1 = arith.constant 1 : index"
  echo "    gpu.launch_func @a::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)"
  echo "    gpu.launch_func @b::@k0 blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%a : memref<?xf32>)"
  echo "    return"
  echo "  }"
  echo "}"
}
program 64 >big.mlir
two_modules 64 64 >alike.mlir
two_modules 96 8 >lopsided.mlir
program 64 global >shared.mlir
program 8 >small.mlir

# kernels CUBIN: its kernel symbols (FUNC, GLOBAL), one line each.
kernels() { "$readelf" -sW "$1" | awk '$4 == "FUNC" && $5 == "GLOBAL" {print $NF}' | sort; }

# The plan: the device job writes two parts, ptxas compiles each
# (relocatable), nvlink joins them into the module's cubin.
"$gpucc" -### --offload-arch=sm_90 -c big.mlir -o big.o >plan.sh 2>plan.err
check plan_device_parts grep -q -- ' -cc1 device .*--device-parts=2 ' plan.sh
check plan_two_ptxas test "$(grep -c 'ptxas .* -c .*\.part[01]\.ptx -o ' plan.sh)" -eq 2
check plan_one_nvlink test "$(grep -c 'nvlink -arch=sm_90 .*part0\.cubin .*part1\.cubin -o ' plan.sh)" -eq 1
check plan_script_same_bytes sh -c "sh -e plan.sh && mv big.o replayed.o && '$gpucc' --offload-arch=sm_90 -c big.mlir -o big.o && cmp replayed.o big.o"
check reproducible sh -c "'$gpucc' --offload-arch=sm_90 -c big.mlir -o again.o && cmp big.o again.o"

# The cubin: an executable, every kernel once.
check cubin_built "$gpucc" --offload-arch=sm_90 --emit=cubin big.mlir -o big.cubin
check cubin_exec sh -c "'$readelf' -h big.cubin | grep -q 'EXEC'"
kernels big.cubin >got
k=0
while [ $k -lt 64 ]; do echo "k$k"; k=$((k + 1)); done | sort >want
check cubin_all_kernels_once cmp got want

# Few kernels, or several targets: whole.
"$gpucc" -### --offload-arch=sm_90 -c small.mlir -o small.o >small.sh 2>/dev/null
check small_whole sh -c "! grep -q -e nvlink -e '--device-parts' small.sh"
"$gpucc" -### --offload-arch=sm_80,sm_90 -c big.mlir -o two.o >two.sh 2>/dev/null
check two_targets_whole sh -c "! grep -q -e nvlink -e ' -c /' -e '--device-parts' two.sh"

# Two modules alike: their two ptxas jobs fill two cores already, both
# stay whole; a module with most of the kernels (96 of 104) is parted
# (three parts of 32), the small one stays whole.
"$gpucc" -### --offload-arch=sm_90 -c alike.mlir -o alike.o >alike.sh 2>/dev/null
check alike_whole sh -c "! grep -q -e nvlink -e '--device-parts' alike.sh"
"$gpucc" -### --offload-arch=sm_90 -c lopsided.mlir -o lopsided.o >lopsided.sh 2>/dev/null
check lopsided_parts sh -c "grep -q -- '--device-parts=3,1 ' lopsided.sh && test \$(grep -c 'ptxas .* -c ' lopsided.sh) -eq 3"
check lopsided_builds "$gpucc" --offload-arch=sm_90 -c lopsided.mlir -o lopsided.o

# A module-scope variable is the kernels' shared state: one copy, so every
# kernel stays in part 0 (the other part is the header alone).
rm -rf "$TMPDIR"/gpucc-*
check shared_built "$gpucc" --offload-arch=sm_90 --save-temps --emit=cubin shared.mlir -o shared.cubin
kernels shared.cubin >got_shared
check shared_all_kernels cmp got_shared want
check shared_one_counter test "$("$readelf" -sW shared.cubin | awk '$4 == "OBJECT" && $NF == "counter"' | wc -l)" -eq 1
tmpdir=$(ls -d "$TMPDIR"/gpucc-* | head -n 1)
check shared_part0_all test "$(grep -c '\.entry' "$tmpdir"/*-sm_90.part0.ptx)" -eq 64
check shared_part1_none test "$(grep -c '\.entry' "$tmpdir"/*-sm_90.part1.ptx)" -eq 0
rm -rf "$TMPDIR"/gpucc-*

# The cache: a parted cubin is not served to a build of two targets, whose
# sm_90 cubin is whole.
export GPUCC_CACHE_DIR="$work/cache"
check cache_one "$gpucc" --offload-arch=sm_90 -c big.mlir -o c1.o
check cache_two "$gpucc" --offload-arch=sm_80,sm_90 --emit=cubin big.mlir
mv big-kernels-sm_90.cubin cached.cubin
check cache_two_clean "$gpucc" --no-cache --offload-arch=sm_80,sm_90 --emit=cubin big.mlir
check cache_keeps_apart cmp cached.cubin big-kernels-sm_90.cubin

# A toolkit whose ptxas fails on one part, whose nvlink fails, or which
# has no nvlink: an error naming the tool, the module, the target and the
# part, no output, no temp files; without nvlink, modules stay whole.
export GPUCC_CACHE_DIR=
fake=$work/fakecuda
mkdir -p "$fake/bin"
ln -s "$cuda/nvvm" "$fake/nvvm"
cat >"$fake/bin/ptxas" <<PTXAS
#!/bin/sh
for a in "\$@"; do case \$a in *.part1.ptx) [ -e "$fake/fail-part1" ] && { echo "ptxas fatal : part 1" >&2; exit 1; } ;; esac; done
exec "$cuda/bin/ptxas" "\$@"
PTXAS
printf '#!/bin/sh\necho "nvlink error : failed" >&2\nexit 1\n' >"$fake/bin/nvlink"
chmod +x "$fake/bin/ptxas" "$fake/bin/nvlink"
rm -rf "$TMPDIR"/gpucc-*
touch "$fake/fail-part1"
"$gpucc" --cuda-path="$fake" --offload-arch=sm_90 -c big.mlir -o bad.o 2>err_part && rc=0 || rc=$?
check part_fails sh -c "test $rc -eq 1 && grep -q 'ptxas: @kernels for sm_90, part 2 of 2) exited with status 1' err_part"
rm "$fake/fail-part1"
"$gpucc" --cuda-path="$fake" --offload-arch=sm_90 -c big.mlir -o bad.o 2>err_join && rc=0 || rc=$?
check join_fails sh -c "test $rc -eq 1 && grep -q 'nvlink: @kernels for sm_90, 2 parts) exited with status 1' err_join"
check failed_no_output test ! -e bad.o
check failed_no_temp_files test -z "$(ls "$TMPDIR")"
rm "$fake/bin/nvlink"
"$gpucc" -### --cuda-path="$fake" --offload-arch=sm_90 -c big.mlir -o whole.o >no_nvlink.sh 2>/dev/null
check no_nvlink_whole sh -c "! grep -q -e nvlink -e '--device-parts' no_nvlink.sh && grep -q 'ptxas -arch sm_90' no_nvlink.sh"
checks_done
