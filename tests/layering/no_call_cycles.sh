#!/bin/sh
# no_call_cycles.sh NM NAME OBJECT...: the files of one library are layers.
# For each object, the other objects whose functions (or data) it uses are
# read off nm's symbol tables; the pairs go to tsort, which finds any loop:
# two files that call each other, directly or through others. Prints each
# file's callees, and the loop when there is one (exit 1).
set -eu
export LC_ALL=C
nm=$1 name=$2
shift 2
[ "$#" -gt 1 ] || { echo "$name: fewer than two objects: nothing checked" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM HUP
# nm -A: "path/file.c.o:[address] type symbol"; the file is named without
# its folder and .o.
file_of='{ f = $1; sub(/\.o:.*/, "", f); sub(/.*\//, "", f); print $NF, f }'
"$nm" -A --defined-only --extern-only "$@" | awk "$file_of" | sort -u > "$work/defs.sorted"
"$nm" -A --undefined-only "$@" | awk "$file_of" | sort -u > "$work/uses.sorted"
# symbol, user -> user, owner (a file's use of its own symbols does not count)
join "$work/uses.sorted" "$work/defs.sorted" | awk '$2 != $3 { print $2, $3 }' | sort -u > "$work/edges"
awk '{ calls[$1] = calls[$1] " " $2 } END { for (f in calls) print f ":" calls[f] }' "$work/edges" | sort
if ! tsort "$work/edges" > /dev/null 2> "$work/loop"; then
  echo "$name: files that call each other in a loop:" >&2
  cat "$work/loop" >&2
  exit 1
fi
echo "$name: no loop among $# files"
