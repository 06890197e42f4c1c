#!/bin/sh
# One check per driver flag: exit status and effect. Glue around real tools.
# Usage: flags.sh GPUCC FATBIN_TOOL READELF MLIR_OPT PROGRAM.mlir C_KERNELS.mlir DLOPEN_MAIN.c
set -eu
gpucc=$1 fatbin=$2 readelf=$3 mlir_opt=$4 prog=$5 ckernels=$6 dlopen_main=$7
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tmp"
export TMPDIR="$work/tmp"
# A private device cache: tests must not read or fill the user's.
export GPUCC_CACHE_DIR="$work/cache"
cd "$work"
. "$(dirname "$0")/../lib/check.sh"
no_temps() { [ -z "$(ls -A "$work/tmp")" ]; }

# --version, --help
"$gpucc" --version >out 2>err
check version grep -Eq '^gpucc [0-9]+\.[0-9]+\.[0-9]+ \(MLIR/LLVM 22\.' out
check version_one_line test "$(wc -l <out)" -eq 1
# -v adds what names the binary in cache keys: its GNU build-id
"$gpucc" -v --version >out 2>err
id=$(readelf -n "$gpucc" 2>/dev/null | sed -n 's/.*Build ID: *//p' | head -n 1)
if [ -n "$id" ]; then
  check version_build_id grep -qx "build $id" out
else
  check version_build_hash grep -Eqx 'build [0-9a-f]{64}' out
fi
"$gpucc" --help >out 2>err
check help_options grep -q -- '--offload-arch=<list>' out
check help_default grep -q '^default targets: sm_80,sm_90,gfx90a,gfx942,host$' out

# -###: prints the jobs (ptxas when there is one, the link), runs nothing
"$gpucc" -### "$prog" -o app >out 2>err
check dryrun_lists_link grep -q '^cc -o app ' out
check dryrun_lists_device grep -q -- ' -cc1 device --offload-arch=gfx942 ' out
check dryrun_quotes sh -n out
check dryrun_no_output test ! -e app
check dryrun_no_temps no_temps
if grep -q "no ptxas found" err; then
  check dryrun_no_ptxas_warning grep -q "NVIDIA targets get PTX only" err
else
  check dryrun_lists_ptxas grep -q 'ptxas -arch sm_90 -O3 .*\.ptx -o .*\.cubin$' out
fi

# Response files (@FILE, nvcc's --options-file/-optf): quoted, nested, and
# the errors for a cycle, an open quote and an unreadable options file. An
# @FILE that does not exist is an ordinary argument, as with gcc.
printf -- '--offload-arch=host\n-o "rsp app"\n' >inner.rsp
printf -- '@inner.rsp -O1\n' >outer.rsp
"$gpucc" @outer.rsp "$prog" 2>err
check rsp_nested_quoted test -x "rsp app"
"$gpucc" -### --options-file inner.rsp "$prog" >out 2>err
check rsp_options_file grep -q "^cc -o 'rsp app' " out
"$gpucc" -### -optf inner.rsp "$prog" >out 2>err
check rsp_optf grep -q "^cc -o 'rsp app' " out
printf -- '@self.rsp\n' >self.rsp
rc=0; "$gpucc" @self.rsp "$prog" 2>err || rc=$?
check rsp_cycle sh -c "test $rc -eq 2 && grep -q \"response file 'self.rsp' nested more than\" err"
printf -- '-o "open\n' >quote.rsp
rc=0; "$gpucc" @quote.rsp "$prog" 2>err || rc=$?
check rsp_open_quote sh -c "test $rc -eq 2 && grep -q \"response file 'quote.rsp': unterminated double quote\" err"
rc=0; "$gpucc" --options-file=absent.rsp "$prog" 2>err || rc=$?
check rsp_absent_options_file sh -c "test $rc -eq 2 && grep -q \"cannot read options file 'absent.rsp'\" err"
rc=0; "$gpucc" @absent.rsp 2>err || rc=$?
check rsp_absent_at_literal sh -c "test $rc -ne 0 && grep -q \"'@absent.rsp': unknown file type\" err"
check rsp_no_temps no_temps

# -c with and without -o
"$gpucc" -c "$prog" 2>err
stem=$(basename "$prog" .mlir)
check c_default_name test -f "$stem.o"
check c_has_section sh -c "'$readelf' -S '$stem.o' | grep -q .gpucc_fatbin"
check c_no_link test ! -e a.out
"$gpucc" -c "$prog" -o k.o 2>err
check c_named test -f k.o
check c_no_temps no_temps

# default output a.out, default targets include host, and it runs
"$gpucc" "$prog" 2>err
check default_a_out test -x a.out
check default_targets sh -c "'$fatbin' list a.out | grep -q ' host  *host  *so '"
check runs_on_cpu sh -c "./a.out | grep -q '^\[3,  3,'"

# -o, -O levels and the object they produce
for o in -O0 -O1 -O3; do
  "$gpucc" $o --offload-arch=host "$prog" -o app$o 2>err
  check "opt$o" sh -c "./app$o | grep -q '^\[3,  3,'"
done
"$gpucc" -O7 "$prog" -o bad 2>err && rc=0 || rc=$?
check opt_invalid_status test "$rc" -eq 2
# -O0 for AMD: stack memory of a kernel (memref.alloca) in private memory
cat >alloca.mlir <<'EOF'
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<3xi32>) kernel {
      %c0 = arith.constant 0 : index
      %a = memref.alloca() : memref<3xi32>
      %x = arith.constant 7 : i32
      memref.store %x, %a[%c0] : memref<3xi32>
      %y = memref.load %a[%c0] : memref<3xi32>
      memref.store %y, %o[%c0] : memref<3xi32>
      gpu.return
    }
  }
}
EOF
"$gpucc" -O0 --offload-arch=gfx90a -c alloca.mlir -o alloca.o 2>err || cat err >&2
check O0_amd_alloca test -s alloca.o

# --offload-arch: repeatable, deduplicated, target ids with features
"$gpucc" --offload-arch=host --offload-arch=host,gfx942:xnack- -c "$prog" -o t.o 2>err
"$fatbin" list t.o | tail -n +2 | awk '{print $3, $4}' | sort >got
printf 'gfx942:xnack- hsaco\nhost so\n' >want
check offload_arch_list cmp -s want got

# -v: every step with its time
"$gpucc" -v --no-cache --offload-arch=host "$prog" -o v 2>err
check verbose_device grep -q '^gpucc: [0-9.]* s  device code for host' err
check verbose_link grep -q '^gpucc: [0-9.]* s  link$' err
check verbose_parse grep -q '^gpucc: [0-9.]* s  parse, verify and normalize' err

# --save-temps keeps the intermediates and says where
"$gpucc" --save-temps --offload-arch=host,gfx90a "$prog" -o s 2>err
dir=$(sed -n "s/^gpucc: intermediate files kept in '\(.*\)'$/\1/p" err)
check save_temps_dir test -d "$dir"
check save_temps_files sh -c "ls '$dir' | grep -q '\.hsaco$' && ls '$dir' | grep -q '\.so$'"
rm -rf "$dir"
# gcc's -save-temps: the intermediates in the current directory, named
# after the output (tests/driver/save_temps.sh has the rest)
"$gpucc" -save-temps --offload-arch=host "$prog" -o s1 2>err
check save_temps_gcc_spelling sh -c "test -f s1-kernels-host.so && ! grep -q 'intermediate files kept' err"
rm -f s1-* s1.host.o

# -dumpversion: the number alone, the one --version shows
"$gpucc" -dumpversion >out 2>err
check dumpversion sh -c "grep -Eqx '[0-9]+\.[0-9]+\.[0-9]+' out && \"$gpucc\" --version | grep -q \"^gpucc \$(cat out) \""
# -fsyntax-only: the checks and nothing else (no output, no temps)
"$gpucc" -fsyntax-only "$prog" -o never 2>err
check syntax_only_ok sh -c "test ! -e never && test ! -s err"
rc=0; "$gpucc" -fsyntax-only --offload-arch=gfx90a "$here/bad/wmma_on_cdna.mlir" 2>err || rc=$?
check syntax_only_target_check sh -c "test $rc -eq 1 && grep -q 'wmma_on_cdna.mlir:7:12: error: ' err"
check syntax_only_no_temps no_temps

# -L, -l, -Wl, reach the linker
"$gpucc" --offload-arch=host "$prog" -o l -L/usr/lib -lm -Wl,-z,now 2>err
check linker_flags sh -c "'$readelf' -d l | grep -q 'BIND_NOW\|FLAGS.*NOW'"

# .mlirbc input
"$mlir_opt" --emit-bytecode "$prog" -o p.mlirbc
"$gpucc" --offload-arch=host p.mlirbc -o bc 2>err
check mlirbc sh -c "./bc | grep -q '^\[3,  3,'"

# --cuda-path that does not exist
"$gpucc" --cuda-path=/nonexistent "$prog" -o x 2>err && rc=0 || rc=$?
check cuda_path_status test "$rc" -eq 1
check cuda_path_message grep -q "^gpucc: error: --cuda-path '/nonexistent' is not a directory" err

# -S and --emit=: one stage, named after the input, or -o for one file
"$gpucc" -S --offload-arch=host "$prog" 2>err
check S_llvm_ir grep -q 'call void @mgpuLaunchKernel' "$stem.ll"
# -o - writes the one output to standard output, as gcc -S does
"$gpucc" -S --offload-arch=host "$prog" -o - >stdout.ll 2>err
check S_to_stdout sh -c "grep -q 'call void @mgpuLaunchKernel' stdout.ll && test ! -e ./-"
"$gpucc" --emit=mlir-device "$prog" 2>err
check emit_mlir_device grep -q 'gpu.func @add_one' "$stem.device.mlir"
"$gpucc" --emit=mlir-host --offload-arch=host "$prog" 2>err
check emit_mlir_host grep -q 'llvm.func @main' "$stem.host.mlir"
"$gpucc" --emit=hsaco --offload-arch=gfx90a,gfx942 "$prog" 2>err
check emit_hsaco sh -c "ls $stem-kernels-gfx90a.hsaco $stem-kernels-gfx942.hsaco >/dev/null"
"$gpucc" --emit=hsaco --offload-arch=gfx90a,gfx942 "$prog" -o one.hsaco 2>err && rc=0 || rc=$?
check emit_o_needs_one_file test "$rc" -eq 1
"$gpucc" --emit=fatbin "$prog" -o k.fatbin 2>err
check emit_fatbin_raw_listing sh -c "'$fatbin' list k.fatbin | grep -q 'kernels  *amd  *gfx942'"
"$gpucc" --emit=ptx --offload-arch=sm_90 "$prog" -o k.ptx 2>err
check emit_ptx grep -q '^.target sm_90' k.ptx
"$gpucc" --emit=bogus "$prog" 2>err && rc=0 || rc=$?
check emit_unknown test "$rc" -eq 2

# A depfile folder that does not exist fails before anything is built (the
# object was written first); an output that is an input is refused, as gcc
# refuses it ("input file ... is the same as output file").
rc=0
"$gpucc" -c -MD "$prog" -MF nodir/x.d -o nodep.o 2>err || rc=$?
check MF_missing_folder sh -c "test $rc -eq 1 && test ! -e nodep.o && grep -q \"cannot write depfile 'nodir/x.d'\" err"
cp "$prog" same.mlir
rc=0
"$gpucc" -c same.mlir -o same.mlir 2>err || rc=$?
check output_is_input sh -c "test $rc -eq 1 && grep -q \"input file 'same.mlir' is the same as output file\" err && cmp -s same.mlir '$prog'"
rc=0
"$gpucc" -c -MD same.mlir -MF same.mlir -o same.o 2>err || rc=$?
check depfile_is_input sh -c "test $rc -eq 1 && cmp -s same.mlir '$prog' && test ! -e same.o"
# -MD, -MF, -MT: a depfile Make and Ninja read
"$gpucc" -c -MD "$prog" -o dep.o 2>err
check MD_default_name grep -q "^dep.o: \\\\$" dep.d
check MD_lists_input grep -q "^ $prog$" dep.d
"$gpucc" -c -MMD -MF custom.d -MT 'obj/k.o' "$prog" -o dep2.o 2>err
check MF_MT grep -q '^obj/k.o: ' custom.d
# -c of several inputs: one depfile per object, naming its own input only
# (gcc's behaviour); -MF or -MT, which would name one, is refused.
mkdir deps && cp "$prog" deps/one.mlir && cp "$prog" deps/two.mlir
(cd deps && "$gpucc" --offload-arch=host -c -MD one.mlir two.mlir 2>err)
check MD_per_object sh -c "grep -q '^one.o: ' deps/one.d && grep -q '^ one.mlir$' deps/one.d && ! grep -q two deps/one.d && grep -q '^two.o: ' deps/two.d && grep -q '^ two.mlir$' deps/two.d && ! grep -q one deps/two.d"
rc=0; (cd deps && "$gpucc" --offload-arch=host -c -MD -MF all.d one.mlir two.mlir 2>err) || rc=$?
check MF_several_refused sh -c "test $rc -eq 2 && grep -q 'cannot specify -MF with -c and several inputs' deps/err && test ! -e deps/all.d"
# -MT is repeatable (gcc joins the targets); one MLIR input with -o gets a
# depfile of its own input only
"$gpucc" -c -MD -MT first -MT second "$prog" -o dep3.o 2>err
check MT_repeated grep -q '^first second: ' dep3.d
# -c of a C source alone is cc's work, as gcc's; -MD goes on to cc, whose
# depfile names the object by its final name; beside an MLIR input, each
# object's depfile lists its own sources only
printf '#include <stddef.h>\nint eight(void) { return 8 + (int)sizeof(size_t) * 0; }\n' >eight.c
"$gpucc" -c -MD eight.c 2>err
check c_compile_only sh -c "test -s eight.o && grep -q '^eight.o: eight.c ' eight.d && grep -q stddef.h eight.d"
check c_compile_no_temps no_temps
(cd deps && cp ../eight.c . && "$gpucc" --offload-arch=host -c -MD one.mlir eight.c 2>err)
check MD_mixed sh -c "grep -q '^eight.o: eight.c' deps/eight.d && ! grep -q one.mlir deps/eight.d && ! grep -q eight deps/one.d"
"$gpucc" -### -c -MD -MT t.o eight.c >out 2>err
check MD_to_cc grep -q '^cc -c eight.c -o eight.o -MD -MF eight.d -MT t.o$' out
# --emit= of a finished object whose tool is missing names the kind's tool
mkdir nocuda
rc=0; "$gpucc" --emit=cubin --offload-arch=sm_90 --cuda-path="$work/nocuda" "$prog" 2>err || rc=$?
check emit_without_tool sh -c "test $rc -eq 1 && grep -q \"error: no object for '.*-sm_90.cubin' (is ptxas installed?)\" err && ! ls *.cubin 2>/dev/null"

# -x mlir and - (standard input), with <stdin> in diagnostics
"$gpucc" -x mlir - --offload-arch=host -o fromstdin <"$prog" 2>err
check stdin_compiles sh -c "./fromstdin | grep -q '^\[3,  3,'"
printf 'module {\n  func.func @f( {\n}\n' | "$gpucc" -x mlir - -o x 2>err && rc=0 || rc=$?
check stdin_located sh -c "test $rc -eq 1 && grep -q '^<stdin>:2:[0-9]*: error: ' err"
# -x c reaches cc too: C from standard input, and C in a file named otherwise
printf '#include <stdio.h>\nint main(void) { puts("c from stdin"); return 0; }\n' |
  "$gpucc" -x c - -o cstdin 2>err
check x_c_stdin sh -c "./cstdin | grep -qx 'c from stdin'"
printf 'int seven(void) { return 7; }\n' >seven.inc
"$gpucc" -### -x c seven.inc -x none "$prog" -o xc >out 2>err
check x_c_named grep -q "^cc -o xc -x c seven.inc -x none " out
"$gpucc" - -o x </dev/null 2>err && rc=0 || rc=$?
check stdin_needs_x test "$rc" -eq 2

# -shared: a library that carries its GPU code, usable with dlopen and -l
"$gpucc" -shared -fPIC --offload-arch=host "$ckernels" -o libk.so 2>err
cc "$dlopen_main" -o dl -ldl
check shared_dlopen sh -c "./dl ./libk.so | grep -q '^dlopen: 0 wrong$'"

# -g: line tables in device and host code
"$gpucc" -g --emit=ptx --offload-arch=sm_90 "$prog" -o g.ptx 2>err
check g_ptx_loc grep -q '\.loc' g.ptx
"$gpucc" -g --offload-arch=host "$prog" -o gapp 2>err
check g_host_debug_line sh -c "'$readelf' -S gapp | grep -q debug_line"
# -g with libdevice functions that the host target defines itself
cat >gmath.mlir <<'EOF'
module attributes {gpu.container_module} {
  gpu.module @k {
    gpu.func @f(%o: memref<2xf32>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %x = arith.constant 4.0 : f32
      %three = arith.constant 3 : i32
      %r = math.rsqrt %x : f32
      %p = math.fpowi %x, %three : f32, i32
      memref.store %r, %o[%c0] : memref<2xf32>
      memref.store %p, %o[%c1] : memref<2xf32>
      gpu.return
    }
  }
  func.func @main() {
    %m = memref.alloc() : memref<2xf32>
    %c1 = arith.constant 1 : index
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<2xf32>)
    %u = memref.cast %m : memref<2xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}
EOF
"$gpucc" -g --offload-arch=host gmath.mlir -o gmath 2>err || cat err >&2
check g_host_math sh -c "./gmath | grep -q '^\[0.5,  64\]'"

# -Xptxas and -Xlinker reach their tools; -j limits parallel jobs
"$gpucc" -### -Xptxas -v -Xptxas --warn-on-spills --offload-arch=sm_90 "$prog" -o x >out 2>err
if grep -q "no ptxas found" err; then
  check Xptxas_no_ptxas true
else
  check Xptxas grep -q 'ptxas -arch sm_90 -O3 -v --warn-on-spills ' out
fi
"$gpucc" -### -Xlinker --no-undefined --offload-arch=host "$prog" -o x >out 2>err
check Xlinker grep -q ' -Xlinker --no-undefined ' out
"$gpucc" -j 1 --offload-arch=host,gfx90a "$prog" -o j1 2>err
check jobs_1 sh -c "./j1 | grep -q '^\[3,  3,'"
"$gpucc" -j 0 "$prog" -o x 2>err && rc=0 || rc=$?
check jobs_invalid test "$rc" -eq 2

# colors: escape codes only when asked (stderr is not a terminal here)
"$gpucc" -fdiagnostics-color=always nope.mlir 2>err || true
check color_always grep -q "$(printf '\033')\[" err
"$gpucc" nope.mlir 2>err || true
check color_auto_off sh -c "! grep -q \"$(printf '\033')\" err"

# native on a machine whose drivers are missing: a clear error
GPUCC_CUDA_LIBRARY=/nonexistent GPUCC_HIP_LIBRARY=/nonexistent \
  "$gpucc" --offload-arch=native "$prog" -o x 2>err && rc=0 || rc=$?
check native_none sh -c "test $rc -ne 0 && grep -q 'native: no GPU found on this machine' err"
"$gpucc" -### --offload-arch=all "$prog" -o x >out 2>err
check all_targets sh -c "grep -q 'device --offload-arch=gfx1201 ' out && grep -q 'device --offload-arch=sm_120a ' out && grep -q 'device --offload-arch=host ' out"

# -Werror turns the "no ptxas" warning (a CUDA path without ptxas) into an error
mkdir -p nocuda
"$gpucc" --cuda-path=nocuda --offload-arch=sm_90 -c "$prog" -o w.o 2>err
check warning_without_ptxas grep -q '^gpucc: warning: no ptxas found' err
# ...and no error about libdevice, which this program does not call (LLVM
# reported one, with exit status 0, when pointed at a folder without it)
check no_libdevice_error sh -c "! grep -q 'error' err"
"$gpucc" -Werror --cuda-path=nocuda --offload-arch=sm_90 -c "$prog" -o w2.o 2>err && rc=0 || rc=$?
check werror sh -c "test $rc -eq 1 && grep -q '^gpucc: error: no ptxas found' err && test ! -e w2.o"

# A failing tool stops the build, names tool, module and target, leaves nothing
if ! grep -q "no ptxas found" out 2>/dev/null && [ -x /usr/local/cuda/bin/ptxas ]; then
  "$gpucc" -Xptxas --no-such-option --offload-arch=sm_80,sm_90,gfx90a,host "$prog" -o t 2>err && rc=0 || rc=$?
  check tool_failure sh -c "test $rc -eq 1 && grep -q \"'.*ptxas' (ptxas: @kernels for sm_[89]0) exited with status\" err && test ! -e t"
fi

# -ffp-contract: device code contracts by default (nvcc's -fmad=true); off
# keeps every add and mul rounded on its own; on fuses within an
# expression: a product used twice stays a mul. Each mode is its own cache
# entry (the cache is warm from the first build when the second runs).
cat >contract.mlir <<'EOF2'
module attributes {gpu.container_module} {
  gpu.module @m {
    gpu.func @k(%o: memref<4xf32>, %a: f32, %b: f32, %c: f32) kernel {
      %i0 = arith.constant 0 : index
      %i1 = arith.constant 1 : index
      %p = arith.mulf %a, %b : f32
      %x = arith.addf %p, %c : f32
      %q = arith.mulf %b, %c : f32
      %y = arith.addf %q, %a : f32
      %z = arith.mulf %q, %y : f32
      memref.store %x, %o[%i0] : memref<4xf32>
      memref.store %z, %o[%i1] : memref<4xf32>
      gpu.return
    }
  }
}
EOF2
for mode in default fast on off fmad_false; do
  case $mode in
  default) flag= ;;
  fmad_false) flag=-fmad=false ;;
  *) flag=-ffp-contract=$mode ;;
  esac
  mkdir "c_$mode"
  (cd "c_$mode" && "$gpucc" $flag --offload-arch=sm_90 --emit=ptx ../contract.mlir) 2>err || cat err >&2
done
fmas() { grep -c 'fma\.rn\.f32' "c_$1/contract-m-sm_90.ptx" || true; }
rounded() { grep -Ec '(add|mul)\.rn\.f32' "c_$1/contract-m-sm_90.ptx" || true; }
check contract_default sh -c "test $(fmas default) -eq 2 && test $(rounded default) -eq 0"
check contract_fast cmp -s c_default/contract-m-sm_90.ptx c_fast/contract-m-sm_90.ptx
check contract_on sh -c "test $(fmas on) -eq 1 && test $(rounded on) -eq 3"
check contract_off sh -c "test $(fmas off) -eq 0 && test $(rounded off) -eq 5"
check contract_fmad_false cmp -s c_off/contract-m-sm_90.ptx c_fmad_false/contract-m-sm_90.ptx
"$gpucc" -ffp-contract=sometimes --emit=ptx contract.mlir 2>err && rc=0 || rc=$?
check contract_bad_value sh -c "test $rc -ne 0 && grep -q \"invalid argument 'sometimes' to -ffp-contract=\" err"

# A tool that exits 0 after writing garbage, or another chip's code, fails
# the build, naming tool, format and target, and leaves no output: a ptxas
# that writes 4 KiB of random bytes; one that writes a cubin for sm_80.
mkdir -p badcuda/bin
cat >badcuda/bin/ptxas <<'EOF2'
#!/bin/sh
if [ "$1" = --version ]; then echo "Cuda compilation tools, release 12.8, V12.8.93"; exit 0; fi
while [ $# -gt 1 ]; do [ "$1" = -o ] && out=$2; shift; done
case $BAD_PTXAS in
random) head -c 4096 /dev/urandom >"$out" ;;
none) ;;
sm80)
  { printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000\276\000\001\000\000\000'
    head -c 24 /dev/zero; printf '\004\120\000\006'; head -c 12 /dev/zero; } >"$out" ;;
esac
EOF2
chmod +x badcuda/bin/ptxas
BAD_PTXAS=random "$gpucc" --cuda-path=badcuda --offload-arch=sm_90 "$prog" -o bad_app 2>err && rc=0 || rc=$?
check bad_tool_output sh -c "test $rc -eq 1 && grep -q \"error: 'ptxas' wrote an invalid cubin for sm_90 (.* is not an ELF file)\" err && test ! -e bad_app"
BAD_PTXAS=sm80 "$gpucc" --cuda-path=badcuda --offload-arch=sm_90 "$prog" -o bad_app 2>err && rc=0 || rc=$?
check wrong_chip_tool_output sh -c "test $rc -eq 1 && grep -q \"wrote an invalid cubin for sm_90 (.* is for sm_80 \" err && test ! -e bad_app"
BAD_PTXAS=none "$gpucc" --cuda-path=badcuda --offload-arch=sm_90 "$prog" -o bad_app 2>err && rc=0 || rc=$?
check no_tool_output sh -c "test $rc -eq 1 && grep -q \"error: 'ptxas' exited with status 0 but wrote no cubin for sm_90\" err && test ! -e bad_app"

# The fat binary is read back before it is written out: a writer that
# damaged it (a test switch flips one byte of the finished archive) fails the
# build, for every compression mode, and leaves no output.
for mode in none fast size; do
  GPUCC_TEST_CRASH=fatbin-damage "$gpucc" --fatbin-compress=$mode --offload-arch=host "$prog" \
    -o bad_app 2>err && rc=0 || rc=$?
  check "fatbin_read_back_$mode" sh -c "test $rc -eq 1 && grep -q \"error: the fat binary written for @.* does not read back: fatbin: \" err && test ! -e bad_app"
done
check bad_tool_no_temps no_temps

# A kernel given host memory is a warning when a GPU target is asked for
# (it faults on a GPU), silent for the host target alone, an error with -Werror.
hm="$here/host_memory.mlir"
"$gpucc" --offload-arch=sm_90,host "$hm" -o hm_app 2>err && rc=0 || rc=$?
check host_memory_warning sh -c "test $rc -eq 0 && test \$(grep -c 'is host memory' err) -eq 2 &&
  grep -q 'host_memory.mlir:19:5: warning: argument 1 of the launch of @k::@f is host memory (memref.alloc at .*host_memory.mlir:13:10)' err"
"$gpucc" --offload-arch=host "$hm" -o hm_app 2>err && rc=0 || rc=$?
check host_memory_host_only sh -c "test $rc -eq 0 && ! grep -q 'host memory' err"
"$gpucc" -Werror --offload-arch=sm_90 "$hm" -o hm_app2 2>err && rc=0 || rc=$?
check host_memory_werror sh -c "test $rc -eq 1 && test ! -e hm_app2"

# gpucc.1 comes from the option table
"$gpucc" --print-man-page >gpucc.1
check man_page sh -c "grep -q '^.TH GPUCC 1' gpucc.1 && grep -q 'offload\\\\-arch' gpucc.1 && grep -q 'fatbin\\\\-compress' gpucc.1"

check no_temps_at_end no_temps
checks_done
