#!/bin/sh
# Bad input gets a clear, located error, a documented exit status, no output
# file and no temp file left behind. Usage: bad_input.sh GPUCC BADDIR
set -eu
gpucc=$1 bad=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
fails=0

# expect NAME STATUS REGEX -- ARGS...: runs gpucc ARGS in an empty directory
# with a private TMPDIR and checks all four promises.
expect() {
  name=$1 want_rc=$2 regex=$3
  shift 4
  dir="$work/$name"
  mkdir -p "$dir/tmp"
  set +e
  (cd "$dir" && TMPDIR="$dir/tmp" "$gpucc" "$@" -o out >stdout 2>stderr)
  rc=$?
  set -e
  problem=""
  [ "$rc" -eq "$want_rc" ] || problem="exit status $rc, want $want_rc"
  grep -Eq "$regex" "$dir/stderr" || problem="$problem; message does not match /$regex/"
  # MLIR's conversion machinery is not the user's business, and nothing is
  # linked once a compile step failed.
  ! grep -q "unrealized_conversion_cast" "$dir/stderr" || problem="$problem; mentions a conversion cast"
  ! grep -Eq "(^| )ld(\.lld)?: " "$dir/stderr" || problem="$problem; the link ran"
  [ ! -e "$dir/out" ] || problem="$problem; output file written"
  leftover=$(ls -A "$dir/tmp"; ls -A "$dir" | grep -v '^\(tmp\|stdout\|stderr\)$' || true)
  [ -z "$leftover" ] || problem="$problem; left behind: $leftover"
  if [ -n "$problem" ]; then
    echo "FAIL $name: $problem" >&2
    sed 's/^/  | /' "$dir/stderr" >&2
    fails=$((fails + 1))
  else
    echo "ok   $name: $(head -n 1 "$dir/stderr")"
  fi
}

printf '\177ELF\002\001\001\000garbage\000\377\376\375{{{}}}' >"$work/garbage.mlir"

expect syntax       1 "syntax\.mlir:2:[0-9]+: error: "            -- "$bad/syntax.mlir"
expect unknown_op   1 "unknown_op\.mlir:3:5: error: .*gpu\.frobnicate" -- "$bad/unknown_op.mlir"
expect verifier     1 "verifier\.mlir:3:5: error: .*return"       -- "$bad/verifier.mlir"
expect empty        1 "empty\.mlir:1:1: error: empty input"        -- "$bad/empty.mlir"
expect garbage      1 "garbage\.mlir:[0-9]+:[0-9]+: error: "       -- "$work/garbage.mlir"
expect missing      1 "^gpucc: error: cannot open 'nope\.mlir': No such file" -- nope.mlir
expect bad_target   2 "^gpucc: error: unknown target 'sm_13'"      -- --offload-arch=sm_80,sm_13 "$bad/syntax.mlir"
expect bad_option   2 "^gpucc: error: unknown option '--frobnicate'" -- --frobnicate "$bad/syntax.mlir"
expect option_typo   2 "^gpucc: error: unknown option '--ofload-arch=sm_90'; did you mean '--offload-arch'\?$" -- --ofload-arch=sm_90 "$bad/syntax.mlir"
# Options that do not go together are usage errors too (exit 2, as gcc).
expect o_several_c   2 "^gpucc: error: cannot specify -o with -c and several inputs$" -- -c "$bad/syntax.mlir" "$bad/syntax.mlir" -o several.o
expect bundle_no_c   2 "^gpucc: error: --bundle needs -c$" -- --bundle "$bad/syntax.mlir"
expect no_input     2 "^gpucc: error: no input files"              --
expect bad_opt      2 "^gpucc: error: invalid optimization level"  -- -O7 "$bad/syntax.mlir"
expect unlowerable_kernel 1 "unlowerable_kernel\.mlir:7:12: error: cannot lower 'math\.ipowi' for target 'sm_90': " \
  -- --offload-arch=sm_90 "$bad/unlowerable_kernel.mlir"
# Divergent reductions of scalars lower (the lanes that reach them take
# part); of vectors they do not, on any target.
expect reduce_divergent 1 "reduce_divergent\.mlir:12:14: error: cannot lower 'gpu\.subgroup_reduce' for target 'sm_90': gpucc lowers subgroup reductions of scalars .*not of vectors" \
  -- -c --offload-arch=sm_90 "$bad/reduce_divergent.mlir"
expect reduce_divergent_host 1 "reduce_divergent\.mlir:12:14: error: cannot lower 'gpu\.subgroup_reduce' for the host target: gpucc lowers subgroup reductions of scalars" \
  -- -c --offload-arch=host "$bad/reduce_divergent.mlir"
expect unlowerable_kernel_host 1 "unlowerable_kernel\.mlir:7:12: error: cannot lower 'math\.ipowi' for the host target: " \
  -- --offload-arch=host "$bad/unlowerable_kernel.mlir"
expect unlowerable_host 1 "unlowerable_host\.mlir:3:8: error: cannot lower 'gpu\.thread_id' for the host: " \
  -- --offload-arch=host "$bad/unlowerable_host.mlir"
expect unlowerable_type 1 "unlowerable_type\.mlir:2:1: error: cannot lower 'func\.func' for the host: its signature holds a type" \
  -- --offload-arch=host "$bad/unlowerable_type.mlir"
printf 'module attributes {gpu.container_module} {\n  gpu.module @k {\n  }\n}\n' >"$work/no_main.mlir"
expect launch_arity 1 "launch_arity\.mlir:14:7: error: 'gpu\.launch_func' passes 0 arguments, but kernel 'add_one' takes 2" \
  -- --offload-arch=host "$bad/launch_arity.mlir"
expect launch_types 1 "launch_types\.mlir:13:7: error: 'gpu\.launch_func' passes 'index' as argument 0 of kernel 'add_one', which takes 'memref<\?xf32>'" \
  -- --offload-arch=host "$bad/launch_types.mlir"
expect no_main 1 "^gpucc: error: no input defines 'main'.*use -c" -- --offload-arch=host "$work/no_main.mlir"
printf 'int helper(void) { return 1; }\n' >"$work/helper.c"
expect unlowerable_no_link 1 "unlowerable_host\.mlir:3:8: error: cannot lower 'gpu\.thread_id'" \
  -- --offload-arch=host "$bad/unlowerable_host.mlir" "$work/helper.c"

# gpu.printf formats are checked like -Wformat, but as errors: a string
# conversion used to compile and then crash the program.
expect printf_string 1 "printf_string\.mlir:9:7: error: gpu\.printf: conversion 1 '%s' \(argument 1\) takes a string" \
  -- --offload-arch=host "$bad/printf_string.mlir"
expect printf_wide_string 1 "printf_wide_string\.mlir:9:7: error: gpu\.printf: conversion 1 '%ls' \(argument 1\) takes a string" \
  -- --offload-arch=host "$bad/printf_wide_string.mlir"
expect printf_too_few 1 "printf_too_few\.mlir:9:7: error: gpu\.printf: conversion 2 '%d' has no argument" \
  -- --offload-arch=host "$bad/printf_too_few.mlir"
expect printf_too_many 1 "printf_too_many\.mlir:9:7: error: gpu\.printf: 2 arguments, but the format takes 1" \
  -- --offload-arch=host "$bad/printf_too_many.mlir"
expect printf_unknown 1 "printf_unknown\.mlir:9:7: error: gpu\.printf: conversion 1 '%q' \(argument 1\) is not a printf conversion" \
  -- --offload-arch=host "$bad/printf_unknown.mlir"
expect printf_int_float 1 "printf_int_float\.mlir:9:7: error: gpu\.printf: conversion 1 '%d' takes an integer .*argument 1 is 'f32'" \
  -- --offload-arch=host "$bad/printf_int_float.mlir"
expect printf_int_long 1 "printf_int_long\.mlir:10:7: error: gpu\.printf: conversion 1 '%hd' takes an integer .*argument 1 is 'i64'" \
  -- "$bad/printf_int_long.mlir"
expect matrix_in_kernel 1 "matrix_in_kernel\.mlir:7:12: error: 'llvm\.intr\.matrix\.transpose' needs the host target .*targets asked: sm_90,gfx942" \
  -- --offload-arch=sm_90,gfx942,host "$bad/matrix_in_kernel.mlir"
expect printf_wide_d_werror 1 "printf_wide_d\.mlir:9:7: error: gpu\.printf: 2 conversions without a length modifier take a 64-bit integer or index; printed whole, as %lld \[-Wformat\]" \
  -- -Werror --offload-arch=host "$bad/printf_wide_d.mlir"
expect printf_star 1 "printf_star\.mlir:9:7: error: gpu\.printf: the '\*' width of conversion 1 '%\*d' .*argument 1 is 'f64'" \
  -- --offload-arch=sm_90 "$bad/printf_star.mlir"
# Workgroup memory from memref.alloc becomes a kernel's attribution; a
# dynamic size or an alloc in a device function cannot (it was a malloc per
# thread, wrong on every target).
expect workgroup_alloc_dynamic 1 "workgroup_alloc_dynamic\.mlir:5:13: error: workgroup memory from memref\.alloc needs a static shape" \
  -- --offload-arch=sm_90,host -c "$bad/workgroup_alloc_dynamic.mlir"
expect workgroup_alloc_function 1 "workgroup_alloc_function\.mlir:5:13: error: workgroup memory from memref\.alloc is supported in kernels only" \
  -- --offload-arch=sm_90,host -c "$bad/workgroup_alloc_function.mlir"

# What a target cannot compile is refused before any job starts: one error
# per op name, at its first location, naming what it needs and the targets
# that lack it. refused NAME REGEX -- ARGS... runs with -v, which prints each
# job as it starts: nothing but the errors and the parse time may show
# (-fno-caret-diagnostics: the messages without their source lines).
refused() {
  name=$1 regex=$2
  shift 3
  before=$fails
  expect "$name" 1 "$regex" -- -v -fno-caret-diagnostics "$@"
  [ "$fails" -eq "$before" ] || return 0
  extra=$(grep -Ev ': error: |^gpucc: [0-9.]+ s ' "$work/$name/stderr" || true)
  repeated=$(grep -o "error: '[^']*'" "$work/$name/stderr" | sort | uniq -d)
  if [ -n "$extra" ] || [ -n "$repeated" ]; then
    echo "FAIL $name: a job ran or an op was reported twice:" >&2
    printf '%s\n' "$extra" "$repeated" | sed 's/^/  | /' >&2
    fails=$((fails + 1))
  fi
}
refused warpgroup_mma "^[^ ]*warpgroup_mma\.mlir:10:12: error: 'nvgpu\.warpgroup\.mma' needs sm_90a; targets asked: sm_80,gfx942$" \
  -- --offload-arch=sm_80,gfx942 "$bad/warpgroup_mma.mlir"
refused warpgroup_mma_some "^[^ ]*warpgroup_mma\.mlir:10:12: error: 'nvgpu\.warpgroup\.mma' needs sm_90a; targets asked: gfx942,sm_80$" \
  -- --offload-arch=gfx942,sm_90a,sm_80 "$bad/warpgroup_mma.mlir"
refused mma_sync_sm75 "^[^ ]*mma_sync_sm75\.mlir:8:12: error: 'nvgpu\.mma\.sync' needs sm_80 or later; targets asked: sm_75$" \
  -- --offload-arch=sm_75,sm_80 "$bad/mma_sync_sm75.mlir"
refused nvvm_on_amd "^[^ ]*nvvm_on_amd\.mlir:5:12: error: 'nvvm\.read\.ptx\.sreg\.laneid' needs an NVIDIA target; targets asked: gfx942$" \
  -- --offload-arch=sm_90,gfx942 "$bad/nvvm_on_amd.mlir"
refused wmma_on_cdna "^[^ ]*wmma_on_cdna\.mlir:7:12: error: 'amdgpu\.wmma' needs an AMD gfx11 or gfx12 \(WMMA\); targets asked: gfx90a$" \
  -- --offload-arch=gfx1100,gfx90a "$bad/wmma_on_cdna.mlir"
refused amdgpu_on_host "^[^ ]*amdgpu_on_host\.mlir:7:5: error: 'amdgpu\.lds_barrier' needs an AMD target; targets asked: host$" \
  -- --offload-arch=host "$bad/amdgpu_on_host.mlir"

[ "$fails" -eq 0 ] || { echo "$fails case(s) failed" >&2; exit 1; }
