#!/bin/sh
# What SPIR-V for Vulkan cannot express is refused before any job, at the
# op, naming the op and the target, in the form of the other kinds:
#   refuse.sh GPUCC TESTS_DIR
# printf, dynamic shared memory, cf.assert, shuffles and subgroup ops (the
# subgroup size of a Vulkan device is known only at run time), generic and
# float atomics,
# ops of another kind's dialect, recursion; and a kernel whose parameters exceed the
# 128 bytes of push constants, located at the kernel. Nothing is written.
set -eu
gpucc=$1 tests=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
export GPUCC_CACHE_DIR="$work/cache"
. "$tests/lib/check.sh"

# refused NAME FILE PATTERN: compiling FILE for spirv fails (status 1)
# with PATTERN in its errors, and no module is written.
refused() {
  what=$1 file=$2 pattern=$3
  "$gpucc" --emit=spirv --offload-arch=spirv "$file" 2>"$what.err" && rc=0 || rc=$?
  check "$what" sh -c "test $rc -eq 1 && grep -q \"$pattern\" '$what.err' && ! ls *.spirv >/dev/null 2>&1"
  grep -q "$pattern" "$what.err" || cat "$what.err" >&2
}

kernel() { # kernel FILE BODY-LINES: one kernel taking %buf : memref<16xf32>
  {
    echo 'module attributes {gpu.container_module} {'
    echo '  gpu.module @kernels {'
    echo '    gpu.func @k(%buf: memref<16xf32>, %i: index, %x: f32) kernel {'
    cat
    echo '      gpu.return'
    echo '    }'
    echo '  }'
    echo '}'
  } >"$1"
}

printf '%s\n' '      gpu.printf "x %f", %x : f32' | kernel printf.mlir
refused printf printf.mlir "^printf.mlir:4:7: error: 'gpu.printf' needs a target with device printf (Vulkan compute has none); targets asked: spirv"
echo '      %m = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>' | kernel dyn.mlir
refused dynamic_shared dyn.mlir "^dyn.mlir:4:12: error: 'gpu.dynamic_shared_memory' needs a target with dynamic shared memory"
printf '%s\n' '      %t = arith.constant true' '      cf.assert %t, "no"' | kernel assert.mlir
refused assert assert.mlir "^assert.mlir:5:7: error: 'cf.assert' needs a target with device assertions"
printf '%s\n' '      %w = arith.constant 32 : i32' '      %o = arith.constant 1 : i32' \
  '      %s, %v = gpu.shuffle xor %x, %o, %w : f32' | kernel shuffle.mlir
refused shuffle shuffle.mlir "^shuffle.mlir:6:16: error: 'gpu.shuffle' needs a target whose subgroup size is known at compile time"
echo '      %r = gpu.subgroup_reduce add %x : (f32) -> f32' | kernel reduce.mlir
refused subgroup_reduce reduce.mlir "^reduce.mlir:4:12: error: 'gpu.subgroup_reduce' needs a target whose subgroup size"
printf '%s\n' '      %r = memref.generic_atomic_rmw %buf[%i] : memref<16xf32> {' '      ^bb0(%c: f32):' \
  '        %s = arith.mulf %c, %x : f32' '        memref.atomic_yield %s : f32' '      }' | kernel generic.mlir
refused generic_atomic generic.mlir "^generic.mlir:4:12: error: 'memref.generic_atomic_rmw' needs a target other than SPIR-V"
# Atomic multiplication (gpucc makes it a generic atomic): located.
printf '%s\n' 'module attributes {gpu.container_module} {' '  gpu.module @kernels {' \
  '    gpu.func @k(%ibuf: memref<16xi32>, %i: index, %n: i32) kernel {' \
  '      %r = memref.atomic_rmw muli %n, %ibuf[%i] : (i32, memref<16xi32>) -> i32' \
  '      gpu.return' '    }' '  }' '}' >mul.mlir
refused atomic_mul mul.mlir "^mul.mlir:4:12: error: cannot lower 'memref.atomic_rmw' for the SPIR-V target: its conversion has no atomic multiplication"
# Float atomics: the conversion has none; its failure is located too.
echo '      %r = memref.atomic_rmw addf %x, %buf[%i] : (f32, memref<16xf32>) -> f32' | kernel atomic.mlir
refused float_atomic atomic.mlir "^atomic.mlir:4:12: error: cannot lower 'memref.atomic_rmw' for target 'spirv'"
echo '      %r = nvvm.read.ptx.sreg.laneid : i32' | kernel nvvm.mlir
refused nvvm nvvm.mlir "^nvvm.mlir:4:12: error: 'nvvm.read.ptx.sreg.laneid' needs an NVIDIA target; targets asked: spirv"
# Device functions are inlined (Vulkan has no calls of recursion): a
# recursive one is refused at its call.
cat >rec.mlir <<'MLIR'
module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @down(%n: i32) -> i32 {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %z = arith.cmpi sle, %n, %c0 : i32
      %r = scf.if %z -> (i32) {
        scf.yield %c0 : i32
      } else {
        %m = arith.subi %n, %c1 : i32
        %d = func.call @down(%m) : (i32) -> i32
        scf.yield %d : i32
      }
      return %r : i32
    }
    gpu.func @k(%buf: memref<4xi32>, %n: i32) kernel {
      %c0 = arith.constant 0 : index
      %v = func.call @down(%n) : (i32) -> i32
      memref.store %v, %buf[%c0] : memref<4xi32>
      gpu.return
    }
  }
}
MLIR
refused recursion rec.mlir "^rec.mlir:11:14: error: a recursive function cannot be compiled for the SPIR-V target (Vulkan has no recursion)"

# Both targets named where both lack it.
"$gpucc" -c --offload-arch=spirv,host printf.mlir -o p.o 2>both.err && rc=0 || rc=$?
check printf_host_compiles_spirv_refuses sh -c "test $rc -eq 1 && grep -q 'targets asked: spirv\$' both.err && test ! -e p.o"

# 17 buffers, each stored to (gpucc drops unused parameters): 136 bytes
# of push constants.
{
  echo 'module attributes {gpu.container_module} {'
  echo '  gpu.module @kernels {'
  printf '    gpu.func @wide('
  for i in $(seq 0 16); do printf '%s%%b%s: memref<4xf32>' "$([ "$i" -gt 0 ] && echo ', ')" "$i"; done
  echo ') kernel {'
  echo '      %c0 = arith.constant 0 : index'
  echo '      %v = arith.constant 1.0 : f32'
  for i in $(seq 0 16); do echo "      memref.store %v, %b$i[%c0] : memref<4xf32>"; done
  echo '      gpu.return'
  echo '    }'
  echo '  }'
  echo '}'
} >wide.mlir
refused push_constant_limit wide.mlir "^wide.mlir:3:5: error: kernel 'wide' has 136 bytes of parameters; the SPIR-V target passes them as push constants, at most 128 bytes"
checks_done
