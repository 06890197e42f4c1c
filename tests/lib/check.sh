# check.sh: sourced by the test scripts (POSIX sh), which then say
#   check NAME COMMAND...   one check: "ok   NAME" or "FAIL NAME" (counted)
#   checks_done             at the end: exit 1 when any check failed
fails=0
check() {
  name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name" >&2; fails=$((fails + 1)); fi
}
checks_done() {
  [ "$fails" -eq 0 ] || { echo "$fails check(s) failed" >&2; exit 1; }
}
