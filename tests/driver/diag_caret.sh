#!/bin/sh
# Located diagnostics show the source line and a caret under the column
# (clang's layout), for MLIR's messages and gpucc's own, tabs expanded,
# from standard input too, colored when asked; a location that is not a
# readable line prints the message alone, as does -fno-caret-diagnostics.
# A launch whose argument type differs from the kernel's names both types.
# Usage: diag_caret.sh GPUCC
set -eu
gpucc=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$(dirname "$0")/../lib/check.sh"
tab=$(printf '\t')

# snippet ERR SOURCE LINE COL [N]: line N (default 1) of ERR is the message
# at SHOWN:LINE:COL; the next one is line LINE of SOURCE, tabs expanded; the
# one after it a caret under column COL.
snippet() {
  err=$1 src=$2 line=$3 col=$4 n=${5:-1}
  want_line=$(sed -n "${line}p" "$src" | expand)
  width=$(sed -n "${line}p" "$src" | cut -b "1-$((col - 1))" | expand | awk '{ print length($0) }')
  [ -n "$width" ] || width=0
  want_caret="$(printf "%${width}s" '')^"
  got_line=$(sed -n "$((n + 1))p" "$err")
  got_caret=$(sed -n "$((n + 2))p" "$err")
  sed -n "${n}p" "$err" | grep -q ":$line:$col: " &&
    [ "$got_line" = "$want_line" ] && [ "$got_caret" = "$want_caret" ] || {
    echo "  want: |$want_line|" >&2
    echo "        |$want_caret|" >&2
    sed 's/^/  got:  |/' "$err" >&2
    return 1
  }
}

# An MLIR parse error.
cat >unknown.mlir <<'EOF'
module {
  func.func @main() {
    "gpu.frobnicate"() : () -> ()
    return
  }
}
EOF
"$gpucc" -fsyntax-only unknown.mlir 2>err_unknown && rc=0 || rc=$?
check mlir_error_exit test "$rc" -eq 1
check mlir_error_snippet snippet err_unknown unknown.mlir 3 5

# Tabs before the column: expanded to 8 columns, the caret under the op.
printf 'module {\n\tfunc.func @main() {\n\t  \t"gpu.frobnicate"() : () -> ()\n\t\treturn\n\t}\n}\n' >tabs.mlir
"$gpucc" -fsyntax-only tabs.mlir 2>err_tabs || true
check tabs_expanded snippet err_tabs tabs.mlir 3 5
check tabs_no_tab_left sh -c "! grep -q '$tab' err_tabs"

# Standard input: the lines of what was read.
"$gpucc" -fsyntax-only -x mlir - <unknown.mlir 2>err_stdin || true
check stdin_named grep -q '^<stdin>:3:5: error: ' err_stdin
check stdin_snippet snippet err_stdin unknown.mlir 3 5

# Colors: the caret green and bold, as clang's, the source line plain.
"$gpucc" -fsyntax-only -fdiagnostics-color=always unknown.mlir 2>err_color || true
esc=$(printf '\033')
check color_caret sh -c "sed -n 3p err_color | grep -q '^    ${esc}\\[1;32m^${esc}\\[0m\$' &&
  sed -n 2p err_color | grep -q '^    \"gpu.frobnicate\"() : () -> ()\$'"

# -fno-caret-diagnostics: the message alone.
"$gpucc" -fsyntax-only -fno-caret-diagnostics unknown.mlir 2>err_plain || true
check no_caret_one_line sh -c "test \$(wc -l <err_plain) -eq 1 && grep -q '^unknown.mlir:3:5: error: ' err_plain"

# gpucc's own located warning (host memory passed to a kernel).
cat >host_memory.mlir <<'EOF'
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<4xf32>) kernel {
      gpu.return
    }
  }
  func.func @main() {
    %c1 = arith.constant 1 : index
    %h = memref.alloc () : memref<4xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%h : memref<4xf32>)
    return
  }
}
EOF
"$gpucc" -fsyntax-only --offload-arch=sm_90 host_memory.mlir 2>err_hm && rc=0 || rc=$?
check own_warning sh -c "test $rc -eq 0 && grep -q 'warning: argument 1 of the launch' err_hm"
check own_warning_snippet snippet err_hm host_memory.mlir 10 5

# A launch argument of another type than the kernel's parameter: both named.
sed 's/%o: memref<4xf32>) kernel/%o: memref<4xf32>, %x: f32 {llvm.noalias}) kernel/;
     s/args(%h : memref<4xf32>)/args(%h : memref<4xf32>, %d : f64)/;
     s/%c1 = arith.constant 1 : index/%c1 = arith.constant 1 : index\n    %d = arith.constant 1.0 : f64/' \
  host_memory.mlir >mismatch.mlir
"$gpucc" -fsyntax-only --offload-arch=host mismatch.mlir 2>err_mm && rc=0 || rc=$?
check launch_mismatch_types sh -c "test $rc -eq 1 && grep -q \"^mismatch.mlir:11:5: error: 'gpu.launch_func' op type of function argument 1 does not match: expected f32, got f64\$\" err_mm"
check launch_mismatch_snippet snippet err_mm mismatch.mlir 11 5
sed 's/%x: f32 {llvm.noalias}/%x: memref<?xf32, strided<[?], offset: ?>>/; s/%d : f64/%h : memref<4xf32>/' \
  mismatch.mlir >mismatch2.mlir
"$gpucc" -fsyntax-only --offload-arch=host mismatch2.mlir 2>err_mm2 || true
check launch_mismatch_memref grep -q "argument 1 does not match: expected memref<?xf32, strided<\[?\], offset: ?>>, got memref<4xf32>\$" err_mm2

# Locations that are not a line of a readable file: the message alone.
cat >elsewhere.mlir <<'EOF'
func.func @main() {
  %a = arith.constant 1 : i32
  %b = "arith.addi"(%a, %a) : (i32, i32) -> i64 loc("nowhere.mlir":3:4)
  return
}
EOF
"$gpucc" -fsyntax-only --offload-arch=host elsewhere.mlir 2>err_nowhere || true
check unreadable_file_alone sh -c "grep -q '^nowhere.mlir:3:4: error: ' err_nowhere && test \$(wc -l <err_nowhere) -eq 1"
sed 's/loc("nowhere.mlir":3:4)/loc("elsewhere.mlir":99:1)/' elsewhere.mlir >past_end.mlir
"$gpucc" -fsyntax-only --offload-arch=host past_end.mlir 2>err_past || true
check past_end_alone sh -c "grep -q '^elsewhere.mlir:99:1: error: ' err_past && test \$(wc -l <err_past) -eq 1"

# A very long line: a window around the column, marked "...", the caret
# still under the op.
pad=$(printf '%300s' '')
printf 'module {\n  func.func @main() {\n%s"gpu.frobnicate"() : () -> () // %s tail\n    return\n  }\n}\n' \
  "$pad" "$pad" >long.mlir
"$gpucc" -fsyntax-only long.mlir 2>err_long || true
sed -n 2p err_long >long_shown
sed -n 3p err_long >long_caret
check long_line_located grep -q '^long.mlir:3:301: error: ' err_long
check long_line_cut test "$(wc -c <long_shown)" -lt 200
check long_line_marked grep -q '^\.\.\. *"gpu.frobnicate"() : () -> () //  *\.\.\.$' long_shown
check long_line_caret_under_op test "$(cut -c "$(($(wc -c <long_caret) - 1))" long_shown)" = '"'

checks_done
