/* ops.c: finding operations by name, for the rewrites that frontend/ and
 * lowering/ make by hand (collected first, so that the caller may replace
 * or erase what it found while nothing walks the IR). */
#include "frontend.h"

#include "diag.h"

#include <stdlib.h>
#include <string.h>

int frontend_op_is(MlirOperation op, const char *name) {
  MlirStringRef s = mlirIdentifierStr(mlirOperationGetName(op));
  return s.length == strlen(name) && memcmp(s.data, name, s.length) == 0;
}

struct found_ops {
  const char *const *names;
  int (*keep)(MlirOperation);
  MlirOperation *ops;
  size_t len, cap;
};

static MlirWalkResult visit(MlirOperation op, void *ud) {
  struct found_ops *f = ud;
  int named = 0;
  for (size_t i = 0; f->names[i] && !named; i++)
    named = frontend_op_is(op, f->names[i]);
  if (!named || (f->keep && !f->keep(op)))
    return MlirWalkResultAdvance;
  if (f->len == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 16;
    MlirOperation *grown = realloc(f->ops, f->cap * sizeof *grown);
    if (!grown)
      BUG("out of memory");
    f->ops = grown;
  }
  f->ops[f->len++] = op;
  return MlirWalkResultAdvance;
}

size_t frontend_find_ops(MlirOperation root, const char *const *names, int (*keep)(MlirOperation),
                         MlirOperation **out) {
  struct found_ops f = {names, keep, NULL, 0, 0};
  mlirOperationWalk(root, visit, &f, MlirWalkPreOrder);
  *out = f.ops;
  return f.len;
}
