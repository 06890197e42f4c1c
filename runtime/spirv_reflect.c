/* spirv_reflect.c: reading a SPIR-V module's declarations (spirv_reflect.h).
 *
 * One pass over the instruction stream records what later questions need:
 * capabilities, extensions, entry points, LocalSize modes, the types, the
 * Offset and Block decorations, the PushConstant variables, and inside each
 * function the PushConstant variables it touches and the functions it
 * calls. Then, per entry point, the push-constant block is the one variable
 * its function reaches through calls (a module written for SPIR-V 1.3 does
 * not list it in OpEntryPoint), and its members give the parameters.
 *
 * Numbers below are the SPIR-V specification's (opcodes, decorations,
 * storage classes). */
#include "spirv_reflect.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  OP_EXTENSION = 10, OP_ENTRY_POINT = 15, OP_EXECUTION_MODE = 16, OP_CAPABILITY = 17,
  OP_TYPE_INT = 21, OP_TYPE_FLOAT = 22, OP_TYPE_STRUCT = 30, OP_TYPE_POINTER = 32,
  OP_FUNCTION = 54, OP_FUNCTION_END = 56, OP_FUNCTION_CALL = 57, OP_VARIABLE = 59,
  OP_LOAD = 61, OP_STORE = 62, OP_COPY_MEMORY = 63, OP_COPY_MEMORY_SIZED = 64,
  OP_ACCESS_CHAIN = 65,
  OP_IN_BOUNDS_ACCESS_CHAIN = 66, OP_PTR_ACCESS_CHAIN = 67, OP_IN_BOUNDS_PTR_ACCESS_CHAIN = 70,
  OP_DECORATE = 71, OP_MEMBER_DECORATE = 72,
};
enum {
  DEC_BLOCK = 2, DEC_BUILTIN = 11, DEC_BINDING = 33, DEC_DESCRIPTOR_SET = 34, DEC_OFFSET = 35,
};
enum { BUILTIN_WORKGROUP_SIZE = 25, MODEL_GLCOMPUTE = 5, MODE_LOCAL_SIZE = 17 };
enum { SC_PUSH_CONSTANT = 9, SC_PHYSICAL_STORAGE_BUFFER = 5349 };
enum { SPIRV_MAGIC = 0x07230203, SPIRV_MAX_IDS = 1 << 20 };

enum type_kind { T_NONE, T_INT, T_FLOAT, T_POINTER, T_STRUCT };

struct type {
  unsigned char kind, block;
  uint32_t a, b;              /* int/float: width; pointer: storage class, pointee */
  uint32_t members, nmembers; /* struct: word index of its member ids, their number */
};

struct pair {
  uint32_t a, b, c;
};

/* A growable array of struct pair. */
struct pairs {
  struct pair *at;
  size_t n, cap;
};

struct reflect {
  uint32_t *w;
  size_t nwords;
  uint32_t bound;
  struct type *types;
  struct pairs offsets;    /* (struct, member, Offset) */
  struct pairs push_vars;  /* (variable, pointer type, -) */
  struct pairs touches;    /* (function, variable, -): any variable a function uses */
  struct pairs calls;      /* (caller, callee, -) */
  struct pairs local;      /* (function, index into local_sizes, -) */
  uint32_t (*local_sizes)[3];
  int workgroup_builtin;
  char *err;
  size_t errlen;
};

static int fail(struct reflect *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(struct reflect *r, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (r->errlen)
    vsnprintf(r->err, r->errlen, fmt, ap);
  va_end(ap);
  return -1;
}

static int grow(void **p, size_t *cap, size_t n, size_t elt) {
  if (n < *cap)
    return 0;
  size_t c = *cap ? *cap * 2 : 8;
  void *q = realloc(*p, c * elt);
  if (!q)
    return -1;
  *p = q;
  *cap = c;
  return 0;
}

static int add(struct reflect *r, struct pairs *ps, uint32_t a, uint32_t b, uint32_t c) {
  if (grow((void **)&ps->at, &ps->cap, ps->n, sizeof *ps->at))
    return fail(r, "out of memory");
  ps->at[ps->n++] = (struct pair){a, b, c};
  return 0;
}

/* A literal string starting at word `from` of an instruction ending before
 * word `end`: malloc'ed, NULL when it has no NUL inside the instruction. */
static char *literal(const struct reflect *r, size_t from, size_t end) {
  size_t max = (end - from) * 4;
  const unsigned char *bytes = (const unsigned char *)(r->w + from);
  size_t n = 0;
  while (n < max && bytes[n])
    n++;
  if (n == max)
    return NULL;
  char *s = malloc(n + 1);
  if (s)
    memcpy(s, bytes, n + 1);
  return s;
}

static struct type *type_at(struct reflect *r, uint32_t id) {
  return id < r->bound ? &r->types[id] : NULL;
}

/* Words from little-endian bytes, whatever the host and alignment. */
static uint32_t *words_of(const unsigned char *d, size_t n) {
  uint32_t *w = malloc(n ? n * 4 : 4);
  for (size_t i = 0; w && i < n; i++)
    w[i] = (uint32_t)d[4 * i] | (uint32_t)d[4 * i + 1] << 8 | (uint32_t)d[4 * i + 2] << 16 |
           (uint32_t)d[4 * i + 3] << 24;
  return w;
}

static int add_entry(struct reflect *r, struct spirv_module *m, size_t at, size_t count) {
  if (count < 4 || r->w[at + 1] != MODEL_GLCOMPUTE)
    return 0; /* other stages are not kernels */
  char *name = literal(r, at + 3, at + count);
  if (!name)
    return fail(r, "OpEntryPoint at word %zu has no terminated name", at);
  struct spirv_entry *grown = realloc(m->entries, (m->nentries + 1) * sizeof *grown);
  if (!grown) {
    free(name);
    return fail(r, "out of memory");
  }
  m->entries = grown;
  m->entries[m->nentries++] = (struct spirv_entry){.name = name, .function = r->w[at + 2]};
  return 0;
}

static int add_extension(struct reflect *r, struct spirv_module *m, size_t at, size_t count) {
  char *name = literal(r, at + 1, at + count);
  char **grown = name ? realloc(m->exts, (m->nexts + 1) * sizeof *grown) : NULL;
  if (!grown) {
    free(name);
    return fail(r, "OpExtension at word %zu has no terminated name", at);
  }
  m->exts = grown;
  m->exts[m->nexts++] = name;
  return 0;
}

static int add_type(struct reflect *r, uint32_t op, size_t at, size_t count) {
  struct type *t = count >= 2 ? type_at(r, r->w[at + 1]) : NULL;
  if (!t)
    return fail(r, "type at word %zu has an id beyond the bound", at);
  if ((op == OP_TYPE_INT || op == OP_TYPE_FLOAT) && count >= 3)
    *t = (struct type){.kind = op == OP_TYPE_INT ? T_INT : T_FLOAT, .a = r->w[at + 2]};
  else if (op == OP_TYPE_POINTER && count == 4)
    *t = (struct type){.kind = T_POINTER, .a = r->w[at + 2], .b = r->w[at + 3]};
  else if (op == OP_TYPE_STRUCT)
    *t = (struct type){.kind = T_STRUCT, .block = t->block, .members = (uint32_t)at + 2,
                       .nmembers = (uint32_t)count - 2};
  else
    return fail(r, "malformed type at word %zu", at);
  return 0;
}

static int add_decoration(struct reflect *r, uint32_t op, size_t at, size_t count) {
  if (op == OP_DECORATE && count >= 3) {
    uint32_t dec = r->w[at + 2];
    if (dec == DEC_BUILTIN && count >= 4 && r->w[at + 3] == BUILTIN_WORKGROUP_SIZE)
      r->workgroup_builtin = 1;
    if (dec == DEC_BLOCK && type_at(r, r->w[at + 1]))
      type_at(r, r->w[at + 1])->block = 1;
    return 0;
  }
  if (op == OP_MEMBER_DECORATE && count >= 5 && r->w[at + 3] == DEC_OFFSET)
    return add(r, &r->offsets, r->w[at + 1], r->w[at + 2], r->w[at + 4]);
  return 0;
}

/* The pointer operands of the memory instructions a function may reach a
 * variable through: (first operand word, number of them). */
static void pointer_operands(uint32_t op, size_t *first, size_t *n) {
  *n = 0;
  switch (op) {
  case OP_LOAD:
  case OP_ACCESS_CHAIN:
  case OP_IN_BOUNDS_ACCESS_CHAIN:
  case OP_PTR_ACCESS_CHAIN:
  case OP_IN_BOUNDS_PTR_ACCESS_CHAIN:
    *first = 3, *n = 1;
    break;
  case OP_STORE:
    *first = 1, *n = 1;
    break;
  case OP_COPY_MEMORY:
  case OP_COPY_MEMORY_SIZED:
    *first = 1, *n = 2;
    break;
  }
}

/* One instruction of the stream. fn: the function being read, 0 outside. */
static int read_instruction(struct reflect *r, struct spirv_module *m, size_t at, size_t count,
                            uint32_t *fn) {
  uint32_t op = r->w[at] & 0xffff;
  switch (op) {
  case OP_CAPABILITY: {
    uint32_t *grown = count == 2 ? realloc(m->caps, (m->ncaps + 1) * sizeof *grown) : NULL;
    if (!grown)
      return fail(r, "malformed OpCapability at word %zu", at);
    m->caps = grown;
    m->caps[m->ncaps++] = r->w[at + 1];
    return 0;
  }
  case OP_EXTENSION:
    return add_extension(r, m, at, count);
  case OP_ENTRY_POINT:
    return add_entry(r, m, at, count);
  case OP_EXECUTION_MODE:
    if (count >= 6 && r->w[at + 2] == MODE_LOCAL_SIZE) {
      size_t k = r->local.n;
      void *grown = realloc(r->local_sizes, (k + 1) * sizeof *r->local_sizes);
      if (!grown)
        return fail(r, "out of memory");
      r->local_sizes = grown;
      memcpy(r->local_sizes[k], r->w + at + 3, sizeof r->local_sizes[k]);
      return add(r, &r->local, r->w[at + 1], (uint32_t)k, 0);
    }
    return 0;
  case OP_TYPE_INT:
  case OP_TYPE_FLOAT:
  case OP_TYPE_STRUCT:
  case OP_TYPE_POINTER:
    return add_type(r, op, at, count);
  case OP_DECORATE:
  case OP_MEMBER_DECORATE:
    if (count >= 3 && (r->w[at + 2] == DEC_BINDING || r->w[at + 2] == DEC_DESCRIPTOR_SET) &&
        op == OP_DECORATE)
      m->descriptors = 1;
    return add_decoration(r, op, at, count);
  case OP_VARIABLE:
    if (count >= 4 && r->w[at + 3] == SC_PUSH_CONSTANT && !*fn)
      return add(r, &r->push_vars, r->w[at + 2], r->w[at + 1], 0);
    return 0;
  case OP_FUNCTION:
    if (count < 5)
      return fail(r, "malformed OpFunction at word %zu", at);
    *fn = r->w[at + 2];
    return 0;
  case OP_FUNCTION_END:
    *fn = 0;
    return 0;
  case OP_FUNCTION_CALL:
    return count >= 4 && *fn ? add(r, &r->calls, *fn, r->w[at + 3], 0) : 0;
  }
  size_t first, n;
  pointer_operands(op, &first, &n);
  for (size_t i = 0; *fn && i < n && first + i < count; i++)
    for (size_t v = 0; v < r->push_vars.n; v++)
      if (r->push_vars.at[v].a == r->w[at + first + i] &&
          add(r, &r->touches, *fn, r->w[at + first + i], 0))
        return -1;
  return 0;
}

static int read_stream(struct reflect *r, struct spirv_module *m) {
  uint32_t fn = 0;
  for (size_t at = 5; at < r->nwords;) {
    size_t count = r->w[at] >> 16;
    if (count == 0 || count > r->nwords - at)
      return fail(r, "malformed instruction at word %zu", at);
    if (read_instruction(r, m, at, count, &fn) != 0)
      return -1;
    at += count;
  }
  return 0;
}

/* The push-constant variable the function fn reaches, through its calls
 * (breadth-first over `seen`); 0 when none; -1 (error set) when two. */
static int64_t reached_push_var(struct reflect *r, uint32_t fn, const char *entry) {
  uint32_t *seen = malloc(sizeof *seen * (r->calls.n + 1));
  if (!seen)
    return fail(r, "out of memory");
  size_t nseen = 1, next = 0;
  seen[0] = fn;
  uint32_t var = 0;
  int64_t rc = 0;
  while (next < nseen && rc == 0) {
    uint32_t f = seen[next++];
    for (size_t i = 0; i < r->touches.n && rc == 0; i++) {
      if (r->touches.at[i].a != f || r->touches.at[i].b == var)
        continue;
      if (var)
        rc = fail(r, "entry point '%s' uses two push-constant blocks", entry);
      var = r->touches.at[i].b;
    }
    for (size_t i = 0; i < r->calls.n; i++) {
      if (r->calls.at[i].a != f)
        continue;
      size_t k = 0;
      while (k < nseen && seen[k] != r->calls.at[i].b)
        k++;
      if (k == nseen && nseen <= r->calls.n)
        seen[nseen++] = r->calls.at[i].b;
    }
  }
  free(seen);
  return rc ? rc : var;
}

static int member_offset(const struct reflect *r, uint32_t st, uint32_t member, uint32_t *off) {
  for (size_t i = 0; i < r->offsets.n; i++)
    if (r->offsets.at[i].a == st && r->offsets.at[i].b == member) {
      *off = r->offsets.at[i].c;
      return 0;
    }
  return -1;
}

/* Entry e's parameters: the members of its push-constant block. */
static int read_params(struct reflect *r, struct spirv_entry *e, uint32_t var) {
  uint32_t ptr_type = 0;
  for (size_t i = 0; i < r->push_vars.n; i++)
    if (r->push_vars.at[i].a == var)
      ptr_type = r->push_vars.at[i].b;
  struct type *p = type_at(r, ptr_type);
  struct type *st = p && p->kind == T_POINTER ? type_at(r, p->b) : NULL;
  if (!st || st->kind != T_STRUCT || !st->block)
    return fail(r, "entry point '%s': its push constant is not a Block-decorated struct",
                e->name);
  e->params = calloc(st->nmembers ? st->nmembers : 1, sizeof *e->params);
  if (!e->params)
    return fail(r, "out of memory");
  e->nparams = st->nmembers;
  for (uint32_t i = 0; i < st->nmembers; i++) {
    struct spirv_param *q = &e->params[i];
    struct type *t = type_at(r, r->w[st->members + i]);
    if (t && (t->kind == T_INT || t->kind == T_FLOAT) &&
        (t->a == 8 || t->a == 16 || t->a == 32 || t->a == 64))
      q->size = t->a / 8;
    else if (t && t->kind == T_POINTER && t->a == SC_PHYSICAL_STORAGE_BUFFER)
      q->size = 8, q->pointer = 1;
    else
      return fail(r, "entry point '%s': push-constant member %u is not an integer, a float or "
                     "a PhysicalStorageBuffer pointer", e->name, i);
    if (member_offset(r, p->b, i, &q->offset) != 0)
      return fail(r, "entry point '%s': push-constant member %u has no Offset", e->name, i);
    if (q->offset % q->size != 0 || q->offset > UINT32_MAX - q->size)
      return fail(r, "entry point '%s': push-constant member %u at offset %u is not aligned to "
                     "its %u bytes", e->name, i, q->offset, q->size);
    if (q->offset + q->size > e->push_size)
      e->push_size = q->offset + q->size;
  }
  return 0;
}

static int read_entries(struct reflect *r, struct spirv_module *m) {
  for (size_t i = 0; i < m->nentries; i++) {
    struct spirv_entry *e = &m->entries[i];
    for (size_t k = 0; k < r->local.n && !r->workgroup_builtin; k++)
      if (r->local.at[k].a == e->function)
        memcpy(e->local, r->local_sizes[r->local.at[k].b], sizeof e->local);
    int64_t var = reached_push_var(r, e->function, e->name);
    if (var < 0 || (var > 0 && read_params(r, e, (uint32_t)var) != 0))
      return -1;
  }
  return 0;
}

int spirv_reflect(const void *data, size_t size, struct spirv_module *m, char *err,
                  size_t errlen) {
  struct reflect r = {.err = err, .errlen = errlen};
  if (errlen)
    err[0] = '\0';
  if (size < 20 || size % 4 != 0)
    return fail(&r, "not a SPIR-V module (%zu bytes)", size);
  r.nwords = size / 4;
  r.w = words_of(data, r.nwords);
  if (!r.w)
    return fail(&r, "out of memory");
  int rc = -1;
  if (r.w[0] != SPIRV_MAGIC) {
    fail(&r, "not a SPIR-V module (magic 0x%08x)", (unsigned)r.w[0]);
    goto done;
  }
  m->version = r.w[1];
  r.bound = r.w[3];
  if (r.bound == 0 || r.bound > SPIRV_MAX_IDS) {
    fail(&r, "SPIR-V id bound %u is out of range", (unsigned)r.bound);
    goto done;
  }
  r.types = calloc(r.bound, sizeof *r.types);
  if (!r.types) {
    fail(&r, "out of memory");
    goto done;
  }
  rc = read_stream(&r, m) != 0 || read_entries(&r, m) != 0 ? -1 : 0;
done:
  free(r.w);
  free(r.types);
  free(r.offsets.at);
  free(r.push_vars.at);
  free(r.touches.at);
  free(r.calls.at);
  free(r.local.at);
  free(r.local_sizes);
  return rc;
}

void spirv_module_free(struct spirv_module *m) {
  for (size_t i = 0; i < m->nentries; i++) {
    free(m->entries[i].name);
    free(m->entries[i].params);
  }
  for (size_t i = 0; i < m->nexts; i++)
    free(m->exts[i]);
  free(m->entries);
  free(m->exts);
  free(m->caps);
  memset(m, 0, sizeof *m);
}

const struct spirv_entry *spirv_find_entry(const struct spirv_module *m, const char *name) {
  for (size_t i = 0; i < m->nentries; i++)
    if (strcmp(m->entries[i].name, name) == 0)
      return &m->entries[i];
  return NULL;
}
