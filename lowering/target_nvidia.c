/* target_nvidia.c: NVIDIA GPUs (sm_XX).
 *
 * A device job lowers each gpu.module through NVVM to PTX text (the PTX ISA
 * version the chip needs, from the chip table); ptxas then assembles it
 * into a cubin as a job of its own. Both go into the fat binary: the cubin
 * for the chip, the PTX for the driver to compile for newer chips. Without
 * ptxas, PTX only. */
#include "target_nvvm.h"
#include "target_rows.h"
#include "toolchain_cuda.h"

#include "device_contract_wmma.h"
#include "device_nvidia_mma.h"
#include "device_nvidia_ptx_parts.h"
#include "device_nvidia_wmma.h"
#include "diag.h"
#include "llvm_emit.h"
#include "native_probe.h"
#include "fatbin.h"
#include "tmp.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What this kind found of the CUDA toolkit (toolchain_cuda.c). */
static const struct cuda_found *cuda(const struct toolchain *tc) {
  const struct cuda_found *c = toolchain_found(tc, &target_kind_nvidia);
  if (!c)
    BUG("an NVIDIA hook before toolchain_find");
  return c;
}

/* The PTX ISA version target t needs, times 10 (its chip's row data). */
static int ptx_version(const struct target *t) { return *(const int *)t->info->data; }

static void describe(const struct target *t, char *buf, size_t size) {
  snprintf(buf, size, "target '%s'", t->id);
}

static void attr(char *buf, size_t size, const struct target *t, int opt) {
  snprintf(buf, size, "#nvvm.target<O = %d, chip = \"%s\", features = \"%s\">", opt, t->info->chip,
           t->features);
}

/* NVIDIA's own: the nvgpu dialect too (mma.sync, ldmatrix, cp.async, TMA,
 * mbarriers, wgmma: NVIDIA-only instructions, so not for the host target,
 * whose leftover check then names them). On sm_80 and newer the full-warp
 * i32 reductions device_subgroup.c leaves become redux.sync (has-redux);
 * the host target cannot run redux, so NVVM_PIPELINE never has it. */
#define NVIDIA_NVGPU "convert-nvgpu-to-nvvm,"
#define NVIDIA_PIPELINE NVVM_PIPELINE_WITH(NVIDIA_NVGPU, "")
#define NVIDIA_PIPELINE_REDUX NVVM_PIPELINE_WITH(NVIDIA_NVGPU, "{has-redux}")

/* redux.sync came with sm_80 ("sm_90a": 90). */
static int has_redux(const struct target *t) { return atoi(t->info->chip + 3) >= 80; }

static int pipeline(char *buf, size_t size, const struct target *t) {
  const char *text = has_redux(t) ? NVIDIA_PIPELINE_REDUX : NVIDIA_PIPELINE;
  return snprintf(buf, size, "%s", text) >= (int)size;
}

/* For PTX, -g gives only .loc directives: DWARF sections make ptxas refuse
 * optimized code ("Optimized debugging not supported"), while .loc is what
 * -lineinfo keeps. */
#define DEBUG_INFO_PTX "ensure-debug-info-scope-on-llvm-func{emission-kind=DebugDirectivesOnly},"

static int serialize(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                     int debug) {
  (void)t;
  /* The toolkit only tells the serialization where libdevice is; given a
   * folder without it, LLVM reports an error about libdevice even for code
   * that calls none (check_object says it when code does). */
  const struct cuda_found *c = cuda(tc);
  int libdevice = c->path[0] && c->libdevice[0];
  return snprintf(buf, size, "builtin.module(%sgpu-module-to-binary{format=llvm%s%s})",
                  debug ? DEBUG_INFO_PTX : "", libdevice ? " toolkit=" : "",
                  libdevice ? c->path : "") >= (int)size;
}

/* PTX that still calls __nv_* functions will not assemble. */
static int check_object(const char *ptx, size_t size, const struct target *t,
                        const struct toolchain *tc) {
  const struct cuda_found *c = cuda(tc);
  if (c->libdevice[0])
    return 0;
  const char *p = memmem(ptx, size, "__nv_", 5);
  if (!p)
    return 0;
  const char *end = p;
  while (end < ptx + size && (end[0] == '_' || (end[0] >= 'a' && end[0] <= 'z') || (end[0] >= '0' && end[0] <= '9')))
    end++;
  return diag_error("%s: device code calls '%.*s' but CUDA's libdevice was not found%s; "
                    "install the CUDA toolkit or pass --cuda-path",
                    t->id, (int)(end - p), p, c->path[0] ? "" : " (no CUDA toolkit)");
}

/* The module's PTX in parts besides (device_nvidia_ptx_parts.h), for
 * ptxas to compile at once. */
static int write_parts(const char *ptx, size_t size, const struct device_parts *to) {
  size_t n = to->n;
  char **parts = calloc(n, sizeof *parts);
  size_t *sizes = calloc(n, sizeof *sizes);
  if (!parts || !sizes)
    BUG("out of memory");
  nvidia_ptx_parts(ptx, size, n, parts, sizes);
  int rc = 0;
  for (size_t i = 0; i < n; i++) {
    if (rc == 0)
      rc = tmp_write_file(to->paths[i], parts[i], sizes[i]);
    free(parts[i]);
  }
  free(parts);
  free(sizes);
  return rc;
}

/* The serialization stops at optimized bitcode (libdevice linked); the
 * PTX comes from LLVM's code generator here, the one step that reads the
 * chip and its PTX ISA version (device.c shares the rest in a family). */
static int codegen(const char *bitcode, size_t size, const struct target *t,
                   const struct toolchain *tc, int opt, const struct device_parts *parts,
                   const char *out_path) {
  struct device_machine m = {"nvptx64-nvidia-cuda", t->info->chip, t->features, opt};
  char *ptx;
  size_t n;
  if (lowering_codegen_bitcode(bitcode, size, &m, 1, &ptx, &n) != 0)
    return -1;
  int rc = check_object(ptx, n, t, tc) != 0 ? -1 : tmp_write_file(out_path, ptx, n);
  if (rc == 0 && parts && parts->n > 1)
    rc = write_parts(ptx, n, parts);
  free(ptx);
  return rc;
}

/* sm_80 to sm_90a are one family: LLVM optimizes their code alike
 * (tests/driver/device_family.sh compares), when the program uses no
 * NVIDIA op (their lowering reads the chip), and optimizes it on its own
 * when it calls libdevice or asks NVVM reflection (__CUDA_ARCH is the
 * chip's). The PTX ISA version is code generation's alone. */
static const char *family(const struct target *t) {
  int sm = atoi(t->info->chip + 3);
  return sm >= 80 && sm <= 90 ? "sm_80-sm_90a" : NULL;
}

static int links_chip_code(MlirModule lowered) {
  return lowering_has_function(lowered, (const char *const[]){"__nv_", "__nvvm_reflect", NULL});
}

static int can_finish(const struct toolchain *tc) { return cuda(tc)->ptxas[0] != 0; }

/* The CUDA release (the PTX ISA the code may use), the ptxas that makes the
 * cubins and its -Xptxas options, the libdevice linked into the PTX, and
 * the nvlink that joins a module's parts. */
static char *cache_inputs(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r) {
  (void)t, (void)r;
  const struct cuda_found *c = cuda(tc);
  char *ptxas = toolchain_file_identity(c->ptxas);
  char *lib = toolchain_file_identity(c->libdevice[0] ? c->libdevice : NULL);
  char *nvlink = toolchain_file_identity(c->nvlink[0] ? c->nvlink : NULL);
  char *s = xasprintf("cuda=%s ptxas=%s libdevice=%s nvlink=%s", c->version[0] ? c->version : "-", ptxas,
                      lib, nvlink);
  free(ptxas);
  free(lib);
  free(nvlink);
  for (size_t i = 0; i < c->nptxas_args; i++) {
    char *more = xasprintf("%s Xptxas=%s", s, c->ptxas_args[i]);
    free(s);
    s = more;
  }
  return s;
}

/* ptxas runs on one core. --split-compile would spread a module's
 * optimizations over threads, but measured on bench.compile's 64 kernels
 * it cost twice the CPU for no shorter wall time (0.24 s against 0.48 s of
 * CPU for sm_90; 0.25 s against 0.74 s wall on a loaded machine, about the
 * same on an idle one): gpucc has other jobs for the other cores. */

static char **finish_argv(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r, const char *ptx, const char *cubin) {
  static const char *const levels[] = {"-O0", "-O1", "-O2", "-O3"};
  const struct cuda_found *c = cuda(tc);
  char **argv = calloc(10 + c->nptxas_args, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  argv[k++] = (char *)c->ptxas;
  argv[k++] = (char *)"-arch";
  argv[k++] = (char *)t->info->chip;
  argv[k++] = (char *)levels[r->opt < 0 ? 0 : r->opt > 3 ? 3 : r->opt];
  if (r->line_info)
    argv[k++] = (char *)"-lineinfo";
  if (r->part)
    argv[k++] = (char *)"-c"; /* relocatable: nvlink joins the parts */
  for (size_t i = 0; i < c->nptxas_args; i++)
    argv[k++] = (char *)c->ptxas_args[i];
  argv[k++] = (char *)ptx;
  argv[k++] = (char *)"-o";
  argv[k++] = (char *)cubin;
  argv[k] = NULL;
  return argv;
}

/* A module that holds most of a build's kernels is ptxas's longest job,
 * and the build's other jobs (host code, the other modules) are done
 * before it: one part per KERNELS_PER_PART kernels (at most MAX_PARTS)
 * keeps the cores busy. When it holds half or less (several targets, or
 * modules alike), the other finishing jobs fill the cores already, and
 * each part would cost a ptxas start (0.04 s) and the join an nvlink
 * (0.01 s): it stays whole. bench.compile: one target, 64 kernels, two
 * cores: ptxas 0.18 s whole, 0.13 s in two parts with nvlink. */
#define KERNELS_PER_PART 32
#define MAX_PARTS 8

static size_t finish_parts(const struct toolchain *tc, size_t kernels, size_t all) {
  const struct cuda_found *c = cuda(tc);
  if (!c->ptxas[0] || !c->nvlink[0] || 2 * kernels <= all)
    return 1;
  size_t n = kernels / KERNELS_PER_PART;
  return n < 1 ? 1 : n > MAX_PARTS ? MAX_PARTS : n;
}

static char **join_argv(const struct toolchain *tc, const struct target *t, const char *const *objs,
                        size_t n, const char *out) {
  const struct cuda_found *c = cuda(tc);
  char **argv = calloc(n + 5, sizeof *argv);
  if (!argv)
    BUG("out of memory");
  size_t k = 0;
  argv[k++] = (char *)c->nvlink;
  argv[k++] = xasprintf("-arch=%s", t->info->chip);
  for (size_t i = 0; i < n; i++)
    argv[k++] = (char *)objs[i];
  argv[k++] = (char *)"-o";
  argv[k++] = (char *)out;
  argv[k] = NULL;
  return argv;
}

static int prepare(struct toolchain *tc) {
  const struct cuda_found *c = cuda(tc);
  if (!c->ptxas[0])
    diag_warning("no ptxas found (%s): NVIDIA targets get PTX only, compiled by the driver at load time",
                 c->path[0] ? "the CUDA toolkit has no bin/ptxas" : "no CUDA toolkit; use --cuda-path");
  return 0;
}

/* The oldest ptxas that knows a chip is the one to ask for: a newer PTX ISA
 * than this ptxas accepts is refused up front, with both versions named. */
static int check(const struct target *t, const struct toolchain *tc) {
  const struct cuda_found *c = cuda(tc);
  if (!c->ptxas[0] || !c->max_ptx || ptx_version(t) <= c->max_ptx)
    return 0;
  return diag_error("target '%s' needs PTX ISA %d.%d but ptxas from CUDA %s accepts at most %d.%d",
                    t->id, ptx_version(t) / 10, ptx_version(t) % 10, c->version, c->max_ptx / 10,
                    c->max_ptx % 10);
}

/* What an op needs of an NVIDIA chip, as LLVM 22 compiles it with the
 * chip's PTX version (below): wgmma exists on sm_90a alone; the bulk (TMA)
 * copies and mbarrier tx-counts need PTX 8.0, which sm_90 does not get;
 * ldmatrix needs PTX 6.5, which sm_75 does not get. A rule is an op name
 * or a prefix ending in '.' or '_'. */
static const char *op_requirement(const struct target *t, const char *op) {
  static const struct {
    const char *op;
    int sm, ptx, only_90a;
    const char *needs;
  } rules[] = {
      {"nvgpu.warpgroup.", 90, 80, 1, "sm_90a"},
      {"nvvm.wgmma.", 90, 80, 1, "sm_90a"},
      {"nvgpu.tma.", 90, 80, 0, "sm_90a, sm_100 or later"},
      {"nvvm.cp.async.bulk.", 90, 80, 0, "sm_90a, sm_100 or later"},
      {"nvgpu.mbarrier.arrive.expect_tx", 90, 80, 0, "sm_90a, sm_100 or later"},
      {"nvgpu.mbarrier.try_wait.parity", 90, 0, 0, "sm_90 or later"},
      {"nvgpu.mma.sync", 80, 0, 0, "sm_80 or later"},
      {"nvgpu.mma.sp.sync", 80, 0, 0, "sm_80 or later"},
      {"nvgpu.ldmatrix", 80, 0, 0, "sm_80 or later"},
      {"nvgpu.device_async_", 80, 0, 0, "sm_80 or later"},
  };
  /* LLVM's code generators for GPUs cannot select them, and the expansion
   * (LowerMatrixIntrinsics) runs only in host code (llvm_emit.c). */
  if (!strncmp(op, "llvm.intr.matrix.", 17))
    return "the host target (LLVM expands matrix intrinsics only for the CPU)";
  const char *chip = t->info->chip;
  int sm = atoi(chip + 3);
  for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
    size_t n = strlen(rules[i].op);
    int prefix = rules[i].op[n - 1] == '.' || rules[i].op[n - 1] == '_';
    if (prefix ? strncmp(op, rules[i].op, n) != 0 : strcmp(op, rules[i].op) != 0)
      continue;
    int ok = rules[i].only_90a ? !strcmp(chip, "sm_90a")
                               : sm >= rules[i].sm && ptx_version(t) >= rules[i].ptx;
    return ok ? NULL : rules[i].needs;
  }
  return NULL;
}

/* The PTX column (a chip's row data) is the minimum PTX ISA version, times
 * 10 (78 = 7.8), LLVM's NVPTX backend accepts for each chip. Asking for
 * exactly that version (instead of the backend's +ptx60 default, a fatal
 * error for sm_90) keeps the PTX loadable by the oldest ptxas and driver
 * that support the chip. */
#define NV &target_kind_nvidia
#define PTX(version) (&(const int){version})
static const struct target_info chips[] = {
    {"sm_75", NV, PTX(63)},   {"sm_80", NV, PTX(70)},   {"sm_86", NV, PTX(71)},
    {"sm_87", NV, PTX(74)},   {"sm_89", NV, PTX(78)},   {"sm_90", NV, PTX(78)},
    {"sm_90a", NV, PTX(80)},  {"sm_100", NV, PTX(86)},  {"sm_100a", NV, PTX(86)},
    {"sm_120", NV, PTX(87)},  {"sm_120a", NV, PTX(87)},
};
#undef NV
#undef PTX

/* An NVIDIA target id is its chip alone; its LLVM features ask for the
 * chip's PTX ISA version. */
static int parse_features(const char *spec, const char *rest, struct target *out) {
  if (*rest)
    return target_refuse_features(spec, out);
  snprintf(out->features, sizeof out->features, "+ptx%d", ptx_version(out));
  return 0;
}

static unsigned subgroup_width(const struct target *t) {
  (void)t;
  return 32; /* a warp */
}

/* Warp-uniform 16x16x16 contractions become gpu.subgroup_mma ops
 * (device_contract_wmma.c; every chip of the table has f16 wmma, sm_70 and
 * newer), while gpu.subgroup_id is still an op it can read as uniform. */
static int early_module(MlirOperation gpu_module, const struct target *t) {
  (void)t;
  return lowering_contract_to_wmma(gpu_module) < 0 ? -1 : 0;
}

/* LLVM lowers gpu.subgroup_mma to wmma except the elementwise ops
 * (device_nvidia_mma.c). */
static int prepare_module(MlirOperation gpu_module, const struct target *t) {
  char what[128];
  describe(t, what, sizeof what);
  return lowering_expand_mma(gpu_module, &nvidia_mma_wmma, what);
}

/* known_block_size is a promise that blocks have exactly that shape (code
 * may rely on it), which PTX states as .reqntid: the driver then refuses any
 * other launch. LLVM's lowering says .maxntid (a bound only), and PTX allows
 * one of the two. Without it, nothing: 1024 is every chip's own limit. */
static void launch_bounds(MlirOperation kernel) {
  MlirStringRef maxntid = mlirStringRefCreateFromCString("nvvm.maxntid");
  MlirAttribute known = mlirOperationGetDiscardableAttributeByName(kernel, maxntid);
  if (mlirAttributeIsNull(known))
    return;
  mlirOperationSetDiscardableAttributeByName(kernel, mlirStringRefCreateFromCString("nvvm.reqntid"), known);
  mlirOperationRemoveDiscardableAttributeByName(kernel, maxntid);
}

/* Shared, constant and local memory are addressed with 32-bit pointers, as
 * nvcc and clang do: those windows are smaller than 4 GiB, and 64-bit
 * addresses cost a register pair and wider arithmetic per access.
 * Loop strength reduction stays off, as in nvcc's PTX: it turned a tiled
 * matmul's `t < tiles` loop into a count-down to zero, which ptxas then
 * unrolled eight times around its barriers (tests/bench/codegen: SGEMM SASS
 * 3.9x nvcc's with it, 0.97x without; no kernel there grew). */
static const char *const llvm_options[] = {"-nvptx-short-ptr", "-disable-lsr", NULL};

static const struct target_lowering lowering = {
    .describe = describe,
    .subgroup_width = subgroup_width,
    .lanes = &nvvm_lane_ops,
    .lowered = (const char *const[]){"nvvm.", NULL},
    .kernel_attr = "nvvm.kernel",
    .has_redux = has_redux,
    .attr = attr,
    .pipeline = pipeline,
    .serialize = serialize,
    .codegen = codegen,
    .family = family,
    .chip_ops = (const char *const[]){"nvgpu.", "nvvm.", NULL},
    .links_chip_code = links_chip_code,
    .early_module = early_module,
    .prepare_module = prepare_module,
    .launch_bounds = launch_bounds,
    .finish_module = lowering_nvidia_wmma_global,
    .llvm_options = llvm_options,
};

/* What the toolkit's discovery, the native probe and the runtime's CUDA
 * backend and sparse libraries read. */
static const struct kind_variable environment[] = {
    {"CUDA_PATH", "the CUDA toolkit (ptxas, libdevice) when --cuda-path is not given (default "
                  "/usr/local/cuda)"},
    {"GPUCC_CUDA_LIBRARY", "the CUDA driver library to load (default libcuda.so.1), for "
                           "--offload-arch=native and the runtime"},
    {"GPUCC_CUSPARSE_LIBRARY", "the cuSPARSE library the gpu sparse ops load"},
    {"GPUCC_CUSPARSELT_LIBRARY", "the cuSPARSELt library the 2:4 sparse ops load"},
};

/* --offload-arch=native: the CUDA driver's devices (native_nvidia.c). */
void native_probe_nvidia(struct native_found *f);

const struct target_kind target_kind_nvidia = {
    .name = "NVIDIA",
    .fatbin_vendor = FATBIN_VENDOR_NVIDIA,
    .device_suffix = ".ptx",
    .device_stage = "ptx",
    .device_format = FATBIN_FORMAT_PTX,
    .device_nul = 1,
    .finished_suffix = ".cubin",
    .finished_stage = "cubin",
    .finished_format = FATBIN_FORMAT_CUBIN,
    .finish_tool = "ptxas",
    .options = cuda_options,
    .noptions = CUDA_NOPTIONS,
    .environment = environment,
    .nenvironment = sizeof environment / sizeof environment[0],
    .backend = "cuda",
    .find_tools = cuda_find,
    .can_finish = can_finish,
    .finish_argv = finish_argv,
    .finish_parts = finish_parts,
    .join_argv = join_argv,
    .join_tool = "nvlink",
    .cache_inputs = cache_inputs,
    .prepare = prepare,
    .check = check,
    .dialects = (const char *const[]){"nvgpu.", "nvvm.", NULL},
    .phrase = "an NVIDIA target",
    /* As upstream's gpu-lower-to-nvvm-pipeline does before outlining. */
    .host_ops = {"nvgpu.", "builtin.module(convert-nvgpu-to-nvvm)"},
    .op_requirement = op_requirement,
    .parse_features = parse_features,
    .native_probe = native_probe_nvidia,
    .chips = chips,
    .nchips = sizeof chips / sizeof chips[0],
    .lowering = &lowering,
};
