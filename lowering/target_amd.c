/* target_amd.c: AMD GPUs (gfxXXX, with target-id features).
 *
 * A device job lowers each gpu.module through ROCDL and serializes it into
 * a linked hsaco (ld.lld from LLVM 22, the ROCm device libraries), which
 * goes into the fat binary as it is: nothing finishes it afterwards. Code
 * object v5, loadable by ROCm 5.x and 6.x alike. */
#include "target_kinds.h"
#include "target_rows.h"
#include "toolchain_rocm.h"

#include "device_amd_assert.h"
#include "device_amd_private.h"
#include "device_amd_mma.h"
#include "device_amd_object.h"

#include "diag.h"
#include "native_probe.h"
#include "fatbin.h"
#include "xstr.h"

#include <mlir-c/BuiltinAttributes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What this kind found of ld.lld and the ROCm device libraries
 * (toolchain_rocm.c). */
static struct rocm_found *rocm(const struct toolchain *tc) {
  struct rocm_found *r = toolchain_found(tc, &target_kind_amd);
  if (!r)
    BUG("an AMD hook before toolchain_find");
  return r;
}

static void describe(const struct target *t, char *buf, size_t size) {
  snprintf(buf, size, "target '%s'", t->id);
}

static void attr(char *buf, size_t size, const struct target *t, int opt) {
  snprintf(buf, size, "#rocdl.target<O = %d, chip = \"%s\", features = \"%s\", abi = \"500\">", opt,
           t->info->chip, t->features);
}

/* The math ops the device libraries have become their calls
 * (convert-math-to-rocdl, a builtin.module pass: it declares them); the
 * rest become LLVM intrinsics after the GPU conversion. */
static int pipeline(char *buf, size_t size, const struct target *t) {
  return snprintf(buf, size,
                  "builtin.module(gpu.module(" DEVICE_PREP "),convert-vector-to-llvm,"
                  "convert-math-to-rocdl{chipset=%s},gpu.module(convert-gpu-to-rocdl{chipset=%s "
                  "runtime=HIP},convert-amdgpu-to-rocdl{chipset=%s},convert-math-to-llvm,canonicalize,cse,reconcile-unrealized-casts))",
                  t->info->chip, t->info->chip, t->info->chip) >= (int)size;
}

static int serialize(char *buf, size_t size, const struct target *t, const struct toolchain *tc,
                     int debug) {
  (void)t;
  return snprintf(buf, size, "builtin.module(%sgpu-module-to-binary{format=llvm toolkit=%s})",
                  debug ? DEBUG_INFO : "", rocm(tc)->shim) >= (int)size;
}

/* The serialization stops at optimized bitcode (device libraries linked):
 * the object comes from LLVM's code generator, linked by ld.lld
 * (device_amd_object.c), without the assembly text that format=bin prints
 * and parses back. */
static int codegen(const char *bitcode, size_t size, const struct target *t,
                   const struct toolchain *tc, int opt, const struct device_parts *parts,
                   const char *out_path) {
  (void)parts; /* no finish_parts: always whole */
  return lowering_amd_hsaco(bitcode, size, t->info->chip, t->features, opt, rocm(tc)->ld_lld,
                            out_path);
}

/* The CDNA chips (wave64, with MFMA) are one family: LLVM optimizes
 * their code alike (tests/driver/device_family.sh compares each chip's
 * own objects with its family's), when the program leaves the chip out of
 * its lowering (no AMD ops, no matrix or lane ops, whose lowering is the
 * chip's) and out of its optimization (no device-library calls: the
 * libraries read the chip's ISA version). Target-id features stay apart. */
static const char *family(const struct target *t) {
  static const char *const cdna[] = {"gfx908", "gfx90a", "gfx942", "gfx950"};
  static char key[96];
  for (size_t i = 0; i < sizeof cdna / sizeof cdna[0]; i++)
    if (!strcmp(t->info->chip, cdna[i])) {
      snprintf(key, sizeof key, "cdna:%s", t->features);
      return key;
    }
  return NULL;
}

static int links_chip_code(MlirModule lowered) {
  return lowering_has_function(lowered, (const char *const[]){"__ocml_", "__ockl_", "__oclc_", NULL});
}

/* The matrix-unit layout of gpu.subgroup_mma fragments: RDNA3 and RDNA4
 * have WMMA, CDNA MFMA in three sets of instructions (device_amd_mma.c);
 * gfx900, gfx906 and RDNA2 have no matrix unit and get gpucc's lowering
 * over lane shuffles (device_mma_lanes.c). */
static const struct mma_lowering *mma_layout(const struct target *t) {
  const char *chip = t->info->chip;
  if (!strncmp(chip, "gfx11", 5))
    return &amd_mma_gfx11;
  if (!strncmp(chip, "gfx12", 5))
    return &amd_mma_gfx12;
  if (!strcmp(chip, "gfx908"))
    return &amd_mma_cdna1;
  if (!strcmp(chip, "gfx90a"))
    return &amd_mma_cdna2;
  if (!strcmp(chip, "gfx942") || !strcmp(chip, "gfx950"))
    return &amd_mma_cdna3;
  return &amd_mma_lanes;
}

/* What LLVM 22's ROCDL lowering lacks or gets wrong: gpu.subgroup_mma,
 * allocas outside private memory, cf.assert. */
static int prepare_module(MlirOperation gpu_module, const struct target *t) {
  char what[128];
  describe(t, what, sizeof what);
  return lowering_expand_mma(gpu_module, mma_layout(t), what) != 0 ||
                 lowering_amd_private_allocas(gpu_module) != 0 || lowering_amd_asserts(gpu_module) != 0
             ? -1
             : 0;
}

static int prepare(struct toolchain *tc) { return rocm_shim(rocm(tc)); }

/* What an op needs of an AMD chip: the matrix units are per family
 * (WMMA on RDNA3/4, MFMA on CDNA); gpu.subgroup_mma lowers on every chip
 * (device_mma.c: to either, or to lane shuffles where there is neither),
 * the other amdgpu ops are left to the ROCDL lowering. */
static const char *op_requirement(const struct target *t, const char *op) {
  const char *chip = t->info->chip;
  int wmma = !strncmp(chip, "gfx11", 5) || !strncmp(chip, "gfx12", 5);
  int mfma = !strcmp(chip, "gfx908") || !strcmp(chip, "gfx90a") || !strcmp(chip, "gfx942") ||
             !strcmp(chip, "gfx950");
  /* LLVM's code generators for GPUs cannot select them, and the expansion
   * (LowerMatrixIntrinsics) runs only in host code (llvm_emit.c). */
  if (!strncmp(op, "llvm.intr.matrix.", 17))
    return "the host target (LLVM expands matrix intrinsics only for the CPU)";
  if (!strcmp(op, "amdgpu.wmma"))
    return wmma ? NULL : "an AMD gfx11 or gfx12 (WMMA)";
  if (!strcmp(op, "amdgpu.mfma"))
    return mfma ? NULL : "an AMD gfx908, gfx90a, gfx942 or gfx950 (MFMA)";
  if (!strcmp(op, "amdgpu.sparse_mfma"))
    return !strcmp(chip, "gfx942") || !strcmp(chip, "gfx950") ? NULL : "an AMD gfx942 or gfx950 (sparse MFMA)";
  if (!strcmp(op, "amdgpu.scaled_mfma"))
    return !strcmp(chip, "gfx950") ? NULL : "an AMD gfx950 (scaled MFMA)";
  return NULL;
}

/* The target-id features (":xnack-") a chip has: its row's data. */
#define FEATURE_XNACK 1u
#define FEATURE_SRAMECC 2u
#define X FEATURE_XNACK
#define S FEATURE_SRAMECC
#define AMD &target_kind_amd
#define HAS(features) (&(const unsigned){features})

static const struct target_info chips[] = {
    {"gfx900", AMD, HAS(X)},      {"gfx906", AMD, HAS(X | S)},  {"gfx908", AMD, HAS(X | S)},
    {"gfx90a", AMD, HAS(X | S)},  {"gfx942", AMD, HAS(X | S)},  {"gfx950", AMD, HAS(X | S)},
    {"gfx1030", AMD, HAS(0)},     {"gfx1100", AMD, HAS(0)},     {"gfx1101", AMD, HAS(0)},
    {"gfx1102", AMD, HAS(0)},     {"gfx1200", AMD, HAS(0)},     {"gfx1201", AMD, HAS(0)},
};

#undef X
#undef S
#undef AMD
#undef HAS

/* Reads the ":feature+" / ":feature-" suffixes of a target id, as LLVM's
 * target ids: xnack and sramecc, where the chip has them. */
static int parse_features(const char *spec, const char *rest, struct target *out) {
  const char *chip = out->info->chip;
  unsigned has = *(const unsigned *)out->info->data;
  int xnack = 0, sramecc = 0; /* 0 = any, '+' or '-' */
  while (*rest == ':') {
    rest++;
    const char *end = strchr(rest, ':');
    size_t len = end ? (size_t)(end - rest) : strlen(rest);
    if (len < 2 || (rest[len - 1] != '+' && rest[len - 1] != '-'))
      return diag_error("invalid target id '%s': feature must end in '+' or '-'", spec);
    char sign = rest[len - 1];
    if (len - 1 == 5 && strncmp(rest, "xnack", 5) == 0 && (has & FEATURE_XNACK))
      xnack = sign;
    else if (len - 1 == 7 && strncmp(rest, "sramecc", 7) == 0 && (has & FEATURE_SRAMECC))
      sramecc = sign;
    else
      return diag_error("invalid target id '%s': '%s' does not support feature '%.*s'", spec,
                        chip, (int)(len - 1), rest);
    rest += len;
  }
  /* Canonical order is alphabetical, as in LLVM's target ids. */
  snprintf(out->id, sizeof out->id, "%s%s%s%s%s", chip, sramecc ? ":sramecc" : "",
           sramecc ? (sramecc == '+' ? "+" : "-") : "", xnack ? ":xnack" : "",
           xnack ? (xnack == '+' ? "+" : "-") : "");
  out->features[0] = '\0';
  if (xnack)
    snprintf(out->features, sizeof out->features, "%cxnack", xnack);
  if (sramecc) {
    size_t n = strlen(out->features);
    snprintf(out->features + n, sizeof out->features - n, "%s%csramecc", n ? "," : "", sramecc);
  }
  return 0;
}

/* GCN and CDNA chips (gfx9) run 64-lane wavefronts; RDNA (gfx10 and later)
 * 32 lanes, LLVM's default there. */
static unsigned subgroup_width(const struct target *t) {
  return strncmp(t->info->chip, "gfx9", 4) == 0 ? 64 : 32;
}

/* AMDGPU compiles a kernel for at most 256 threads per block unless told
 * otherwise (hipcc says 1024): a bigger launch fails. LLVM's lowering states
 * known_block_size as "N,N"; other kernels get the chips' limit. */
static void launch_bounds(MlirOperation kernel) {
  MlirStringRef name = mlirStringRefCreateFromCString("rocdl.flat_work_group_size");
  if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(kernel, name)))
    return;
  char text[32];
  snprintf(text, sizeof text, "1,%d", GPUCC_MAX_BLOCK_THREADS);
  MlirContext ctx = mlirOperationGetContext(kernel);
  mlirOperationSetDiscardableAttributeByName(
      kernel, name, mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(text)));
}

/* Lane reads in ROCDL: a ballot of the exec mask and readlane, 64-bit
 * masks on wave64. */
static void active(FILE *o, const char *mask) {
  fprintf(o, "  %%true = arith.constant true\n  %%active = rocdl.ballot %%true : %s\n", mask);
}

static void read_lane(FILE *o, int k, const char *piece, const char *lane) {
  fprintf(o, "    %%v%d = rocdl.readlane %s, %s : (i32, i32) -> i32\n", k, piece, lane);
}

static const struct lane_ops lane_ops = {.max_width = 64, .active = active, .read_lane = read_lane};

static const struct target_lowering lowering = {
    .describe = describe,
    .subgroup_width = subgroup_width,
    .lanes = &lane_ops,
    .lowered = (const char *const[]){"rocdl.", NULL},
    .kernel_attr = "rocdl.kernel",
    .attr = attr,
    .pipeline = pipeline,
    .serialize = serialize,
    .codegen = codegen,
    .family = family,
    .chip_ops = (const char *const[]){"amdgpu.", "rocdl.", "gpu.subgroup_mma", "gpu.subgroup_reduce",
                                      "gpu.shuffle", "gpu.all_reduce", "vector.contract", NULL},
    .links_chip_code = links_chip_code,
    .prepare_module = prepare_module,
    .launch_bounds = launch_bounds,
};

/* The device libraries linked into every hsaco (each bitcode file of the
 * directory found) and the ld.lld that links it: its resolved file, whose
 * size and time change with any upgrade, so that nothing is run to ask it
 * its version (a warm build would pay for that process every time). */
static char *cache_inputs(const struct toolchain *tc, const struct target *t,
                          const struct finish_request *r) {
  (void)t, (void)r;
  struct rocm_found *f = rocm(tc);
  char *libs = toolchain_dir_identity(f->bitcode, ".bc");
  char *lld = toolchain_file_identity(f->ld_lld);
  char *s = xasprintf("rocm-bitcode=%s ld.lld=%s", libs, lld);
  free(libs);
  free(lld);
  return s;
}

/* What the device libraries' discovery, the native probe and the
 * runtime's HIP backend and sparse library read. */
static const struct kind_variable environment[] = {
    {"ROCM_PATH", "the ROCm tree (device libraries) when --rocm-path is not given"},
    {"GPUCC_HIP_LIBRARY", "the HIP library to load (default libamdhip64.so), for "
                          "--offload-arch=native and the runtime"},
    {"GPUCC_HIPSPARSE_LIBRARY", "the hipSPARSE library the gpu sparse ops load"},
};

/* --offload-arch=native: the HIP runtime's devices (native_amd.c). */
void native_probe_amd(struct native_found *f);

const struct target_kind target_kind_amd = {
    .name = "AMD",
    .fatbin_vendor = FATBIN_VENDOR_AMD,
    .device_suffix = ".hsaco",
    .device_stage = "hsaco",
    .device_format = FATBIN_FORMAT_HSACO,
    .device_tool = "ld.lld",
    .options = rocm_options,
    .noptions = ROCM_NOPTIONS,
    .environment = environment,
    .nenvironment = sizeof environment / sizeof environment[0],
    .backend = "hip",
    .find_tools = rocm_find,
    .cache_inputs = cache_inputs,
    .prepare = prepare,
    .dialects = (const char *const[]){"amdgpu.", "rocdl.", NULL},
    .phrase = "an AMD target",
    .op_requirement = op_requirement,
    .parse_features = parse_features,
    .native_probe = native_probe_amd,
    .chips = chips,
    .nchips = sizeof chips / sizeof chips[0],
    .lowering = &lowering,
};
