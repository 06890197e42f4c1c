/* device_spirv.h: the steps of the SPIR-V (Vulkan compute) kind's device
 * job, called only through its row (target_spirv.c).
 *
 * Before MLIR's conversion: gpucc's kernel form (pointer parameters that
 * rebuild memrefs, gpu attributions and address spaces) becomes what
 * convert-gpu-to-spirv takes for buffer device addresses
 * (device_spirv_args.c). After it: one push-constant block per entry
 * point in place of the parameters (device_spirv_push.c), the workgroup
 * size as specialization constants (device_spirv_wgsize.c), and, once
 * serialized, the BuiltIn decoration MLIR cannot write
 * (device_spirv_patch.c). The contract with the Vulkan runtime is
 * docs/notes/spirv-vulkan.md and the kernel ABI the runtime reads. */
#ifndef GPUCC_DEVICE_SPIRV_H
#define GPUCC_DEVICE_SPIRV_H

#include "lowering.h"

#include <mlir-c/IR.h>
#include <stddef.h>
#include <stdint.h>

/* Vulkan's guaranteed push-constant size: the most a kernel's
 * parameters may take. */
#define SPIRV_PUSH_CONSTANT_BYTES 128

/* Rewrites every kernel of one gpu.module into the form the conversion
 * takes: buffer parameters as PhysicalStorageBuffer memrefs (Restrict or
 * Aliased), attributions as Workgroup/Function allocations, gpu address
 * spaces as SPIR-V storage classes, spirv.entry_point_abi on each kernel.
 * Refuses, located, a kernel whose parameters exceed the push constants.
 * Returns 0 or -1 (reported). */
int spirv_adapt_kernels(MlirOperation gpu_module);

/* Where gpu.module gm carries the program's own SPIR-V for Vulkan (as
 * convert-gpu-to-spirv writes it): gives its entry points gpucc's kernel
 * parameters and moves it beside gm, for spirv_write_objects to use in
 * place of the conversion of gm, whose code goes. Returns 1 then, 0 where
 * gm carries none (or only SPIR-V for OpenCL, dropped with a warning), -1
 * on an error (reported) (device_spirv_carried.c). */
int spirv_take_carried_module(MlirOperation gm);

/* Where the program's SPIR-V sm has been through spirv-lower-abi-attrs:
 * the entry functions of gm's kernels get their arguments (descriptor
 * bindings, wrapped scalars) and spirv.entry_point_abi back, as
 * convert-gpu-to-spirv wrote them; bound variables left unused go.
 * Returns 0 or -1 (reported) (device_spirv_unlower.c). */
int spirv_unlower_entry_points(MlirOperation sm, MlirOperation gm);

/* The module spirv_take_carried_module moved beside gm into dev (the
 * device job's builtin.module); null if none. */
MlirOperation spirv_carried_module(MlirOperation dev, MlirOperation gm);

/* What a module reads or writes of 8- and 16-bit values in buffers or
 * push constants: capabilities spirv-update-vce does not deduce. */
#define SPIRV_NARROW_8 1u
#define SPIRV_NARROW_16 2u

/* Inlines every call of the gpu.module's device functions and erases
 * them; refuses, at the call, a recursive one. Returns 0 or -1 (reported). */
int spirv_inline_functions(MlirOperation gpu_module);

/* The reinterpret_casts of 1-D buffers that only loads, stores and
 * atomics use are folded into those (the linear index). */
void spirv_fold_views(MlirOperation gpu_module);

/* Replaces each entry point's parameters with loads from one
 * PushConstant block (Offset per member, natural alignment). *narrow
 * gets SPIRV_NARROW_* of its 8- and 16-bit members. */
int spirv_push_constants(MlirOperation spirv_module, unsigned *narrow);

/* The WorkgroupSize input variable becomes a composite of three
 * specialization constants (SpecId 0, 1, 2), made whenever an entry point
 * has no fixed size. */
int spirv_workgroup_size(MlirOperation spirv_module);

/* Memory accesses through PhysicalStorageBuffer pointers without an
 * alignment get their element's natural one (Vulkan wants Aligned).
 * Returns SPIRV_NARROW_* of the accesses' widths. */
unsigned spirv_align_buffer_accesses(MlirOperation spirv_module);

/* The serialized module with `OpDecorate %c BuiltIn WorkgroupSize` on the
 * composite of the spec constants 0, 1, 2, which MLIR's serializer drops:
 * a new malloc'ed word array (*nwords updated), or the input copied when
 * it has no such composite. NULL when the words are not a well-formed
 * module (reported). */
uint32_t *spirv_patch_workgroup_size(const uint32_t *words, size_t *nwords);

/* The kind's write_objects: moves each converted spirv.module into its
 * gpu.module, applies the rewrites above, serializes and writes one
 * SPIR-V file per gpu.module. */
int spirv_write_objects(MlirModule dev, int opt, const struct module_range *r,
                        const char *const *out_paths);

#endif
