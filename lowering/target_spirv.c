/* target_spirv.c: SPIR-V for Vulkan compute ("spirv"), which any Vulkan
 * 1.2 device runs through gpucc's Vulkan runtime backend.
 *
 * A device job lowers each gpu.module through MLIR's SPIR-V conversion
 * (convert-gpu-to-spirv, 64-bit index) to one SPIR-V 1.3 module for
 * Vulkan: kernels are GLCompute entry points of the same names; buffers
 * are buffer device addresses (PhysicalStorageBuffer64 addressing);
 * parameters are one push-constant block per entry point; the workgroup
 * size is specialization constants 0, 1, 2 unless known_block_size fixes
 * it (LocalSize). The device_spirv_*.c files do what MLIR does not
 * (device_spirv.h). The module ships as it is: no tool finishes it. */
#include "target_kinds.h"
#include "target_rows.h"

#include "device_spirv.h"

#include "fatbin.h"

#include <stdio.h>
#include <string.h>

static void describe(const struct target *t, char *buf, size_t size) {
  snprintf(buf, size, "target '%s' (SPIR-V for Vulkan)", t->id);
}

/* What a Vulkan 1.2 device may offer; spirv-update-vce keeps, of these,
 * what the module uses, and the runtime checks the device has it. */
static void attr(char *buf, size_t size, const struct target *t, int opt) {
  (void)t, (void)opt;
  snprintf(buf, size,
           "#spirv.target_env<#spirv.vce<v1.3, [Shader, Int64, Int16, Int8, Float64, Float16, "
           "PhysicalStorageBufferAddresses, StorageBuffer8BitAccess, StorageBuffer16BitAccess, "
           "StoragePushConstant8, StoragePushConstant16, Int64Atomics, AtomicFloat32AddEXT], "
           "[SPV_KHR_physical_storage_buffer, SPV_KHR_8bit_storage, SPV_KHR_16bit_storage, "
           "SPV_KHR_storage_buffer_storage_class, SPV_EXT_shader_atomic_float_add]>, api=Vulkan, #spirv.resource_limits<>>");
}

/* After the memref preparation of prepare_module (device_spirv_args.c):
 * math first (convert-gpu-to-spirv has no math patterns), then the GPU
 * conversion, which leaves the spirv.module beside the gpu.module and the
 * gpu.module as it was: its kernels, private and unused now, go. */
static int pipeline(char *buf, size_t size, const struct target *t) {
  (void)t;
  return snprintf(buf, size,
                  "builtin.module(gpu.module(canonicalize,convert-math-to-spirv),"
                  "convert-gpu-to-spirv{use-64bit-index=true},"
                  "gpu.module(symbol-privatize,symbol-dce))") >= (int)size;
}

/* device_spirv_emit.c serializes, after its own rewrites. */
static int serialize(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                     int debug) {
  (void)t, (void)tc, (void)debug;
  return snprintf(buf, size, "builtin.module()") >= (int)size;
}

/* The subgroup size of a Vulkan device is known only at run time (8 on
 * lavapipe, 32 on NVIDIA, 32 or 64 on AMD): the ops that depend on it are
 * refused (op_requirement), so no width is assumed. */
static unsigned subgroup_width(const struct target *t) {
  (void)t;
  return 1;
}

/* The program's own SPIR-V where it has some, else gpucc's kernels. */
static int prepare_module(MlirOperation gpu_module, const struct target *t) {
  (void)t;
  int carried = spirv_take_carried_module(gpu_module);
  return carried != 0 ? (carried < 0 ? -1 : 0) : spirv_adapt_kernels(gpu_module);
}

/* What SPIR-V for Vulkan, as gpucc lowers it, cannot express. */
static const char *op_requirement(const struct target *t, const char *op) {
  (void)t;
  static const struct {
    const char *prefix, *needs;
  } refused[] = {
      {"gpu.printf", "a target with device printf (Vulkan compute has none)"},
      {"gpu.dynamic_shared_memory", "a target with dynamic shared memory (Vulkan has only static "
                                    "workgroup memory)"},
      {"cf.assert", "a target with device assertions (Vulkan has no trap)"},
      {"gpu.shuffle", "a target whose subgroup size is known at compile time (a Vulkan device's "
                      "is known only at run time)"},
      {"gpu.subgroup_", "a target whose subgroup size is known at compile time (a Vulkan "
                        "device's is known only at run time)"},
      {"gpu.num_subgroups", "a target whose subgroup size is known at compile time (a Vulkan "
                            "device's is known only at run time)"},
      {"gpu.lane_id", "a target whose subgroup size is known at compile time (a Vulkan "
                      "device's is known only at run time)"},
      {"gpu.all_reduce", "a target other than SPIR-V (gpucc does not lower block-wide reductions "
                         "to SPIR-V yet)"},
      {"memref.generic_atomic_rmw", "a target other than SPIR-V (its conversion to SPIR-V has no "
                                    "generic atomics; atomic_rmw of integers lowers)"},
      {"memref.get_global", "a target other than SPIR-V (gpucc does not lower memref.global "
                            "variables to SPIR-V yet)"},
      {"llvm.", "a target other than SPIR-V (LLVM dialect ops have no SPIR-V lowering)"},
  };
  for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++)
    if (!strncmp(op, refused[i].prefix, strlen(refused[i].prefix)))
      return refused[i].needs;
  return NULL;
}

/* What its runtime backend reads (runtime/backend_vulkan.c). */
static const struct kind_variable environment[] = {
    {"GPUCC_VULKAN_LIBRARY", "the Vulkan loader to load (default libvulkan.so.1), which finds "
                             "the Vulkan drivers, for the runtime"},
    {"GPUCC_VULKAN_STAGING", "1: copy between the host and gpu.alloc memory through staging "
                             "buffers even where that memory is host-visible (as on a discrete GPU)"},
};

static const struct target_info chips[] = {{"spirv", &target_kind_spirv, NULL}};

static const struct target_lowering lowering = {
    .describe = describe,
    .attr = attr,
    .pipeline = pipeline,
    .serialize = serialize,
    .lowered = (const char *const[]){"spirv.", NULL},
    .subgroup_width = subgroup_width,
    .prepare_module = prepare_module,
    .write_objects = spirv_write_objects,
};

const struct target_kind target_kind_spirv = {
    .name = "SPIR-V",
    .fatbin_vendor = FATBIN_VENDOR_VULKAN,
    .device_suffix = ".spv",
    .device_stage = "spirv",
    .device_format = FATBIN_FORMAT_SPIRV,
    .environment = environment,
    .nenvironment = sizeof environment / sizeof environment[0],
    .backend = "vulkan",
    .op_requirement = op_requirement,
    /* It refuses printf, atomics, subgroup and matrix ops (op_requirement):
     * "all" would refuse most programs that use them. Named, it is built. */
    .outside_all = 1,
    /* What MLIR's convert-gpu-to-spirv makes of gpu.module @m. */
    .carried_code = {"spirv.module", "__spv__"},
    .chips = chips,
    .nchips = 1,
    .lowering = &lowering,
};
