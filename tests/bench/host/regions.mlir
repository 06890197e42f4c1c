// Kernels that check the host target's region scheme (lowering/host/host_regions.c)
// where it takes shortcuts: lockstep rounds with block-uniform values,
// loops over the threads narrowed at a guard (`tid.x < U`, offsets, signed,
// reversed, `== 0`), guards it must not use (an idle side that writes, a
// per-thread value the round changes, effects or divergent branches first),
// a kernel that is not in lockstep (an early return before barriers), and
// implicit barriers in uniform loops at block widths on both sides of the
// run-time threshold. regions_check.c compares every result with C.
module attributes {gpu.container_module} {
  gpu.module @r {
    // reversed guard (s > t): a halving reduction into out[b]
    gpu.func @rev(%in: memref<?xf32>, %out: memref<?xf32>) workgroup(%sh: memref<256xf32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      %x = memref.load %in[%i] : memref<?xf32>
      memref.store %x, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %h0 = arith.divui %n, %c2 : index
      %r = scf.while (%s = %h0) : (index) -> index {
        %more = arith.cmpi ugt, %s, %c0 : index
        scf.condition(%more) %s : index
      } do {
      ^bb0(%s: index):
        %act = arith.cmpi ugt, %s, %t : index
        scf.if %act {
          %j = arith.addi %t, %s : index
          %u = memref.load %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
          %v = memref.load %sh[%j] : memref<256xf32, #gpu.address_space<workgroup>>
          %w = arith.addf %u, %v : f32
          memref.store %w, %sh[%t] : memref<256xf32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %s2 = arith.divui %s, %c2 : index
        scf.yield %s2 : index
      }
      %z = arith.cmpi eq, %t, %c0 : index
      scf.if %z {
        %v = memref.load %sh[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
        memref.store %v, %out[%b] : memref<?xf32>
      }
      gpu.return
    }
    // a per-thread value changed on the idle side: must not be narrowed.
    // acc = t; 4 rounds: if t < lim { sh[t] = acc } else { acc += 1 }; barrier
    gpu.func @perthread(%out: memref<?xi32>, %lim: index) workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %n = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c4 = arith.constant 4 : index
      %one = arith.constant 1 : i32
      %t32 = arith.index_cast %t : index to i32
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %t32) -> i32 {
        %act = arith.cmpi ult, %t, %lim : index
        %a2 = scf.if %act -> i32 {
          memref.store %a, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
          scf.yield %a : i32
        } else {
          %a3 = arith.addi %a, %one : i32
          scf.yield %a3 : i32
        }
        gpu.barrier
        scf.yield %a2 : i32
      }
      %base = arith.muli %b, %n : index
      %i = arith.addi %base, %t : index
      memref.store %acc, %out[%i] : memref<?xi32>
      gpu.return
    }
    // 2-D block 16x16, guard on x (signed, i32), uniform counter live
    // across barriers, bound from an argument (0 or > nx allowed).
    gpu.func @twod(%out: memref<?xi32>, %lim: i32, %iters: index) workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c16 = arith.constant 16 : index
      %c256 = arith.constant 256 : index
      %zero = arith.constant 0 : i32
      %row = arith.muli %ty, %c16 : index
      %l = arith.addi %row, %tx : index
      memref.store %zero, %sh[%l] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %tx32 = arith.index_cast %tx : index to i32
      %fin = scf.for %k = %c0 to %iters step %c1 iter_args(%u = %zero) -> i32 {
        %act = arith.cmpi slt, %tx32, %lim : i32
        scf.if %act {
          %v = memref.load %sh[%l] : memref<256xi32, #gpu.address_space<workgroup>>
          %k32 = arith.index_cast %k : index to i32
          %v2 = arith.addi %v, %k32 : i32
          %v3 = arith.addi %v2, %u : i32
          memref.store %v3, %sh[%l] : memref<256xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %u2 = arith.addi %u, %lim : i32
        scf.yield %u2 : i32
      }
      %bb = arith.muli %b, %c256 : index
      %o = arith.addi %bb, %l : index
      %v = memref.load %sh[%l] : memref<256xi32, #gpu.address_space<workgroup>>
      %w = arith.addi %v, %fin : i32
      memref.store %w, %out[%o] : memref<?xi32>
      gpu.return
    }
    // early return before a barrier (not lockstep): threads t >= m leave
    gpu.func @early(%out: memref<?xi32>, %m: index, %iters: index) workgroup(%sh: memref<256xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c256 = arith.constant 256 : index
      %leave = arith.cmpi uge, %t, %m : index
      cf.cond_br %leave, ^ret, ^body
    ^body:
      %t32 = arith.index_cast %t : index to i32
      memref.store %t32, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      %s = scf.for %k = %c0 to %iters step %c1 iter_args(%a = %t32) -> i32 {
        %nb = arith.addi %t, %c1 : index
        %mm = arith.remui %nb, %m : index
        %v = memref.load %sh[%mm] : memref<256xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        %a2 = arith.addi %a, %v : i32
        memref.store %a2, %sh[%t] : memref<256xi32, #gpu.address_space<workgroup>>
        gpu.barrier
        scf.yield %a2 : i32
      }
      %bb = arith.muli %b, %c256 : index
      %o = arith.addi %bb, %t : index
      memref.store %s, %out[%o] : memref<?xi32>
      gpu.return
    ^ret:
      gpu.return
    }

    // out[t] = 1 where off + t < n (unsigned), else untouched; off may wrap
    gpu.func @uoff(%out: memref<?xi32>, %off: index, %n: index) kernel {
      %t = gpu.thread_id x
      %i = arith.addi %off, %t : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %one = arith.constant 1 : i32
        memref.store %one, %out[%t] : memref<?xi32>
      }
      gpu.return
    }
    // signed, <=, offset first operand swapped: n >= off + t
    gpu.func @soff(%out: memref<?xi32>, %off: index, %n: index) kernel {
      %t = gpu.thread_id x
      %i = arith.addi %t, %off : index
      %in = arith.cmpi sge, %n, %i : index
      scf.if %in {
        %one = arith.constant 1 : i32
        memref.store %one, %out[%t] : memref<?xi32>
      }
      gpu.return
    }
    // idle side has an effect: must run every thread
    gpu.func @idlefx(%out: memref<?xi32>, %n: index) kernel {
      %t = gpu.thread_id x
      %in = arith.cmpi ult, %t, %n : index
      scf.if %in {
        %one = arith.constant 1 : i32
        memref.store %one, %out[%t] : memref<?xi32>
      } else {
        %two = arith.constant 2 : i32
        memref.store %two, %out[%t] : memref<?xi32>
      }
      gpu.return
    }
    // effect before the guard, then guarded, in a barrier loop; and a
    // divergent branch before a guard in another round
    gpu.func @mixed(%out: memref<?xi32>, %n: index) workgroup(%sh: memref<128xi32, #gpu.address_space<workgroup>>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %t32 = arith.index_cast %t : index to i32
      memref.store %t32, %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      gpu.barrier
      scf.for %k = %c0 to %c3 step %c1 {
        %v = memref.load %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        %one = arith.constant 1 : i32
        %v1 = arith.addi %v, %one : i32
        memref.store %v1, %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        %lim = arith.subi %n, %k : index
        %in = arith.cmpi ult, %t, %lim : index
        scf.if %in {
          %w = memref.load %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %w2 = arith.muli %w, %v1 : i32
          memref.store %w2, %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
        %odd = arith.remui %t, %c2 : index
        %isodd = arith.cmpi eq, %odd, %c1 : index
        scf.if %isodd {
          %w = memref.load %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %w3 = arith.subi %w, %one : i32
          memref.store %w3, %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        }
        %in2 = arith.cmpi ult, %t, %k : index
        scf.if %in2 {
          %w = memref.load %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
          %w4 = arith.addi %w, %w : i32
          memref.store %w4, %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
        }
        gpu.barrier
      }
      %r = memref.load %sh[%t] : memref<128xi32, #gpu.address_space<workgroup>>
      memref.store %r, %out[%t] : memref<?xi32>
      gpu.return
    }

    // C = A * B, one thread per element, with an i-row offset computed
    // before the loop and used after (uniform and per-thread values live
    // across the implicit barrier), a divergent branch inside the loop.
    gpu.func @mm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %n: index, %m: index) kernel {
      %tx = gpu.thread_id x
      %ty = gpu.thread_id y
      %bx = gpu.block_id x
      %by = gpu.block_id y
      %dx = gpu.block_dim x
      %dy = gpu.block_dim y
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c3 = arith.constant 3 : index
      %col0 = arith.muli %bx, %dx : index
      %col = arith.addi %col0, %tx : index
      %row0 = arith.muli %by, %dy : index
      %row = arith.addi %row0, %ty : index
      %zero = arith.constant 0.0 : f32
      %odd = arith.remui %col, %c3 : index
      %oddf = arith.index_cast %odd : index to i32
      %sum = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> f32 {
        %x = memref.load %a[%row, %k] : memref<?x?xf32>
        %y = memref.load %b[%k, %col] : memref<?x?xf32>
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        %small = arith.cmpi ult, %tx, %m : index
        %s2 = scf.if %small -> f32 {
          %h = arith.constant 0.5 : f32
          %s3 = arith.addf %s, %h : f32
          scf.yield %s3 : f32
        } else {
          scf.yield %s : f32
        }
        scf.yield %s2 : f32
      }
      %of = arith.sitofp %oddf : i32 to f32
      %r = arith.addf %sum, %of : f32
      memref.store %r, %c[%row, %col] : memref<?x?xf32>
      gpu.return
    }
    // nested uniform loops writing out[i*w + x] for every i, j (stores
    // consecutive in x), accumulating into a per-thread value
    gpu.func @nest(%out: memref<?xf32>, %in: memref<?xf32>, %ni: index, %nj: index) kernel {
      %tx = gpu.thread_id x
      %dx = gpu.block_dim x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %tot = scf.for %i = %c0 to %ni step %c1 iter_args(%t0 = %zero) -> f32 {
        %t1 = scf.for %j = %c0 to %nj step %c1 iter_args(%t = %t0) -> f32 {
          %r = arith.muli %j, %dx : index
          %idx = arith.addi %r, %tx : index
          %v = memref.load %in[%idx] : memref<?xf32>
          %t2 = arith.addf %t, %v : f32
          scf.yield %t2 : f32
        }
        %o = arith.muli %i, %dx : index
        %oi = arith.addi %o, %tx : index
        memref.store %t1, %out[%oi] : memref<?xf32>
        scf.yield %t1 : f32
      }
      %e = arith.muli %ni, %dx : index
      %ei = arith.addi %e, %tx : index
      memref.store %tot, %out[%ei] : memref<?xf32>
      gpu.return
    }
  }
  func.func @rev(%in: memref<?xf32>, %out: memref<?xf32>, %bs: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %nb = memref.dim %out, %c0 : memref<?xf32>
    gpu.launch_func @r::@rev blocks in (%nb, %c1, %c1) threads in (%bs, %c1, %c1) args(%in : memref<?xf32>, %out : memref<?xf32>)
    return
  }
  func.func @perthread(%out: memref<?xi32>, %lim: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c200 = arith.constant 200 : index
    gpu.launch_func @r::@perthread blocks in (%c3, %c1, %c1) threads in (%c200, %c1, %c1) args(%out : memref<?xi32>, %lim : index)
    return
  }
  func.func @twod(%out: memref<?xi32>, %lim: i32, %iters: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c16 = arith.constant 16 : index
    gpu.launch_func @r::@twod blocks in (%c2, %c1, %c1) threads in (%c16, %c16, %c1) args(%out : memref<?xi32>, %lim : i32, %iters : index)
    return
  }
  func.func @early(%out: memref<?xi32>, %m: index, %iters: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c64 = arith.constant 64 : index
    gpu.launch_func @r::@early blocks in (%c2, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<?xi32>, %m : index, %iters : index)
    return
  }

  func.func @uoff(%out: memref<?xi32>, %off: index, %n: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    gpu.launch_func @r::@uoff blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%out : memref<?xi32>, %off : index, %n : index)
    return
  }
  func.func @soff(%out: memref<?xi32>, %off: index, %n: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    gpu.launch_func @r::@soff blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%out : memref<?xi32>, %off : index, %n : index)
    return
  }
  func.func @idlefx(%out: memref<?xi32>, %n: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    gpu.launch_func @r::@idlefx blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%out : memref<?xi32>, %n : index)
    return
  }
  func.func @mixed(%out: memref<?xi32>, %n: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    %c100 = arith.constant 100 : index
    gpu.launch_func @r::@mixed blocks in (%c1, %c1, %c1) threads in (%c100, %c1, %c1) args(%out : memref<?xi32>, %n : index)
    return
  }

  func.func @mm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>, %bxs: index, %bys: index, %m: index) attributes {llvm.emit_c_interface} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %a, %c0 : memref<?x?xf32>
    %gx = arith.divui %n, %bxs : index
    %gy = arith.divui %n, %bys : index
    gpu.launch_func @r::@mm blocks in (%gx, %gy, %c1) threads in (%bxs, %bys, %c1)
        args(%a : memref<?x?xf32>, %b : memref<?x?xf32>, %c : memref<?x?xf32>, %n : index, %m : index)
    return
  }
  func.func @nest(%out: memref<?xf32>, %in: memref<?xf32>, %bxs: index, %ni: index, %nj: index) attributes {llvm.emit_c_interface} {
    %c1 = arith.constant 1 : index
    gpu.launch_func @r::@nest blocks in (%c1, %c1, %c1) threads in (%bxs, %c1, %c1)
        args(%out : memref<?xf32>, %in : memref<?xf32>, %ni : index, %nj : index)
    return
  }
}
