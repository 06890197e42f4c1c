/* names.c: gpu.modules and the functions in them get names every object can
 * carry (support/symname.h says which and how).
 *
 * Runs right after outlining, which names modules and kernels after the
 * host functions it takes them from, and before anything else reads a name:
 * the device and host code, the fat binary, its manifest, temp and --emit
 * file names all come from the renamed module. A name that needs it is
 * renamed with every reference to it:
 *   - a kernel or a gpu.module: each gpu.launch_func's @module::@kernel,
 *     in one pass over the launches (programs have thousands of each);
 *   - any other function defined in a gpu.module: the calls inside that
 *     module (the symbol table's own replace).
 * Declarations keep their names: they bind to definitions elsewhere
 * (libdevice, the runtime), which have theirs; one whose name no object can
 * carry (a space, '@', '/', a control byte, non-ASCII) is an error at the
 * declaration, since renaming it would bind it to nothing. Mangling is
 * injective and plain names never look mangled, so a new name can meet no
 * other. */
#include "frontend.h"

#include "diag.h"
#include "symname.h"

#include <mlir-c/BuiltinAttributes.h>
#include <mlir-c/Support.h>
#include <stdlib.h>
#include <string.h>

static MlirStringRef ref(const char *s) { return mlirStringRefCreateFromCString(s); }

/* The name op should have, or NULL when its own is fine. */
static char *new_name(MlirOperation op) {
  MlirStringRef old = ir_symbol_ref(op);
  if (symname_is_plain(old.data, old.length))
    return NULL;
  char *name = symname_mangle(old.data, old.length);
  if (!name)
    BUG("out of memory");
  return name;
}

/* A function with a body: gpu.func, func.func, llvm.func definitions. */
static int defines_function(MlirOperation op) {
  if (!ir_op_is(op, "gpu.func") && !ir_op_is(op, "func.func") &&
      !ir_op_is(op, "llvm.func"))
    return 0;
  return mlirOperationGetNumRegions(op) > 0 &&
         !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

/* A function declared, not defined: func.func or llvm.func without a body. */
static int declares_function(MlirOperation op) {
  return (ir_op_is(op, "func.func") || ir_op_is(op, "llvm.func")) &&
         !defines_function(op);
}

/* Whether an external symbol can have this name in device code: letters,
 * digits, '_', '$' and '.' (LLVM's intrinsics, which lowering replaces). */
static int declarable(MlirStringRef name) {
  if (name.length == 0)
    return 0;
  for (size_t i = 0; i < name.length; i++) {
    unsigned char c = (unsigned char)name.data[i];
    if (!symname_alnum(c) && c != '_' && c != '$' && c != '.')
      return 0;
  }
  return 1;
}

static int check_declaration(MlirOperation op) {
  MlirStringRef name = ir_symbol_ref(op);
  if (declarable(name))
    return 0;
  char *mangled = symname_mangle(name.data, name.length);
  char *shown = mangled ? symname_display(mangled, 1) : NULL;
  if (!shown)
    BUG("out of memory");
  free(mangled);
  int rc = ir_error_at(op, "no device object can carry the name of the external "
                             "function @%s; declare it by a name of letters, digits and '_'",
                             shown);
  free(shown);
  return rc;
}

static void set_name(MlirOperation op, const char *name) {
  mlirOperationSetAttributeByName(op, ref("sym_name"),
                                  mlirStringAttrGet(mlirOperationGetContext(op), ref(name)));
}

/* Gives a function of gpu.module `module` its new name and makes the
 * calls in that module follow. Returns 0, or -1 after an error at op. */
static int rename_function(MlirOperation op, const char *name, MlirOperation module) {
  MlirStringRef old = ir_symbol_ref(op); /* uniqued by the context: outlives the rename */
  if (mlirLogicalResultIsFailure(mlirSymbolTableReplaceAllSymbolUses(old, ref(name), module))) {
    char *shown = symname_display(name, 1);
    if (!shown)
      BUG("out of memory");
    int rc = ir_error_at(op, "cannot rename @%s to a name its objects can carry", shown);
    free(shown);
    return rc;
  }
  set_name(op, name);
  return 0;
}

/* One symbol to rename. */
struct rename {
  MlirOperation op;
  MlirStringRef old; /* its name as written */
  char *name;        /* its new name */
};

struct renames {
  struct rename *r;
  size_t n, cap;
};

static void add_rename(struct renames *rs, MlirOperation op) {
  char *name = new_name(op);
  if (!name)
    return;
  if (rs->n == rs->cap) {
    rs->cap = rs->cap ? 2 * rs->cap : 8;
    struct rename *grown = realloc(rs->r, rs->cap * sizeof *grown);
    if (!grown)
      BUG("out of memory");
    rs->r = grown;
  }
  rs->r[rs->n++] = (struct rename){op, ir_symbol_ref(op), name};
}

/* A new name may be an old name of the same table (@"a b" becomes
 * @__gpucc__a_20b, and the program has one of that name too, which becomes
 * longer still): renaming the longest first frees every new name before it
 * is taken, so references never meet two symbols of one name. */
static int longest_first(const void *a, const void *b) {
  size_t x = ((const struct rename *)a)->old.length, y = ((const struct rename *)b)->old.length;
  return x < y ? 1 : x > y ? -1 : 0;
}

static void sort_renames(struct renames *rs) {
  if (rs->n > 1)
    qsort(rs->r, rs->n, sizeof *rs->r, longest_first);
}

static void free_renames(struct renames *rs) {
  for (size_t i = 0; i < rs->n; i++)
    free(rs->r[i].name);
  free(rs->r);
}

/* Byte order of names, for sorting and bsearch. */
static int ref_cmp(MlirStringRef x, MlirStringRef y) {
  int c = memcmp(x.data, y.data, x.length < y.length ? x.length : y.length);
  return c ? c : x.length < y.length ? -1 : x.length > y.length;
}

static int by_old_name(const void *a, const void *b) {
  return ref_cmp(((const struct rename *)a)->old, ((const struct rename *)b)->old);
}

/* A renamed gpu.module and its renamed kernels, sorted by old name. */
struct module_renames {
  MlirStringRef old;
  const char *name;      /* new name; NULL: kept */
  struct renames kernels;
};

static int by_module(const void *a, const void *b) {
  return ref_cmp(((const struct module_renames *)a)->old, ((const struct module_renames *)b)->old);
}

static const struct rename *find_rename(const struct renames *rs, MlirStringRef old) {
  struct rename key = {.old = old};
  return rs->n ? bsearch(&key, rs->r, rs->n, sizeof key, by_old_name) : NULL;
}

/* Points every gpu.launch_func of a renamed module or kernel at the new
 * names: one pass over the launches, each found by search (a program may
 * have thousands of both). */
static void retarget_launches(MlirOperation *launches, size_t nlaunches,
                              const struct module_renames *mods, size_t nmods) {
  for (size_t i = 0; i < nlaunches; i++) {
    MlirOperation launch = launches[i];
    MlirAttribute sym = mlirOperationGetInherentAttributeByName(launch, ref("kernel"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsASymbolRef(sym) ||
        mlirSymbolRefAttrGetNumNestedReferences(sym) != 1)
      continue;
    struct module_renames key = {.old = mlirSymbolRefAttrGetRootReference(sym)};
    const struct module_renames *m = bsearch(&key, mods, nmods, sizeof key, by_module);
    if (!m)
      continue;
    MlirStringRef leaf = mlirFlatSymbolRefAttrGetValue(mlirSymbolRefAttrGetNestedReference(sym, 0));
    const struct rename *k = find_rename(&m->kernels, leaf);
    if (!m->name && !k)
      continue;
    MlirContext ctx = mlirOperationGetContext(launch);
    MlirAttribute new_leaf = k ? mlirFlatSymbolRefAttrGet(ctx, ref(k->name))
                               : mlirSymbolRefAttrGetNestedReference(sym, 0);
    MlirStringRef root = m->name ? ref(m->name) : key.old;
    mlirOperationSetInherentAttributeByName(launch, ref("kernel"),
                                            mlirSymbolRefAttrGet(ctx, root, 1, &new_leaf));
  }
}

/* Collects what to rename in one gpu.module: kernels into m->kernels, other
 * functions into *others; checks its declarations. Returns 0 or -1
 * (reported). */
static int collect_functions(MlirOperation module, struct module_renames *m,
                             struct renames *others) {
  int rc = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (defines_function(op))
      add_rename(ir_is_kernel(op) ? &m->kernels : others, op);
    else if (declares_function(op) && check_declaration(op) != 0)
      rc = -1;
  }
  if (m->kernels.n > 1)
    qsort(m->kernels.r, m->kernels.n, sizeof *m->kernels.r, by_old_name);
  return rc;
}

/* First every new name is decided from the names as written, and the
 * launches follow; then the symbols take them. Nothing outside a gpu.module
 * refers to it or its kernels but gpu.launch_func (anything else would fail
 * verification after the rename, as an error, not silently); functions
 * that are not kernels are called inside their module, where the symbol
 * table's own replace follows them. */
int frontend_sanitize_names(MlirModule module) {
  static const char *const launch_ops[] = {"gpu.launch_func", NULL};
  MlirOperation *launches, *ops;
  size_t nlaunches = ir_find_ops(mlirModuleGetOperation(module), launch_ops, NULL, &launches);
  size_t nmods = ir_gpu_modules(module, &ops);
  struct module_renames *mods = calloc(nmods + 1, sizeof *mods);
  struct renames *others = calloc(nmods + 1, sizeof *others);
  struct renames modules = {0};
  if (!mods || !others)
    BUG("out of memory");
  int rc = 0;
  for (size_t m = 0; m < nmods; m++) {
    add_rename(&modules, ops[m]);
    mods[m].old = ir_symbol_ref(ops[m]);
    if (modules.n && mlirOperationEqual(modules.r[modules.n - 1].op, ops[m]))
      mods[m].name = modules.r[modules.n - 1].name;
    if (collect_functions(ops[m], &mods[m], &others[m]) != 0)
      rc = -1;
  }
  if (rc == 0) {
    /* Sorted for search; ops[m] no longer matches mods[m]. */
    qsort(mods, nmods, sizeof *mods, by_module);
    retarget_launches(launches, nlaunches, mods, nmods);
    for (size_t m = 0; m < nmods; m++)
      for (size_t k = 0; k < mods[m].kernels.n; k++)
        set_name(mods[m].kernels.r[k].op, mods[m].kernels.r[k].name);
    for (size_t m = 0; m < nmods && rc == 0; m++) {
      sort_renames(&others[m]);
      for (size_t k = 0; k < others[m].n && rc == 0; k++)
        rc = rename_function(others[m].r[k].op, others[m].r[k].name, ops[m]);
    }
    for (size_t i = 0; i < modules.n; i++)
      set_name(modules.r[i].op, modules.r[i].name);
  }
  for (size_t m = 0; m < nmods; m++) {
    free_renames(&mods[m].kernels);
    free_renames(&others[m]);
  }
  free_renames(&modules);
  free(mods);
  free(others);
  free(ops);
  free(launches);
  return rc;
}
