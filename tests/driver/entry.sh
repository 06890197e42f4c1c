#!/bin/sh
# -e NAME and --entry-point-result (issue 23): the program starts in NAME
# and prints what it returns as mlir-runner does (integers in decimal, f32
# as %e), exit 0; mismatches and entries mlir-runner cannot run are located
# errors; without -e, main keeps C's meaning, an llvm.func main without a
# result exits 0 and a main taking memrefs is refused.
#   entry.sh GPUCC DIR
set -u
gpucc=$1 dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
fails=0
check() { # check NAME CONDITION-COMMAND...
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
# runs NAME EXPECTED-STDOUT GPUCC-ARGS...: builds for the host, runs, and
# checks the output and exit status 0.
runs() {
  name=$1 want=$2
  shift 2
  if ! "$gpucc" --offload-arch=host "$@" -o "$name" 2>"$name.err"; then
    check "$name" false
    cat "$name.err"
    return
  fi
  "./$name" >"$name.out" 2>&1
  rc=$?
  check "$name" sh -c "test $rc -eq 0 && test \"\$(cat $name.out)\" = '$want'"
}
runs e_i32 42 -e entry_i32 --entry-point-result=i32 "$dir/results.mlir"
runs e_i32_inferred 42 -e entry_i32 "$dir/results.mlir"
runs e_i64 -7000000000 -e entry_i64 -entry-point-result=i64 "$dir/results.mlir"
runs e_long_spelling -7000000000 --entry=entry_i64 "$dir/results.mlir"
runs e_f32 3.250000e+00 -e entry_f32 --entry-point-result=f32 "$dir/results.mlir"
runs e_void 5 -e entry_void --entry-point-result=void "$dir/results.mlir"
runs e_main_i64 123456789012 -e main --entry-point-result=i64 "$dir/main_i64.mlir"
runs result_alone_means_main 123456789012 --entry-point-result=i64 "$dir/main_i64.mlir"
runs llvm_void_main "" "$dir/llvm_void_main.mlir"
# Without -e, main's result is the exit status, as in C.
"$gpucc" --offload-arch=host "$dir/results.mlir" -o plain 2>err && ./plain
check main_is_exit_status test $? -eq 99
# GPU targets build the same entry (the kernel it launches included).
"$gpucc" --offload-arch=sm_90,gfx942,host -e entry_i32 "$dir/results.mlir" -o all 2>err
check e_all_targets test $? -eq 0
# fails NAME REGEX GPUCC-ARGS...: exit 1, REGEX on stderr, no output.
fails() {
  name=$1 re=$2
  shift 2
  "$gpucc" --offload-arch=host "$@" -o "$name" 2>"$name.err"
  rc=$?
  check "$name" sh -c "test $rc -eq 1 && grep -q \"$re\" $name.err && test ! -e $name"
}
fails wrong_result "results\\.mlir:32:3: error: '@entry_f32' returns f32, not i32 (--entry-point-result=i32)" \
  -e entry_f32 --entry-point-result=i32 "$dir/results.mlir"
fails void_wanted "returns i64, not void" -e entry_i64 --entry-point-result=void "$dir/results.mlir"
fails takes_args "results\\.mlir:41:3: error: '@entry_args' takes (i32); -e runs a function that takes no arguments" \
  -e entry_args "$dir/results.mlir"
fails returns_f64 "'@entry_f64' returns f64; -e runs a function returning nothing, i32, i64 or f32" \
  -e entry_f64 "$dir/results.mlir"
fails memref_main "memref_main\\.mlir:2:1: error: '@main' takes (memref<4xf32>)" "$dir/memref_main.mlir"
fails no_such_entry "error: no input defines a function 'nothere' with a body to start in (-e)" \
  -e nothere "$dir/results.mlir"
# A type mlir-runner does not know is a usage error (exit 2).
"$gpucc" --offload-arch=host -e entry_f32 --entry-point-result=f64 "$dir/results.mlir" -o bad 2>err
check bad_result_type sh -c "test $? -eq 2 && grep -q \"invalid argument 'f64' to --entry-point-result=\" err"
[ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
