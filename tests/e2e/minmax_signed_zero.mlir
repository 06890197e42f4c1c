// arith.minimumf / maximumf order -0.0 below +0.0 (IEEE 754 minimum and
// maximum), in host code, in a kernel and in a subgroup reduction; NaN
// wins. arith-expand's compare-and-select lowering gave +0 for
// minimumf(-0, +0) and -0 for maximumf(+0, -0).
// Host: -0 -0 0 0 nan; kernel: -0 0 nan; reduction of [-0, +0, -0, ...]:
// minimumf -0, maximumf 0.
module attributes {gpu.container_module} {
  memref.global "private" @z : memref<3xf32> = dense<[-0.0, 0.0, 0x7FC00000]>
  gpu.module @k {
    gpu.func @f(%in: memref<3xf32>, %o: memref<32x5xf32>) kernel {
      %t = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c2 = arith.constant 2 : index
      %c3 = arith.constant 3 : index
      %c4 = arith.constant 4 : index
      %nz = memref.load %in[%c0] : memref<3xf32>
      %pz = memref.load %in[%c1] : memref<3xf32>
      %nan = memref.load %in[%c2] : memref<3xf32>
      %a = arith.minimumf %pz, %nz : f32
      %b = arith.maximumf %nz, %pz : f32
      %n = arith.maximumf %pz, %nan : f32
      %two = arith.constant 2 : index
      %r = arith.remui %t, %two : index
      %odd = arith.cmpi eq, %r, %c1 : index
      %v = arith.select %odd, %pz, %nz : f32
      %rmin = gpu.subgroup_reduce minimumf %v uniform : (f32) -> f32
      %rmax = gpu.subgroup_reduce maximumf %v uniform : (f32) -> f32
      memref.store %a, %o[%t, %c0] : memref<32x5xf32>
      memref.store %b, %o[%t, %c1] : memref<32x5xf32>
      memref.store %n, %o[%t, %c2] : memref<32x5xf32>
      memref.store %rmin, %o[%t, %c3] : memref<32x5xf32>
      memref.store %rmax, %o[%t, %c4] : memref<32x5xf32>
      gpu.return
    }
  }
  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c32 = arith.constant 32 : index
    %g = memref.get_global @z : memref<3xf32>
    %nz = memref.load %g[%c0] : memref<3xf32>
    %pz = memref.load %g[%c1] : memref<3xf32>
    %nan = memref.load %g[%c2] : memref<3xf32>
    %a = arith.minimumf %nz, %pz : f32
    %b = arith.minimumf %pz, %nz : f32
    %vz = vector.broadcast %pz : f32 to vector<2xf32>
    %vn = vector.broadcast %nz : f32 to vector<2xf32>
    %vm = arith.maximumf %vn, %vz : vector<2xf32>
    %c = vector.extract %vm[0] : f32 from vector<2xf32>
    %d = arith.maximumf %pz, %nz : f32
    %e = arith.minimumf %nan, %nz : f32
    vector.print %a : f32
    vector.print %b : f32
    vector.print %c : f32
    vector.print %d : f32
    vector.print %e : f32
    %in = gpu.alloc () : memref<3xf32>
    %o = gpu.alloc () : memref<32x5xf32>
    gpu.memcpy %in, %g : memref<3xf32>, memref<3xf32>
    gpu.launch_func @k::@f blocks in (%c1, %c1, %c1) threads in (%c32, %c1, %c1)
        args(%in : memref<3xf32>, %o : memref<32x5xf32>)
    %h = memref.alloc() : memref<32x5xf32>
    gpu.memcpy %h, %o : memref<32x5xf32>, memref<32x5xf32>
    %k0 = memref.load %h[%c0, %c0] : memref<32x5xf32>
    %k1 = memref.load %h[%c0, %c1] : memref<32x5xf32>
    %k2 = memref.load %h[%c0, %c2] : memref<32x5xf32>
    %k3 = memref.load %h[%c0, %c3] : memref<32x5xf32>
    %k4 = memref.load %h[%c0, %c4] : memref<32x5xf32>
    vector.print %k0 : f32
    vector.print %k1 : f32
    vector.print %k2 : f32
    vector.print %k3 : f32
    vector.print %k4 : f32
    return
  }
}
