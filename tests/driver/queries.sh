#!/bin/sh
# What gpucc answers about itself: --list-gpu-arch (nvcc's: one target a
# line, each one --offload-arch takes), -print-file-name= (gcc's: the
# runtime's full path, the name alone for a file gpucc does not have), and
# the man page's ENVIRONMENT, which must name every variable the sources
# read. Usage: queries.sh GPUCC SOURCE_DIR
set -eu
gpucc=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$(dirname "$0")/../lib/check.sh"

"$gpucc" --list-gpu-arch >archs 2>err && rc=0 || rc=$?
check list_exit sh -c "test $rc -eq 0 && test ! -s err"
check list_one_per_line sh -c "! grep -q '[, ]' archs && test \$(wc -l <archs) -ge 10"
check list_has_each_kind sh -c "grep -qx sm_90 archs && grep -qx gfx942 archs && grep -qx host archs"
# The same targets as --help's "known targets", in the same order.
"$gpucc" --help | sed -n 's/^known targets: //p' | tr -d ' ' | tr ',' '\n' >known
check list_is_known_targets cmp -s archs known
# Every one is a target --offload-arch takes.
printf 'func.func @main() {\n  return\n}\n' >empty_module.mlir
"$gpucc" -fsyntax-only --offload-arch="$(paste -sd, archs)" empty_module.mlir 2>err && rc=0 || rc=$?
check list_all_accepted sh -c "test $rc -eq 0 && ! grep -q error err"

for lib in libgpucc_rt.a libgpucc_rt.so; do
  path=$("$gpucc" -print-file-name=$lib)
  check "print_file_name_$lib" sh -c "case '$path' in /*/$lib) test -f '$path' ;; *) false ;; esac"
done
check print_file_name_missing test "$("$gpucc" -print-file-name=libnot-there.a)" = libnot-there.a
"$gpucc" -print-file-name >/dev/null 2>err && rc=0 || rc=$?
check print_file_name_needs_value test "$rc" -eq 2

# ENVIRONMENT names every variable read anywhere: getenv, and the
# variables that name a library to load.
"$gpucc" --print-man-page >man
sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' man >env_section
read_vars=$(cd "$src" && grep -rhoE 'getenv\("[A-Za-z_0-9]+"\)|(open_first|rt_dlopen_first)\("[A-Z_0-9]+"|\.env = "[A-Z_0-9]+"' \
  driver frontend lowering fatbin runtime support | sed 's/.*"\([A-Za-z_0-9]*\)".*/\1/' | sort -u)
check env_vars_found test "$(echo "$read_vars" | wc -l)" -ge 15
missing=
for v in $read_vars; do
  grep -qx "\.B $v" env_section || missing="$missing $v"
done
check env_every_variable test -z "$missing" || echo "  not in ENVIRONMENT:$missing" >&2
check env_one_line_each sh -c "test \$(grep -c '^\\.TP' env_section) -eq \$(grep -c '^\\.B ' env_section)"

# Documented.
"$gpucc" --help >help
check help_list_gpu_arch grep -q -- '--list-gpu-arch' help
check help_print_file_name grep -q -- '-print-file-name=<file>' help
check man_list_gpu_arch grep -q -- '\\-\\-list\\-gpu\\-arch' man

checks_done
