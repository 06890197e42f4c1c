#!/bin/sh
# compare.sh REFERENCE OURS SECTION [ARG...]: runs runner_check's SECTION
# with both builds (ARGs go to OURS only) and compares what they wrote,
# stdout and stderr together, byte for byte, after masking the memref
# addresses ("base@ = 0x7ffd..." -> "base@ = ADDR"), which differ per run.
# Exit 0 when identical, 1 with a diff otherwise.
set -u
ref=$1 ours=$2 section=$3
shift 3
dir=$(mktemp -d "${TMPDIR:-/tmp}/runner_compare.XXXXXX") || exit 1
trap 'rm -rf "$dir"' EXIT
trap 'exit 130' INT TERM HUP

run() { # run NAME PROGRAM ARG...
  name=$1
  shift
  "$@" >"$dir/$name.raw" 2>&1
  status=$?
  if [ "$status" -ne 0 ]; then
    echo "compare.sh: '$*' exited with status $status; its last lines:"
    tail -n 5 "$dir/$name.raw"
    exit 1
  fi
  # The addresses are masked, NULL ("base@ = 0") is not; nothing else is
  # touched (i8 elements are raw bytes: LC_ALL=C, diff -a).
  LC_ALL=C sed -E 's/base@ = 0x[0-9a-f]+ /base@ = ADDR /g' \
    "$dir/$name.raw" >"$dir/$name.out"
  if ! tail -n 1 "$dir/$name.out" | grep -q "^== end of $section\$"; then
    echo "compare.sh: '$*' did not finish section '$section'"
    exit 1
  fi
}

run reference "$ref" "$section"
run ours "$ours" "$section" "$@"
if cmp -s "$dir/reference.out" "$dir/ours.out"; then
  echo "$section: $(wc -c <"$dir/ours.out") bytes, identical to upstream's"
  exit 0
fi
echo "$section: output differs from upstream's (- upstream, + libgpucc_rt):"
LC_ALL=C diff -a -u "$dir/reference.out" "$dir/ours.out" | head -n 80
exit 1
