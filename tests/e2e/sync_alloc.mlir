// The program from the original question: synchronous gpu.alloc and
// gpu.dealloc in a bare main, which upstream's gpu-to-llvm leaves unlowered.
module {
  func.func @main() {
    %m = gpu.alloc () : memref<16xf32>
    gpu.dealloc %m : memref<16xf32>
    return
  }
}
