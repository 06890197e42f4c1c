/* device_memref.c: upstream's runtime helpers that programs call by name.
 *
 * mgpuMemGetDeviceMemRef1d{Float,Int32}: upstream ROCm programs register
 * host memory (gpu.host_register) and then ask for a memref that views the
 * same memory through its device address, which they pass to kernels. The
 * callee receives the expanded 1-D memref (allocated, aligned, offset, size,
 * stride) and returns a 1-D descriptor by value; the device address is the
 * aligned pointer's, in both pointer fields, as upstream does.
 *
 * mgpuTensorMapEncodeTiled: upstream's direct wrapper of the driver's
 * cuTensorMapEncodeTiled, for code that builds the descriptor's arguments
 * itself (the memref form, mgpuTensorMapEncodeTiledMemref, is in
 * tensormap.c). The map is written to host memory, as the driver does. */
#include <stdint.h>
#include <string.h>

#include "rt.h"

struct rt_memref_1d {
  void *allocated, *aligned;
  int64_t offset, size, stride;
};

static struct rt_memref_1d rt_device_view(const char *fn, void *aligned, int64_t offset,
                                          int64_t size, int64_t stride) {
  struct rt_memref_1d r = {NULL, NULL, offset, size, stride};
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return r;
  void *device = NULL;
  struct rt_err e;
  if (b->host_device_pointer(aligned, &device, &e) != 0) {
    rt_error_failure(fn, b, &e, "getting the device address of registered host memory");
    return r;
  }
  r.allocated = r.aligned = device;
  return r;
}

RT_EXPORT struct rt_memref_1d mgpuMemGetDeviceMemRef1dFloat(float *allocated, float *aligned,
                                                            int64_t offset, int64_t size,
                                                            int64_t stride) {
  (void)allocated;
  return rt_device_view("mgpuMemGetDeviceMemRef1dFloat", aligned, offset, size, stride);
}

RT_EXPORT struct rt_memref_1d mgpuMemGetDeviceMemRef1dInt32(int32_t *allocated, int32_t *aligned,
                                                            int64_t offset, int64_t size,
                                                            int64_t stride) {
  (void)allocated;
  return rt_device_view("mgpuMemGetDeviceMemRef1dInt32", aligned, offset, size, stride);
}

static int rt_has_tensor_maps(const struct rt_backend *b) { return b->tensor_map_encode != NULL; }

RT_EXPORT void mgpuTensorMapEncodeTiled(void *tensorMap, int tensorDataType, uint32_t tensorRank,
                                        void *globalAddress, const uint64_t *globalDim,
                                        const uint64_t *globalStrides, const uint32_t *boxDim,
                                        const uint32_t *elementStrides, int interleave,
                                        int swizzle, int l2Promotion, int oobFill) {
  static const char fn[] = "mgpuTensorMapEncodeTiled";
  const struct rt_backend *b = rt_backend_get(fn);
  if (!b)
    return;
  if (!b->tensor_map_encode) {
    rt_error("%s: TMA descriptors are %s; %s device '%s' has none", fn,
             rt_feature_note(rt_has_tensor_maps), b->label, rt_device()->name);
    return;
  }
  if (tensorRank < 1 || tensorRank > 5 || !tensorMap || !globalDim || !boxDim || !elementStrides ||
      (tensorRank > 1 && !globalStrides)) {
    rt_error("%s: unsupported request: rank %u (1 to 5 supported)", fn, tensorRank);
    return;
  }
  struct rt_tensor_map t = {
      .data_type = tensorDataType,
      .rank = tensorRank,
      .address = globalAddress,
      .interleave = interleave,
      .swizzle = swizzle,
      .l2_promotion = l2Promotion,
      .oob_fill = oobFill,
  };
  for (uint32_t i = 0; i < tensorRank; i++) {
    t.dims[i] = globalDim[i];
    t.box[i] = boxDim[i];
    t.element_strides[i] = elementStrides[i];
    if (i + 1 < tensorRank)
      t.strides[i] = globalStrides[i];
  }
  struct rt_err e;
  if (b->tensor_map_encode(&t, tensorMap, &e) != 0)
    rt_error_failure(fn, b, &e, NULL);
}
