/* vulkan_pipeline.c: SPIR-V modules, their kernels, and launches.
 *
 * Loading a module reads it (spirv_reflect.c) before any driver call: its
 * capabilities and extensions against the device (a missing one is named,
 * vulkan_features.c), its entry points and their push-constant blocks,
 * which say how many parameters each kernel takes and where each goes.
 * A kernel is an entry point with a pipeline layout of one push-constant
 * range and no descriptor sets (gpucc's ABI passes everything as push
 * constants: pointers are buffer device addresses). Its pipelines are made
 * at the first launch of each block shape, with specialization constants
 * 0, 1, 2 set to the block's sizes (the module's WorkgroupSize), and kept:
 * lavapipe compiles each pipeline, which takes milliseconds.
 *
 * A launch copies params[i] (sizeof member i bytes) to member i's offset
 * in the push-constant block, binds, pushes and dispatches on the stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_fault.h"
#include "vulkan_rt.h"

/* The most push-constant bytes a launch packs (Vulkan guarantees 128;
 * gpucc's spirv target writes at most that). */
#define VK_MAX_PUSH 256

struct vk_pipeline {
  uint32_t block[3];
  VkPipeline pipeline;
  struct vk_pipeline *next;
};

struct vk_function {
  struct vk_module *module;
  const struct spirv_entry *entry;
  VkPipelineLayout layout;
  pthread_mutex_t lock;        /* guards pipelines */
  struct vk_pipeline *pipelines;
  struct rt_kernel_id id;
  char *kernel, *module_name;  /* the program's spellings, once told; owned */
  struct vk_function *next;
};

struct vk_module {
  VkShaderModule shader;
  struct spirv_module spirv;
  struct vk_function *functions;
};

int vk_module_load(const void *image, size_t size, int text, void **module, struct rt_err *e) {
  (void)text;
  struct vk_module *m = calloc(1, sizeof *m);
  if (!m)
    return rt_fail_msg(e, "out of memory");
  char err[512];
  if (spirv_reflect(image, size, &m->spirv, err, sizeof err) != 0) {
    rt_fail_msg(e, "the SPIR-V module is malformed: %s", err);
    goto fail;
  }
  if (m->spirv.descriptors) {
    rt_fail_msg(e, "the SPIR-V module binds descriptor sets (upstream MLIR's Vulkan ABI), which "
                   "gpucc's Vulkan backend does not; build it with gpucc's spirv target");
    goto fail;
  }
  /* The gpu.module's name is not known to a backend (module.c names it
   * in GPUCC_LOG's line about the object it chose). */
  if (vk_check_module_needs(&m->spirv, &vkd.features, vkd.name, "the module", e) != 0)
    goto fail;
  VkShaderModuleCreateInfo info = {.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO,
                                   .codeSize = size,
                                   .pCode = NULL};
  /* pCode must be 4-byte aligned; the fat binary's bytes need not be. */
  uint32_t *code = malloc(size);
  if (!code) {
    rt_fail_msg(e, "out of memory");
    goto fail;
  }
  memcpy(code, image, size);
  info.pCode = code;
  VkResult r = vk.vkCreateShaderModule(vkd.device, &info, NULL, &m->shader);
  free(code);
  if (r != VK_SUCCESS) {
    vk_fail(e, "vkCreateShaderModule", r);
    goto fail;
  }
  *module = m;
  return 0;
fail:
  spirv_module_free(&m->spirv);
  free(m);
  return -1;
}

static void vk_function_free(struct vk_function *f) {
  for (struct vk_pipeline *p = f->pipelines, *next; p; p = next) {
    next = p->next;
    vk.vkDestroyPipeline(vkd.device, p->pipeline, NULL);
    free(p);
  }
  if (f->layout)
    vk.vkDestroyPipelineLayout(vkd.device, f->layout, NULL);
  rt_fault_forget_kernel(&f->id);
  pthread_mutex_destroy(&f->lock);
  free(f->kernel);
  free(f->module_name);
  free(f);
}

int vk_module_unload(void *module, struct rt_err *e) {
  struct vk_module *m = module;
  /* Launches still queued use its pipelines; at exit, failing to wait is
   * not worth a message. */
  struct rt_err ignored;
  vk_wait_idle(&ignored);
  (void)e;
  for (struct vk_function *f = m->functions, *next; f; f = next) {
    next = f->next;
    vk_function_free(f);
  }
  vk.vkDestroyShaderModule(vkd.device, m->shader, NULL);
  spirv_module_free(&m->spirv);
  free(m);
  return 0;
}

int vk_module_function(void *module, const char *name, void **function, struct rt_err *e) {
  struct vk_module *m = module;
  const struct spirv_entry *entry = spirv_find_entry(&m->spirv, name);
  if (!entry)
    return rt_fail_msg(e, "the SPIR-V module has no GLCompute entry point '%s'", name);
  if (entry->push_size > vkd.props.limits.maxPushConstantsSize ||
      entry->push_size > VK_MAX_PUSH)
    return rt_fail_msg(e, "kernel '%s' has %u bytes of parameters; the Vulkan device '%s' takes "
                          "at most %u bytes of push constants",
                       name, entry->push_size, vkd.name,
                       vkd.props.limits.maxPushConstantsSize < VK_MAX_PUSH
                           ? vkd.props.limits.maxPushConstantsSize
                           : VK_MAX_PUSH);
  struct vk_function *f = calloc(1, sizeof *f);
  if (!f)
    return rt_fail_msg(e, "out of memory");
  VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, entry->push_size};
  VkPipelineLayoutCreateInfo info = {.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
                                     .pushConstantRangeCount = entry->push_size ? 1 : 0,
                                     .pPushConstantRanges = &range};
  VkResult r = vk.vkCreatePipelineLayout(vkd.device, &info, NULL, &f->layout);
  if (r != VK_SUCCESS) {
    free(f);
    return vk_fail(e, "vkCreatePipelineLayout", r);
  }
  f->module = m;
  f->entry = entry;
  f->id.name = entry->name;
  pthread_mutex_init(&f->lock, NULL);
  /* module.c serializes lookups per module (its lock). */
  f->next = m->functions;
  m->functions = f;
  *function = f;
  return 0;
}

int vk_function_limits(void *function, struct rt_limits *l, struct rt_err *e) {
  (void)e;
  const struct spirv_entry *entry = ((struct vk_function *)function)->entry;
  /* LocalSize: the one shape it runs with (the refusal names both). */
  if (entry->local[0])
    memcpy(l->block, entry->local, sizeof l->block);
  return 0;
}

void vk_function_module(void *function, const char *kernel, const char *module) {
  struct vk_function *f = function;
  char *k = strdup(kernel), *m = strdup(module);
  if (!k || !m) {
    free(k);
    free(m);
    return;
  }
  free(f->kernel);
  free(f->module_name);
  f->kernel = k;
  f->module_name = m;
  f->id.name = k;
  f->id.module = m;
}

/* The pipeline for a block shape, made at its first launch. */
static int vk_pipeline_for(struct vk_function *f, const unsigned block[3], VkPipeline *out,
                           struct rt_err *e) {
  pthread_mutex_lock(&f->lock);
  for (struct vk_pipeline *p = f->pipelines; p; p = p->next)
    if (p->block[0] == block[0] && p->block[1] == block[1] && p->block[2] == block[2]) {
      *out = p->pipeline;
      pthread_mutex_unlock(&f->lock);
      return 0;
    }
  struct vk_pipeline *p = calloc(1, sizeof *p);
  if (!p) {
    pthread_mutex_unlock(&f->lock);
    return rt_fail_msg(e, "out of memory");
  }
  memcpy(p->block, block, sizeof p->block);
  VkSpecializationMapEntry ids[3] = {{0, 0, 4}, {1, 4, 4}, {2, 8, 4}};
  VkSpecializationInfo spec = {3, ids, sizeof p->block, p->block};
  VkComputePipelineCreateInfo info = {
      .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
      .stage = {.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                .stage = VK_SHADER_STAGE_COMPUTE_BIT,
                .module = f->module->shader,
                .pName = f->entry->name,
                .pSpecializationInfo = &spec},
      .layout = f->layout};
  VkResult r =
      vk.vkCreateComputePipelines(vkd.device, VK_NULL_HANDLE, 1, &info, NULL, &p->pipeline);
  if (r != VK_SUCCESS) {
    pthread_mutex_unlock(&f->lock);
    free(p);
    return vk_fail(e, "vkCreateComputePipelines", r);
  }
  p->next = f->pipelines;
  f->pipelines = p;
  *out = p->pipeline;
  pthread_mutex_unlock(&f->lock);
  return 0;
}

/* The push-constant block of a launch, from its params. */
static int vk_pack(const struct vk_function *f, const struct rt_launch *l, unsigned char *block,
                   struct rt_err *e) {
  const struct spirv_entry *entry = f->entry;
  if (l->nparams != entry->nparams)
    return rt_fail_msg(e, "kernel '%s' takes %zu parameters (its push-constant block), the "
                          "launch passes %zu",
                       f->id.name, entry->nparams, l->nparams);
  if (l->extra)
    return rt_fail_msg(e, "kernel '%s': the Vulkan backend takes parameters in params only, "
                          "not extra", f->id.name);
  for (size_t i = 0; i < entry->nparams; i++) {
    if (!l->params || !l->params[i])
      return rt_fail_msg(e, "kernel '%s': parameter %zu is missing (NULL)", f->id.name, i);
    memcpy(block + entry->params[i].offset, l->params[i], entry->params[i].size);
  }
  return 0;
}

int vk_launch(const struct rt_launch *l, struct rt_err *e) {
  struct vk_function *f = l->function;
  if (l->smem)
    return rt_fail_msg(e, "kernel '%s' launched with %u bytes of dynamic shared memory, which "
                          "Vulkan does not have (only the module's own workgroup variables)",
                       f->id.name, l->smem);
  unsigned char block[VK_MAX_PUSH] = {0};
  VkPipeline pipeline = VK_NULL_HANDLE;
  if (vk_pack(f, l, block, e) != 0 || vk_pipeline_for(f, l->block, &pipeline, e) != 0)
    return -1;
  struct vk_op op;
  if (vk_op_begin(l->stream, &op, e) != 0)
    return -1;
  vk.vkCmdBindPipeline(op.cb, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
  if (f->entry->push_size)
    vk.vkCmdPushConstants(op.cb, f->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, f->entry->push_size,
                          block);
  vk.vkCmdDispatch(op.cb, l->grid[0], l->grid[1], l->grid[2]);
  rt_fault_note_launch(l->stream, &f->id);
  return vk_op_end(&op, NULL, e);
}
