# hsaco_checks.sh: sourced by the AMD tensor-core test scripts (POSIX sh),
# with $gpucc and $objdump set and the working directory the test's own:
#   fail TEXT                 stop the test with "FAIL: TEXT"
#   expect STATUS ARGS...     run gpucc; its exit status must be STATUS;
#                             stderr is left in ./err
#   has TEXT                  ./err holds TEXT
#   silent WHAT               ./err is empty
#   message HSACO CHIP TEXT...  the code object traps, and the message of
#                             its device-side assert holds every TEXT
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {
  want=$1
  shift
  set +e
  "$gpucc" "$@" >out 2>err
  rc=$?
  set -e
  [ "$rc" -eq "$want" ] || { cat err >&2; fail "gpucc $* exited $rc, not $want"; }
}
has() { grep -qF -- "$1" err || { cat err >&2; fail "no '$1' in the messages"; }; }
silent() { [ ! -s err ] || { cat err >&2; fail "messages for $1"; }; }

# An assert's message is a constant string, or, when LLVM puts it in
# place, the immediates of 32-bit moves (4 bytes each, in code order). Only
# moves count: the scheduler may put another instruction's literal between
# two of them. Where the 4-byte pieces fall depends on the message's
# length, which begins with the file's name, so the tests compile a copy
# under a relative name: the same in every checkout.
decode_moves() {
  for h in $(grep '_mov_b32' "$1" | grep -o '0x[0-9a-f]\{8\}'); do
    n=$((h))
    for s in 0 8 16 24; do
      b=$(((n >> s) & 255))
      if [ "$b" -ge 32 ] && [ "$b" -lt 127 ]; then printf "\\$(printf %03o "$b")"; else printf '|'; fi
    done
  done
}
message() {
  obj=$1 chip=$2
  shift 2
  "$objdump" -d --mcpu="$chip" "$obj" >m.s
  grep -q s_trap m.s || fail "$obj: no trap guarding the matrix ops of unknown block size"
  { strings -n 8 "$obj"; decode_moves m.s; } >m.text
  for want in "$@"; do
    grep -qF -- "$want" m.text || fail "$obj: no '$want' in the assert's message"
  done
}
