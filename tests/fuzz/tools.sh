#!/bin/sh
# Tools that write damaged objects (issue 22), fuzzed: a ptxas and a cc that
# run the real tool and then damage what it wrote (mutate.c's byte-level
# kinds with fixed seeds: bits flipped, bytes lost, the file cut short), or
# write an empty file, or none, and still exit 0. gpucc must fail with one
# error naming the tool, leaving no output and no temp file, or build a
# program that runs (flipped bits excepted, see below): no exit 70, no
# signal, no hang, in gpucc or in the program. Prints how many damaged
# objects were caught.
#   tools.sh GPUCC MUTATE PROGRAM
# GPUCC_FUZZ_COUNT (default 24) and GPUCC_FUZZ_SEED (default 1) as in fuzz.sh.
set -u
gpucc=$1 mutate=$2 prog=$3
count=${GPUCC_FUZZ_COUNT:-24}
seed=${GPUCC_FUZZ_SEED:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
real_cc=$(command -v cc) || { echo "no cc: skipped"; exit 77; }
mkdir -p bin cuda/bin tmp out
# The damage a wrapper does to the output of its tool, after the tool ran:
# $FUZZ_TOOL names the tool damaged in this case, $FUZZ_HOW how.
cat >damage.sh <<EOF2
out=\$1
case \$FUZZ_HOW in
empty) : >"\$out" ;;
none) rm -f "\$out" ;;
*) "$mutate" "\$FUZZ_HOW" "\$FUZZ_SEED" <"\$out" >"\$out.m" && mv "\$out.m" "\$out" ;;
esac
EOF2
cat >bin/cc <<EOF2
#!/bin/sh
"$real_cc" "\$@" || exit
shared= out=
for a; do [ "\$a" = -shared ] && shared=1; [ "\$prev" = -o ] && out=\$a; prev=\$a; done
[ "\$FUZZ_TOOL" = cc ] && [ -n "\$shared" ] && [ -n "\$out" ] && sh "$work/damage.sh" "\$out"
exit 0
EOF2
have_ptxas=
if [ -x /usr/local/cuda/bin/ptxas ]; then
  have_ptxas=1
  cat >cuda/bin/ptxas <<EOF2
#!/bin/sh
/usr/local/cuda/bin/ptxas "\$@" || exit
out=
for a; do [ "\$prev" = -o ] && out=\$a; prev=\$a; done
[ "\$FUZZ_TOOL" = ptxas ] && [ -n "\$out" ] && sh "$work/damage.sh" "\$out"
exit 0
EOF2
  chmod +x cuda/bin/ptxas
fi
chmod +x bin/cc
targets=host
[ -n "$have_ptxas" ] && targets=host,sm_90
hows="flip delete truncate empty none"
bad=0 caught=0 built=0
i=0
while [ "$i" -lt "$count" ]; do
  s=$((seed * 100003 + i))
  tool=cc
  [ -n "$have_ptxas" ] && [ $((i % 2)) -eq 1 ] && tool=ptxas
  how=$(echo "$hows" | tr ' ' '\n' | sed -n "$((i / 2 % 5 + 1))p")
  what="case $i: $tool output damaged ($how, seed $s)"
  i=$((i + 1))
  rm -rf out/* tmp/*
  FUZZ_TOOL=$tool FUZZ_HOW=$how FUZZ_SEED=$s PATH="$work/bin:$PATH" TMPDIR="$work/tmp" \
    timeout -k 5 60 "$gpucc" --no-cache --cuda-path="$work/cuda" --offload-arch=$targets \
    "$prog" -o out/app 2>err
  rc=$?
  why=
  if [ "$rc" -eq 0 ]; then
    built=$((built + 1))
    # A bit flipped inside code is another program, not a damaged file: no
    # check of the object can see it (the host backend reports it when it
    # faults inside a kernel; in the object's init or fini code it kills the
    # program). Every other damage changes the layout, and what gets past
    # the checks must run.
    if [ "$how" != flip ]; then
      timeout -k 5 30 out/app >/dev/null 2>perr
      prc=$?
      [ "$prc" -ge 124 ] && why="the program built from it ended with status $prc"
    fi
  elif [ "$rc" -ne 1 ]; then why="gpucc exit $rc"
  elif ! grep -q "error: '$tool" err; then why="the error does not name '$tool'"
  elif [ -n "$(ls -A out)" ]; then why="output left after the error"
  else caught=$((caught + 1))
  fi
  [ -z "$why" ] && [ -n "$(ls -A tmp)" ] && why="left in TMPDIR: $(ls -A tmp | head -3 | tr '\n' ' ')"
  if [ -n "$why" ]; then
    bad=$((bad + 1))
    echo "FAIL: $what: $why"
    head -c 300 err | sed 's/^/  | /'
  fi
done
echo "damaged tool outputs: $count cases, $caught caught, $built built, $bad failed"
[ "$bad" -eq 0 ]
