/* program.c: an MLIR input as the driver holds it; see program.h. */
#include "program.h"

#include "diag.h"
#include "frontend.h"
#include "tmp.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/BuiltinTypes.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One distinct op name of the device code as written, at its first op. */
struct device_op {
  MlirIdentifier name; /* uniqued by the context: compared by identity */
  char *text;
  char *file;          /* NULL: no location */
  unsigned line, col;
  int carried_only;    /* only in gpu.modules that carry their own lowered code */
};

struct program {
  MlirModule module;
  size_t nmodules;
  MlirOperation *mods; /* the top-level gpu.modules */
  char **names;
  struct device_op *ops; /* the device code's op names, as written */
  int has_entry;         /* -e's function is here: main runs it */
  size_t nops;
};

struct device_ops {
  struct carried_code carried; /* the gpu.modules with the program's own code */
  MlirOperation root; /* the gpu.module or gpu.launch being walked */
  int carrying;       /* root carries its own lowered code */
  struct device_op *ops;
  size_t len, cap;
};

static MlirWalkResult add_device_op(MlirOperation op, void *arg) {
  struct device_ops *d = arg;
  if (mlirOperationEqual(op, d->root))
    return MlirWalkResultAdvance;
  /* The program's own SPIR-V is for one kind, which checks it. */
  if (frontend_is_carried_code(op))
    return MlirWalkResultSkip;
  MlirIdentifier name = mlirOperationGetName(op);
  for (size_t i = 0; i < d->len; i++)
    if (mlirIdentifierEqual(d->ops[i].name, name)) {
      d->ops[i].carried_only &= d->carrying;
      return MlirWalkResultAdvance;
    }
  if (d->len == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 32;
    struct device_op *grown = realloc(d->ops, d->cap * sizeof *grown);
    if (!grown)
      BUG("out of memory");
    d->ops = grown;
  }
  struct device_op *o = &d->ops[d->len++];
  MlirStringRef s = mlirIdentifierStr(name);
  char file[1024];
  o->name = name;
  o->text = strndup(s.data, s.length);
  o->line = o->col = 0;
  o->carried_only = d->carrying;
  o->file = ir_location(mlirOperationGetLocation(op), file, sizeof file, &o->line, &o->col)
                ? strdup(file)
                : NULL;
  if (!o->text || (o->line && !o->file))
    BUG("out of memory");
  return MlirWalkResultAdvance;
}

/* gpu.modules and gpu.launch bodies (kernels once outlined) hold the
 * device code. */
static MlirWalkResult find_device_code(MlirOperation op, void *arg) {
  struct device_ops *d = arg;
  if (!ir_op_is(op, "gpu.module") && !ir_op_is(op, "gpu.launch"))
    return MlirWalkResultAdvance;
  d->root = op;
  d->carrying = 0;
  for (size_t i = 0; i < d->carried.len && !d->carrying; i++)
    d->carrying = mlirOperationEqual(d->carried.pairs[i].gpu_module, op);
  mlirOperationWalk(op, add_device_op, d, MlirWalkPreOrder);
  return MlirWalkResultSkip;
}

/* Before normalization, which rewrites (prepare.c lowers the nvgpu ops of
 * gpu.launch bodies to NVVM): the ops the user wrote, not gpucc's. */
static void collect_device_ops(struct program *p) {
  struct device_ops d = {{NULL, 0}, {NULL}, 0, NULL, 0, 0};
  frontend_find_carried_code(p->module, &d.carried, 0);
  mlirOperationWalk(mlirModuleGetOperation(p->module), find_device_code, &d, MlirWalkPreOrder);
  free(d.carried.pairs);
  p->ops = d.ops;
  p->nops = d.len;
}

static struct program_options options;

void program_configure(const struct program_options *o) {
  options = *o;
  frontend_set_host_memory_warnings(o->gpu_targets);
}

/* The program's gpu.modules and their names, in order. */
static void index_modules(struct program *p) {
  p->nmodules = ir_gpu_modules(p->module, &p->mods);
  p->names = calloc(p->nmodules + 1, sizeof *p->names);
  if (!p->names)
    BUG("out of memory");
  for (size_t m = 0; m < p->nmodules; m++)
    p->names[m] = ir_symbol_name(p->mods[m]);
}

int program_load(const char *path, struct program **out) {
  struct program *p = calloc(1, sizeof *p);
  if (!p)
    BUG("out of memory");
  if (frontend_parse(path, &p->module) != 0) {
    free(p);
    return -1;
  }
  collect_device_ops(p);
  /* First, as upstream's tests run it: the checks are for the ops the
   * program wrote (tensor ops before bufferization, gpu.launch bodies before
   * outlining). A failed check is a cf.assert, which host code reports on
   * stderr (host_assert.c) and kernels through their target's assert. */
  if (options.runtime_verification &&
      ir_run_pipeline(p->module, "builtin.module(generate-runtime-verification)") != 0) {
    mlirModuleDestroy(p->module);
    free(p);
    return -1;
  }
  int entry = frontend_entry(p->module, options.entry, options.entry_result);
  p->has_entry = entry > 0;
  if (entry < 0) {
    mlirModuleDestroy(p->module);
    free(p);
    return -1;
  }
  if (frontend_normalize(p->module) != 0) {
    mlirModuleDestroy(p->module);
    free(p);
    return -1;
  }
  index_modules(p);
  *out = p;
  return 0;
}

int program_load_normalized(const char *path, struct program **out) {
  struct program *p = calloc(1, sizeof *p);
  if (!p)
    BUG("out of memory");
  if (frontend_parse(path, &p->module) != 0) {
    free(p);
    return -1;
  }
  index_modules(p);
  *out = p;
  return 0;
}

MlirModule program_mlir(const struct program *p) { return p->module; }

int program_has_entry(const struct program *p) { return p->has_entry; }

size_t program_module_count(const struct program *p) { return p->nmodules; }

const char *program_module_name(const struct program *p, size_t m) { return p->names[m]; }

char *program_text(const struct program *p, size_t *len) {
  return ir_print_op(mlirModuleGetOperation(p->module), 0, len);
}

char *program_module_text(const struct program *p, size_t m, int debug_info, size_t *len) {
  return ir_print_op(p->mods[m], debug_info, len);
}

int program_defines(const struct program *p, const char *name) {
  return !mlirOperationIsNull(ir_find_function(p->module, name));
}

int program_each_device_op(const struct program *p,
                           int (*fn)(const char *op, const char *file, unsigned line, unsigned col,
                                     int carried_only, void *ud),
                           void *ud) {
  for (size_t i = 0; i < p->nops; i++) {
    const struct device_op *o = &p->ops[i];
    int rc = fn(o->text, o->file, o->line, o->col, o->carried_only, ud);
    if (rc)
      return rc;
  }
  return 0;
}

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* Bytes of a statically shaped memref; 0 for any other type (and for one
 * too large, which alloc_checks.c has refused already). */
static uint64_t memref_bytes(MlirType t) {
  int64_t n = ir_memref_bytes(t);
  return n > 0 ? (uint64_t)n : 0;
}

/* The workgroup attributions of a gpu.func are the entry block's arguments
 * after the function's own (workgroup_attributions of them). */
static uint64_t workgroup_bytes(MlirOperation fn) {
  MlirAttribute count = mlirOperationGetDiscardableAttributeByName(fn, ref("workgroup_attributions"));
  MlirAttribute ftype = mlirOperationGetInherentAttributeByName(fn, ref("function_type"));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  if (mlirAttributeIsNull(count) || !mlirAttributeIsAInteger(count) || mlirAttributeIsNull(ftype) ||
      mlirBlockIsNull(entry))
    return 0;
  intptr_t first = mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(ftype));
  intptr_t end = first + (intptr_t)mlirIntegerAttrGetValueInt(count);
  uint64_t total = 0;
  for (intptr_t i = first; i < end && i < mlirBlockGetNumArguments(entry); i++)
    total += memref_bytes(mlirValueGetType(mlirBlockGetArgument(entry, i)));
  return total;
}

/* known_block_size, when it is three positive sizes. */
static void known_block(MlirOperation fn, unsigned block[3]) {
  block[0] = block[1] = block[2] = 0;
  MlirAttribute known = mlirOperationGetInherentAttributeByName(fn, ref("known_block_size"));
  if (mlirAttributeIsNull(known) || !mlirAttributeIsADenseI32Array(known) ||
      mlirDenseArrayGetNumElements(known) != 3)
    return;
  for (intptr_t d = 0; d < 3; d++)
    if (mlirDenseI32ArrayGetElement(known, d) <= 0)
      return;
  for (intptr_t d = 0; d < 3; d++)
    block[d] = (unsigned)mlirDenseI32ArrayGetElement(known, d);
}


int program_each_kernel(const struct program *p, size_t m,
                        int (*fn)(const struct program_kernel *k, void *ud), void *ud) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p->mods[m], 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!ir_is_kernel(op))
      continue;
    char *name = ir_symbol_name(op);
    struct program_kernel k = {.name = name, .workgroup_bytes = workgroup_bytes(op)};
    known_block(op, k.block);
    int rc = fn(&k, ud);
    free(name);
    if (rc)
      return rc;
  }
  return 0;
}

int program_write(const struct program *p, const char *path) {
  return ir_write_op(mlirModuleGetOperation(p->module), path);
}

int program_write_normalized(const struct program *p, const char *path) {
  size_t len;
  char *text = ir_print_op(mlirModuleGetOperation(p->module), 1, &len);
  int rc = tmp_write_file(path, text, len);
  free(text);
  return rc;
}
