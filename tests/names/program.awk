# program.awk: reads "MODULE<TAB>KERNEL" lines (spellings.list; '#' starts
# a comment) and writes a program with one gpu.module per line, whose kernel
# sets out[t] = t + 1000 * i for the line's index i (from 0) and t < 4; main
# launches each with -v threads=N threads, one block, and prints the sum of
# out after each launch: 6 + 4000 * i.
BEGIN { FS = "\t"; n = 0 }
/^#/ { next }
NF == 2 { mod[n] = $1; ker[n] = $2; n++ }
END {
  print "module attributes {gpu.container_module} {"
  for (i = 0; i < n; i++) {
    print "  gpu.module @" mod[i] " {"
    print "    gpu.func @" ker[i] "(%out: memref<4xf32>) kernel {"
    print "      %t = gpu.thread_id x"
    print "      %c4 = arith.constant 4 : index"
    print "      %in = arith.cmpi ult, %t, %c4 : index"
    print "      scf.if %in {"
    print "        %ti = arith.index_cast %t : index to i32"
    print "        %k = arith.constant " (1000 * i) " : i32"
    print "        %v = arith.addi %ti, %k : i32"
    print "        %f = arith.sitofp %v : i32 to f32"
    print "        memref.store %f, %out[%t] : memref<4xf32>"
    print "      }"
    print "      gpu.return"
    print "    }"
    print "  }"
  }
  print "  func.func @main() {"
  print "    %c0 = arith.constant 0 : index"
  print "    %c1 = arith.constant 1 : index"
  print "    %c4 = arith.constant 4 : index"
  print "    %threads = arith.constant " threads " : index"
  print "    %zero = arith.constant 0.0 : f32"
  print "    %h = memref.alloc () : memref<4xf32>"
  print "    %d = gpu.alloc () : memref<4xf32>"
  for (i = 0; i < n; i++) {
    print "    gpu.launch_func @" mod[i] "::@" ker[i] " blocks in (%c1, %c1, %c1) threads in (%threads, %c1, %c1) args(%d : memref<4xf32>)"
    print "    gpu.memcpy %h, %d : memref<4xf32>, memref<4xf32>"
    print "    %s" i " = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %zero) -> f32 {"
    print "      %x = memref.load %h[%i] : memref<4xf32>"
    print "      %a = arith.addf %acc, %x : f32"
    print "      scf.yield %a : f32"
    print "    }"
    print "    vector.print %s" i " : f32"
  }
  print "    return"
  print "  }"
  print "}"
}
