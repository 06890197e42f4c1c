/* scan.c: the readers and alignment scanners of scan.h.
 *
 * PTX is read into functions of parsed instructions (opcode, operands, line)
 * and the arrays (.shared/.global declarations) in scope; the per-entry
 * counts and the alignment scan both work on that. The other readers take
 * one line at a time of what ptxas, llvm-readelf and llvm-objdump print. */
#define _GNU_SOURCE
#include "scan.h"

#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

const char *const ptx_class_names[PTX_NCLASS] = {
    "insns", "fma", "add/mul.rn", "ld.global", "ld.global.nc", "ld.shared", "ld.shared.vN", "cvta",
};

/* ---- small helpers -------------------------------------------------------- */

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) {
    fprintf(stderr, "scan: out of memory\n");
    exit(2);
  }
  return q;
}

/* The whole file, NUL-terminated; NULL (said on stderr) when unreadable. */
static char *slurp(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "scan: cannot open '%s': %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = xrealloc(NULL, cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n - 1 == 0)
      buf = xrealloc(buf, cap *= 2);
  }
  int bad = ferror(f);
  fclose(f);
  if (bad) {
    fprintf(stderr, "scan: cannot read '%s'\n", path);
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  if (len)
    *len = n;
  return buf;
}

/* Cuts s at the next newline; returns the start of the following line, or
 * NULL at the end. */
static char *next_line(char *s) {
  char *nl = strchr(s, '\n');
  if (!nl)
    return NULL;
  *nl = '\0';
  return nl + 1;
}

static char *trim(char *s) {
  while (isspace((unsigned char)*s))
    s++;
  size_t n = strlen(s);
  while (n > 0 && isspace((unsigned char)s[n - 1]))
    s[--n] = '\0';
  return s;
}

static void copy_name(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; i + 1 < SCAN_NAME_MAX && i < n && src[i]; i++)
    dst[i] = src[i];
  dst[i] = '\0';
}

static int is_ident(int c) { return isalnum(c) || c == '_' || c == '$' || c == '.' || c == '%'; }

/* ---- PTX ------------------------------------------------------------------ */

/* Bytes of a PTX type name without its dot ("f32" -> 4); 0 when not one. */
static int type_bytes(const char *t) {
  static const struct {
    const char *name;
    int bytes;
  } types[] = {
      {"b8", 1},  {"u8", 1},  {"s8", 1},  {"b16", 2},   {"u16", 2},    {"s16", 2},  {"f16", 2},
      {"bf16", 2}, {"b32", 4}, {"u32", 4}, {"s32", 4},   {"f32", 4},    {"f16x2", 4}, {"bf16x2", 4},
      {"tf32", 4}, {"b64", 8}, {"u64", 8}, {"s64", 8},   {"f64", 8},    {"b128", 16},
  };
  for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
    if (!strcmp(t, types[i].name))
      return types[i].bytes;
  return 0;
}

enum space { SP_NONE, SP_GENERIC, SP_SHARED, SP_GLOBAL, SP_OTHER };

struct ptx_sym {
  char name[SCAN_NAME_MAX];
  int align;
  enum space space;
};

struct ptx_param {
  char name[SCAN_NAME_MAX];
  int ptr_align; /* .ptr .align N; 0 when not given */
};

struct ptx_insn {
  int line;
  char *op;     /* "ld.shared.v4.b32" */
  char *ops[8]; /* operands, trimmed */
  int nops;
};

struct ptx_func {
  char name[SCAN_NAME_MAX];
  int is_entry;
  struct ptx_param *params;
  int nparams;
  int maxntid[3], reqntid[3];
  struct ptx_sym *syms; /* declared inside its body */
  int nsyms;
  struct ptx_insn *insns;
  int ninsns;
};

struct ptx_module {
  char *text;
  struct ptx_sym *syms; /* module scope */
  int nsyms;
  struct ptx_func *funcs;
  int nfuncs;
};

static void ptx_free(struct ptx_module *m) {
  for (int i = 0; i < m->nfuncs; i++) {
    free(m->funcs[i].params);
    free(m->funcs[i].syms);
    free(m->funcs[i].insns);
  }
  free(m->funcs);
  free(m->syms);
  free(m->text);
}

/* A declaration line (".shared .align 4 .b8 name[12]"): adds the array to
 * *syms when it is in .shared or .global. */
static void ptx_decl(char *line, struct ptx_sym **syms, int *n) {
  enum space space = SP_NONE;
  int align = 0, natural = 0, vec = 1;
  char *save, *name = NULL;
  for (char *tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
    if (!strcmp(tok, ".shared"))
      space = SP_SHARED;
    else if (!strcmp(tok, ".global"))
      space = SP_GLOBAL;
    else if (!strcmp(tok, ".align")) {
      char *v = strtok_r(NULL, " \t", &save);
      align = v ? atoi(v) : 0;
    } else if (!strcmp(tok, ".v2") || !strcmp(tok, ".v4") || !strcmp(tok, ".v8"))
      vec = atoi(tok + 2);
    else if (tok[0] == '.' && type_bytes(tok + 1))
      natural = type_bytes(tok + 1);
    else if (tok[0] != '.' && !name) {
      name = tok;
      break;
    }
  }
  if (space == SP_NONE || !name)
    return;
  size_t len = strcspn(name, "[;= \t");
  *syms = xrealloc(*syms, (size_t)(*n + 1) * sizeof **syms);
  struct ptx_sym *s = &(*syms)[(*n)++];
  copy_name(s->name, name, len);
  s->align = align ? align : natural * vec;
  s->space = space;
}

/* Splits "a, [b+4], {c, d}" at its top-level commas into ops. */
static int split_operands(char *s, char **ops, int max) {
  int n = 0, depth = 0;
  char *start = s;
  for (char *p = s;; p++) {
    if (*p == '[' || *p == '{')
      depth++;
    else if (*p == ']' || *p == '}')
      depth--;
    else if ((*p == ',' && depth == 0) || *p == '\0') {
      int end = *p == '\0';
      *p = '\0';
      char *t = trim(start);
      if (*t && n < max)
        ops[n++] = t;
      if (end)
        break;
      start = p + 1;
    }
  }
  return n;
}

static void ptx_insn_add(struct ptx_func *f, char *stmt, int line) {
  stmt = trim(stmt);
  while (*stmt == '{' || *stmt == '}')
    stmt = trim(stmt + 1);
  if (!*stmt || *stmt == '.' || stmt[strlen(stmt) - 1] == ':')
    return; /* declaration, label or brace */
  if (*stmt == '@') { /* predicate guard */
    stmt += strcspn(stmt, " \t");
    stmt = trim(stmt);
  }
  size_t oplen = strcspn(stmt, " \t");
  f->insns = xrealloc(f->insns, (size_t)(f->ninsns + 1) * sizeof *f->insns);
  struct ptx_insn *in = &f->insns[f->ninsns++];
  memset(in, 0, sizeof *in);
  in->line = line;
  in->op = stmt;
  if (stmt[oplen]) {
    stmt[oplen] = '\0';
    in->nops = split_operands(stmt + oplen + 1, in->ops, 8);
  }
}

/* ".maxntid 16, 16, 1" somewhere in s: the three numbers into dims. */
static void ptx_ntid(const char *s, const char *directive, int dims[3]) {
  const char *p = strstr(s, directive);
  if (!p)
    return;
  p += strlen(directive);
  for (int i = 0; i < 3; i++) {
    while (*p == ' ' || *p == '\t' || *p == ',')
      p++;
    if (!isdigit((unsigned char)*p))
      break;
    dims[i] = (int)strtol(p, (char **)&p, 10);
  }
  for (int i = 0; i < 3; i++)
    if (dims[0] && !dims[i])
      dims[i] = 1;
}

/* The parameter declarations on one header line. */
static void ptx_params(char *s, struct ptx_func *f) {
  char *p = s;
  while ((p = strstr(p, ".param")) != NULL) {
    p += 6;
    size_t len = strcspn(p, ",)");
    char save = p[len];
    p[len] = '\0';
    int align = 0;
    char *al = strstr(p, ".ptr");
    if (al && (al = strstr(al, ".align")))
      align = atoi(al + 6);
    /* the name is the last word, less its [size] */
    char *end = strchr(p, '[') ? strchr(p, '[') : p + strlen(p);
    while (end > p && isspace((unsigned char)end[-1]))
      end--;
    char *start = end;
    while (start > p && is_ident((unsigned char)start[-1]))
      start--;
    f->params = xrealloc(f->params, (size_t)(f->nparams + 1) * sizeof *f->params);
    struct ptx_param *prm = &f->params[f->nparams++];
    copy_name(prm->name, start, (size_t)(end - start));
    prm->ptr_align = align;
    p[len] = save;
    p += len;
  }
}

/* Parses the PTX file at path into m; -1 when unreadable. */
static int ptx_parse(const char *path, struct ptx_module *m) {
  memset(m, 0, sizeof *m);
  m->text = slurp(path, NULL);
  if (!m->text)
    return -1;
  enum { OUTSIDE, HEADER, BODY } state = OUTSIDE;
  struct ptx_func *f = NULL;
  int depth = 0, parens = 0, lineno = 0;
  for (char *line = m->text, *next; line; line = next) {
    next = next_line(line);
    lineno++;
    char *cmt = strstr(line, "//");
    if (cmt)
      *cmt = '\0';
    char *s = trim(line);
    if (!*s)
      continue;
    if (state == OUTSIDE) {
      char *kw = strstr(s, ".entry");
      if (!kw || !isspace((unsigned char)kw[6]))
        kw = strstr(s, ".func");
      if (kw && (kw == s || isspace((unsigned char)kw[-1])) && strchr(s, '(')) {
        int entry = kw[1] == 'e';
        char *p = kw + (entry ? 6 : 5);
        while (isspace((unsigned char)*p))
          p++;
        if (*p == '(') { /* a .func's return parameters */
          p = strchr(p, ')');
          p = p ? p + 1 : s + strlen(s);
          while (isspace((unsigned char)*p))
            p++;
        }
        m->funcs = xrealloc(m->funcs, (size_t)(m->nfuncs + 1) * sizeof *m->funcs);
        f = &m->funcs[m->nfuncs++];
        memset(f, 0, sizeof *f);
        f->is_entry = entry;
        copy_name(f->name, p, strcspn(p, "( \t;"));
        char *plist = strchr(p, '(');
        parens = 0;
        for (char *q = plist; q && *q; q++)
          parens += (*q == '(') - (*q == ')');
        if (entry && plist)
          ptx_params(plist + 1, f);
        ptx_ntid(s, ".maxntid", f->maxntid);
        ptx_ntid(s, ".reqntid", f->reqntid);
        state = HEADER;
        if (strchr(s, '{')) {
          state = BODY;
          depth = 1;
        } else if (parens <= 0 && s[strlen(s) - 1] == ';') {
          m->nfuncs--; /* a declaration */
          free(f->params);
          state = OUTSIDE;
        }
        continue;
      }
      if (*s == '.')
        ptx_decl(s, &m->syms, &m->nsyms);
      continue;
    }
    if (state == HEADER) {
      for (char *q = s; *q; q++)
        parens += (*q == '(') - (*q == ')');
      if (f->is_entry && strstr(s, ".param"))
        ptx_params(s, f);
      ptx_ntid(s, ".maxntid", f->maxntid);
      ptx_ntid(s, ".reqntid", f->reqntid);
      if (strchr(s, '{')) {
        state = BODY;
        depth = 1;
      } else if (parens <= 0 && s[strlen(s) - 1] == ';') {
        free(f->params);
        m->nfuncs--;
        state = OUTSIDE;
      }
      continue;
    }
    /* BODY */
    for (char *q = s; *q; q++)
      depth += (*q == '{') - (*q == '}');
    if (*s == '.') {
      ptx_decl(s, &f->syms, &f->nsyms);
    } else {
      char *save;
      for (char *stmt = strtok_r(s, ";", &save); stmt; stmt = strtok_r(NULL, ";", &save))
        ptx_insn_add(f, stmt, lineno);
    }
    if (depth <= 0)
      state = OUTSIDE;
  }
  return 0;
}

/* The dot-separated parts of an opcode. */
static int op_parts(const char *op, char parts[][24], int max) {
  int n = 0;
  const char *p = op;
  while (*p && n < max) {
    size_t len = strcspn(p, ".");
    if (len >= 24)
      len = 23;
    memcpy(parts[n], p, len);
    parts[n][len] = '\0';
    n++;
    p += strcspn(p, ".");
    if (*p == '.')
      p++;
  }
  return n;
}

struct access {
  int is_mem;  /* ld or st */
  enum space space;
  int vec;     /* 1, 2, 4, 8 */
  int width;   /* bytes */
  int nc;      /* ld.global.nc */
  const char *addr; /* the [..] operand, or NULL */
};

static struct access classify(const struct ptx_insn *in) {
  char parts[12][24];
  int n = op_parts(in->op, parts, 12);
  struct access a = {0};
  if (n == 0 || (strcmp(parts[0], "ld") && strcmp(parts[0], "st")))
    return a;
  a.is_mem = 1;
  a.space = SP_GENERIC;
  a.vec = 1;
  int elem = 0;
  for (int i = 1; i < n; i++) {
    if (!strcmp(parts[i], "shared") || !strncmp(parts[i], "shared::", 8))
      a.space = SP_SHARED;
    else if (!strcmp(parts[i], "global"))
      a.space = SP_GLOBAL;
    else if (!strcmp(parts[i], "local") || !strcmp(parts[i], "param") || !strcmp(parts[i], "const"))
      a.space = SP_OTHER;
    else if (!strcmp(parts[i], "nc"))
      a.nc = 1;
    else if (parts[i][0] == 'v' && isdigit((unsigned char)parts[i][1]))
      a.vec = atoi(parts[i] + 1);
    else if (type_bytes(parts[i]))
      elem = type_bytes(parts[i]);
  }
  a.width = elem * a.vec;
  for (int i = 0; i < in->nops; i++)
    if (in->ops[i][0] == '[')
      a.addr = in->ops[i];
  return a;
}

int ptx_entries(const char *path, struct ptx_entry **out) {
  struct ptx_module m;
  *out = NULL;
  if (ptx_parse(path, &m) != 0)
    return -1;
  struct ptx_entry *e = NULL;
  int n = 0;
  for (int i = 0; i < m.nfuncs; i++) {
    struct ptx_func *f = &m.funcs[i];
    if (!f->is_entry)
      continue;
    e = xrealloc(e, (size_t)(n + 1) * sizeof *e);
    struct ptx_entry *k = &e[n++];
    memset(k, 0, sizeof *k);
    memcpy(k->name, f->name, sizeof k->name);
    k->params = f->nparams;
    memcpy(k->maxntid, f->maxntid, sizeof k->maxntid);
    memcpy(k->reqntid, f->reqntid, sizeof k->reqntid);
    for (int j = 0; j < f->ninsns; j++) {
      const struct ptx_insn *in = &f->insns[j];
      char parts[12][24];
      int np = op_parts(in->op, parts, 12);
      k->count[PTX_INSNS]++;
      if (!strcmp(parts[0], "fma"))
        k->count[PTX_FMA]++;
      if (!strcmp(parts[0], "cvta"))
        k->count[PTX_CVTA]++;
      if (!strcmp(parts[0], "add") || !strcmp(parts[0], "sub") || !strcmp(parts[0], "mul"))
        for (int p = 1; p < np; p++)
          if (!strcmp(parts[p], "rn"))
            k->count[PTX_RN]++;
      struct access a = classify(in);
      if (!a.is_mem || strcmp(parts[0], "ld"))
        continue;
      if (a.space == SP_GLOBAL)
        k->count[a.nc ? PTX_LD_GLOBAL_NC : PTX_LD_GLOBAL]++;
      else if (a.space == SP_SHARED)
        k->count[a.vec > 1 ? PTX_LD_SHARED_VEC : PTX_LD_SHARED]++;
    }
  }
  ptx_free(&m);
  *out = e;
  return n;
}

/* -- the alignment scan -- */

/* Registers of one function by name: what each may hold an address into.
 * syms: bit i = the i-th array in scope (bit 63: the 63rd and after);
 * params: bit i = the i-th parameter. */
struct reg_map {
  char **names;
  uint64_t *syms, *params;
  size_t cap, n;
};

static size_t hash_name(const char *s) {
  size_t h = 5381;
  while (*s)
    h = h * 33 + (unsigned char)*s++;
  return h;
}

static size_t reg_slot(struct reg_map *r, const char *name, int create) {
  if (create && (r->n + 1) * 2 > r->cap) {
    struct reg_map old = *r;
    r->cap = old.cap ? old.cap * 2 : 256;
    r->n = 0;
    r->names = calloc(r->cap, sizeof *r->names);
    r->syms = calloc(r->cap, sizeof *r->syms);
    r->params = calloc(r->cap, sizeof *r->params);
    if (!r->names || !r->syms || !r->params) {
      fprintf(stderr, "scan: out of memory\n");
      exit(2);
    }
    for (size_t i = 0; i < old.cap; i++)
      if (old.names[i]) {
        size_t j = reg_slot(r, old.names[i], 1);
        r->syms[j] = old.syms[i];
        r->params[j] = old.params[i];
      }
    free(old.names), free(old.syms), free(old.params);
  }
  if (!r->cap)
    return (size_t)-1;
  size_t i = hash_name(name) & (r->cap - 1);
  while (r->names[i]) {
    if (!strcmp(r->names[i], name))
      return i;
    i = (i + 1) & (r->cap - 1);
  }
  if (!create)
    return (size_t)-1;
  r->names[i] = (char *)name;
  r->n++;
  return i;
}

static void reg_free(struct reg_map *r) {
  free(r->names), free(r->syms), free(r->params);
  memset(r, 0, sizeof *r);
}

/* The arrays a function sees: its own, then the module's. */
struct scope {
  const struct ptx_sym *all[256];
  int nall;
};

static int scope_find(const struct scope *sc, const char *name, size_t len) {
  for (int i = 0; i < sc->nall; i++)
    if (strlen(sc->all[i]->name) == len && !strncmp(sc->all[i]->name, name, len))
      return i < 63 ? i : 63;
  return -1;
}

/* The bits an operand contributes: a register's, or an array named in it
 * ("name", "name+16"). */
static void operand_bits(struct reg_map *r, const struct scope *sc, const char *op, uint64_t *syms,
                         uint64_t *params) {
  if (op[0] == '%') {
    size_t i = reg_slot(r, op, 0);
    if (i != (size_t)-1) {
      *syms |= r->syms[i];
      *params |= r->params[i];
    }
    return;
  }
  if (!isalpha((unsigned char)op[0]) && op[0] != '_' && op[0] != '$')
    return;
  int s = scope_find(sc, op, strcspn(op, "+- \t"));
  if (s >= 0)
    *syms |= 1ull << s;
}

/* Whether an opcode carries an address from its sources to its
 * destination. */
static int carries_address(const char *op) {
  static const char *const ops[] = {"mov", "add", "sub", "mad", "or", "and", "selp", "cvt", "cvta"};
  size_t len = strcspn(op, ".");
  for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
    if (strlen(ops[i]) == len && !strncmp(op, ops[i], len))
      return 1;
  return 0;
}

static int scan_func(const char *path, struct ptx_module *m, struct ptx_func *f, FILE *report,
                     int *accesses) {
  struct scope sc = {0};
  for (int i = 0; i < f->nsyms && sc.nall < 256; i++)
    sc.all[sc.nall++] = &f->syms[i];
  for (int i = 0; i < m->nsyms && sc.nall < 256; i++)
    sc.all[sc.nall++] = &m->syms[i];
  /* bit 63 stands for every array from the 63rd on: its alignment is theirs
   * at least */
  int align63 = 1 << 30;
  for (int i = 63; i < sc.nall; i++)
    if (sc.all[i]->align < align63)
      align63 = sc.all[i]->align;
  struct reg_map r = {0};
  for (int i = 0; i < f->ninsns; i++)
    if (f->insns[i].nops > 0 && f->insns[i].ops[0][0] == '%')
      reg_slot(&r, f->insns[i].ops[0], 1);
  /* what each register may address, to a fixed point (loops) */
  for (int changed = 1, round = 0; changed && round < 64; round++) {
    changed = 0;
    for (int i = 0; i < f->ninsns; i++) {
      struct ptx_insn *in = &f->insns[i];
      if (in->nops < 2 || in->ops[0][0] != '%')
        continue;
      uint64_t syms = 0, params = 0;
      if (!strncmp(in->op, "ld.param", 8) && in->ops[1][0] == '[') {
        const char *name = in->ops[1] + 1;
        size_t len = strcspn(name, "]+");
        for (int p = 0; p < f->nparams && p < 64; p++)
          if (strlen(f->params[p].name) == len && !strncmp(f->params[p].name, name, len))
            params |= 1ull << p;
      } else if (carries_address(in->op)) {
        for (int k = 1; k < in->nops; k++)
          operand_bits(&r, &sc, in->ops[k], &syms, &params);
      } else {
        continue;
      }
      size_t d = reg_slot(&r, in->ops[0], 0);
      if (d == (size_t)-1)
        continue;
      if ((r.syms[d] | syms) != r.syms[d] || (r.params[d] | params) != r.params[d]) {
        r.syms[d] |= syms;
        r.params[d] |= params;
        changed = 1;
      }
    }
  }
  int findings = 0;
  for (int i = 0; i < f->ninsns; i++) {
    struct ptx_insn *in = &f->insns[i];
    struct access a = classify(in);
    if (!a.is_mem || !a.addr || a.space == SP_OTHER || a.width == 0)
      continue;
    /* [base], [base+off], [base+-off] */
    char base[SCAN_NAME_MAX];
    const char *b = a.addr + 1;
    size_t blen = strcspn(b, "+]");
    copy_name(base, b, blen);
    long off = 0;
    int known_off = 0;
    if (b[blen] == '+') {
      off = strtol(b + blen + 1, NULL, 0);
      known_off = 1;
    }
    uint64_t syms = 0, params = 0;
    int direct = base[0] != '%';
    if (isdigit((unsigned char)base[0]))
      continue; /* an absolute address */
    operand_bits(&r, &sc, base, &syms, &params);
    if (direct)
      known_off = 1;
    if (a.vec > 1 && (a.space != SP_GENERIC || syms || params))
      (*accesses)++;
    for (int s = 0; s < 64 && s < sc.nall; s++) {
      if (!(syms >> s & 1))
        continue;
      const struct ptx_sym *sym = sc.all[s];
      int align = s == 63 ? align63 : sym->align;
      if (align < a.width) {
        fprintf(report, "%s:%d: %s: %s accesses %d bytes of '%s'%s, declared .align %d\n", path,
                in->line, f->name, in->op, a.width, sym->name, s == 63 ? " (or an array after it)" : "",
                align);
        findings++;
      } else if (direct && known_off && off % a.width != 0) {
        fprintf(report, "%s:%d: %s: %s accesses %d bytes at '%s'+%ld, not a multiple of %d\n",
                path, in->line, f->name, in->op, a.width, sym->name, off, a.width);
        findings++;
      }
    }
    for (int p = 0; p < f->nparams && p < 64; p++) {
      if (!(params >> p & 1))
        continue;
      int align = f->params[p].ptr_align;
      if (align > 1 && align < a.width) {
        fprintf(report, "%s:%d: %s: %s accesses %d bytes through '%s', declared .ptr .align %d\n",
                path, in->line, f->name, in->op, a.width, f->params[p].name, align);
        findings++;
      }
    }
    if (a.space == SP_SHARED && !syms && (a.vec > 1 || a.width > 4)) {
      /* traced to no array: any .shared array in scope aligned below the
       * width could be the one */
      for (int s = 0; s < sc.nall; s++) {
        if (sc.all[s]->space != SP_SHARED || sc.all[s]->align >= a.width)
          continue;
        fprintf(report,
                "%s:%d: %s: %s accesses %d bytes at %s, traced to no array, and '%s' is "
                "declared .align %d\n",
                path, in->line, f->name, in->op, a.width, a.addr, sc.all[s]->name, sc.all[s]->align);
        findings++;
        break;
      }
    }
  }
  reg_free(&r);
  return findings;
}

int ptx_align_scan(const char *path, FILE *report, int *accesses) {
  struct ptx_module m;
  int dummy = 0;
  if (!accesses)
    accesses = &dummy;
  *accesses = 0;
  if (ptx_parse(path, &m) != 0)
    return -1;
  int findings = 0;
  for (int i = 0; i < m.nfuncs; i++)
    findings += scan_func(path, &m, &m.funcs[i], report, accesses);
  ptx_free(&m);
  return findings;
}

/* ---- ptxas -v ------------------------------------------------------------- */

static struct ptxas_info *ptxas_find(struct ptxas_info **v, int *n, const char *name, size_t len) {
  for (int i = 0; i < *n; i++)
    if (strlen((*v)[i].name) == len && !strncmp((*v)[i].name, name, len))
      return &(*v)[i];
  *v = xrealloc(*v, (size_t)(*n + 1) * sizeof **v);
  struct ptxas_info *p = &(*v)[(*n)++];
  memset(p, 0, sizeof *p);
  copy_name(p->name, name, len);
  return p;
}

/* The number that ends just before " <what>" in line; 0 when none. */
static int number_before(const char *line, const char *what) {
  const char *p = strstr(line, what);
  if (!p)
    return 0;
  while (p > line && p[-1] == ' ')
    p--;
  while (p > line && isdigit((unsigned char)p[-1]))
    p--;
  return atoi(p);
}

int ptxas_infos(const char *path, struct ptxas_info **out) {
  *out = NULL;
  char *text = slurp(path, NULL);
  if (!text)
    return -1;
  struct ptxas_info *v = NULL;
  int n = 0;
  long cur = -1;
  for (char *line = text, *next; line; line = next) {
    next = next_line(line);
    char *p;
    if ((p = strstr(line, "Compiling entry function '")) != NULL) {
      p += strlen("Compiling entry function '");
      cur = ptxas_find(&v, &n, p, strcspn(p, "'")) - v;
    } else if ((p = strstr(line, "Function properties for ")) != NULL) {
      p += strlen("Function properties for ");
      cur = ptxas_find(&v, &n, p, strcspn(p, " \t\r")) - v;
    } else if (cur >= 0 && strstr(line, "bytes stack frame")) {
      v[cur].stack = number_before(line, "bytes stack frame");
      v[cur].spill_stores = number_before(line, "bytes spill stores");
      v[cur].spill_loads = number_before(line, "bytes spill loads");
    } else if (cur >= 0 && (p = strstr(line, "Used ")) != NULL && strstr(line, "registers")) {
      v[cur].registers = atoi(p + 5);
    }
  }
  free(text);
  *out = v;
  return n;
}

/* ---- cubin ---------------------------------------------------------------- */

int cubin_texts(const char *path, struct sass_text **out) {
  *out = NULL;
  size_t len;
  char *buf = slurp(path, &len);
  if (!buf)
    return -1;
  const Elf64_Ehdr *eh = (const Elf64_Ehdr *)buf;
  if (len < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
      eh->e_shentsize != sizeof(Elf64_Shdr) || eh->e_shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > len ||
      eh->e_shstrndx >= eh->e_shnum) {
    fprintf(stderr, "scan: '%s' is not a 64-bit ELF file\n", path);
    free(buf);
    return -1;
  }
  const Elf64_Shdr *sh = (const Elf64_Shdr *)(buf + eh->e_shoff);
  const Elf64_Shdr *strs = &sh[eh->e_shstrndx];
  struct sass_text *v = NULL;
  int n = 0;
  for (int i = 0; i < eh->e_shnum; i++) {
    if (sh[i].sh_name >= strs->sh_size || strs->sh_offset + strs->sh_size > len)
      continue;
    const char *name = buf + strs->sh_offset + sh[i].sh_name;
    if (strncmp(name, ".text.", 6) || sh[i].sh_type != SHT_PROGBITS ||
        sh[i].sh_offset + sh[i].sh_size > len)
      continue;
    v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
    struct sass_text *t = &v[n++];
    copy_name(t->name, name + 6, strlen(name + 6));
    t->bytes = (long)sh[i].sh_size;
    /* Volta and later: 16-byte instructions, the opcode in the low 12 bits;
     * 0x918 is NOP, which pads a kernel to its alignment */
    long code = t->bytes;
    const unsigned char *text = (const unsigned char *)buf + sh[i].sh_offset;
    while (code >= 16) {
      const unsigned char *w = text + code - 16;
      unsigned opcode = (unsigned)w[0] | ((unsigned)w[1] << 8);
      if ((opcode & 0xfff) != 0x918)
        break;
      code -= 16;
    }
    t->code_bytes = code;
  }
  free(buf);
  *out = v;
  return n;
}

/* ---- AMD ------------------------------------------------------------------ */

int amd_notes(const char *path, struct amd_kernel **out) {
  *out = NULL;
  char *text = slurp(path, NULL);
  if (!text)
    return -1;
  struct amd_kernel *v = NULL;
  int n = 0, in_kernels = 0;
  for (char *line = text, *next; line; line = next) {
    next = next_line(line);
    if (!strncmp(line, "amdhsa.kernels:", 15)) {
      in_kernels = 1;
      continue;
    }
    if (!in_kernels)
      continue;
    if (isalpha((unsigned char)line[0]) || line[0] == '.') {
      in_kernels = 0; /* the next top-level key */
      continue;
    }
    /* "  - .key: value" opens a kernel; "    .key: value" continues it;
     * deeper lines are its arguments */
    int indent = 0;
    const char *p = line;
    while (*p == ' ')
      p++, indent++;
    if (*p == '-') {
      if (indent == 2) {
        v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
        memset(&v[n], 0, sizeof v[n]);
        v[n].insns = -1;
        n++;
      }
      p++;
      indent++;
      while (*p == ' ')
        p++, indent++;
    }
    if (indent != 4 || n == 0 || *p != '.')
      continue;
    struct amd_kernel *k = &v[n - 1];
    size_t klen = strcspn(p, ":");
    if (p[klen] != ':')
      continue;
    char *val = trim((char *)p + klen + 1);
    static const struct {
      const char *key;
      size_t off;
    } keys[] = {
        {".vgpr_count", offsetof(struct amd_kernel, vgpr)},
        {".agpr_count", offsetof(struct amd_kernel, agpr)},
        {".sgpr_count", offsetof(struct amd_kernel, sgpr)},
        {".vgpr_spill_count", offsetof(struct amd_kernel, vgpr_spill)},
        {".sgpr_spill_count", offsetof(struct amd_kernel, sgpr_spill)},
        {".private_segment_fixed_size", offsetof(struct amd_kernel, scratch)},
        {".group_segment_fixed_size", offsetof(struct amd_kernel, group)},
        {".max_flat_workgroup_size", offsetof(struct amd_kernel, max_flat)},
    };
    if (klen == 5 && !strncmp(p, ".name", 5)) {
      copy_name(k->name, val, strlen(val));
      continue;
    }
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
      if (strlen(keys[i].key) == klen && !strncmp(p, keys[i].key, klen))
        *(long *)((char *)k + keys[i].off) = atol(val);
  }
  free(text);
  *out = v;
  return n;
}

/* "0000000000002400 <vadd4>:": the name, else NULL. */
static char *objdump_symbol(char *line, size_t *len) {
  char *p = line;
  while (isxdigit((unsigned char)*p))
    p++;
  if (p == line || p[0] != ' ' || p[1] != '<')
    return NULL;
  char *end = strstr(p, ">:");
  if (!end)
    return NULL;
  *len = (size_t)(end - (p + 2));
  return p + 2;
}

int amd_insns(const char *path, struct amd_kernel *k, int n) {
  char *text = slurp(path, NULL);
  if (!text)
    return -1;
  struct amd_kernel *cur = NULL;
  int count = 0, at_end = 0;
  for (char *line = text, *next;; line = next) {
    next = line ? next_line(line) : NULL;
    size_t len;
    char *sym = line ? objdump_symbol(line, &len) : NULL;
    if (!line || sym) {
      if (cur)
        cur->insns = at_end ? at_end : count;
      cur = NULL;
      if (!line)
        break;
      for (int i = 0; i < n; i++)
        if (strlen(k[i].name) == len && !strncmp(k[i].name, sym, len))
          cur = &k[i];
      count = at_end = 0;
      continue;
    }
    if (!cur || line[0] != '\t')
      continue;
    char *s = trim(line);
    if (!*s)
      continue;
    count++;
    if (!strncmp(s, "s_endpgm", 8) && !is_ident((unsigned char)s[8]))
      at_end = count;
  }
  free(text);
  return 0;
}

int amd_align_scan(const char *path, const char *label, FILE *report, int *accesses) {
  int dummy = 0;
  if (!accesses)
    accesses = &dummy;
  *accesses = 0;
  char *text = slurp(path, NULL);
  if (!text)
    return -1;
  int findings = 0;
  char func[SCAN_NAME_MAX] = "?";
  for (char *line = text, *next; line; line = next) {
    next = next_line(line);
    size_t len;
    char *sym = objdump_symbol(line, &len);
    if (sym) {
      copy_name(func, sym, len);
      continue;
    }
    if (line[0] != '\t')
      continue;
    char *s = trim(line);
    size_t mlen = strcspn(s, " \t");
    if (strncmp(s, "ds_", 3) || mlen < 7)
      continue;
    char mnem[64];
    copy_name(mnem, s, mlen < sizeof mnem ? mlen : sizeof mnem - 1);
    int width = 0;
    if (strstr(mnem, "2st64") || strstr(mnem, "read2") || strstr(mnem, "write2") ||
        strstr(mnem, "load_2") || strstr(mnem, "store_2"))
      continue; /* offsets counted in elements */
    if (!strncmp(mnem, "ds_read_", 8) || !strncmp(mnem, "ds_write_", 9) || !strncmp(mnem, "ds_load_", 8) ||
        !strncmp(mnem, "ds_store_", 9)) {
      size_t ml = strlen(mnem);
      if (ml > 4 && !strcmp(mnem + ml - 4, "_b64"))
        width = 8;
      else if (ml > 5 && !strcmp(mnem + ml - 5, "_b128"))
        width = 16;
    }
    if (!width)
      continue;
    (*accesses)++;
    char *cmt = strstr(s, "//");
    if (cmt)
      *cmt = '\0';
    char *o = strstr(s, " offset:");
    if (!o)
      continue;
    long off = strtol(o + 8, NULL, 0);
    if (off % width != 0) {
      fprintf(report, "%s: %s: %s at offset %ld, not a multiple of %d\n", label, func, trim(s), off, width);
      findings++;
    }
  }
  free(text);
  return findings;
}

/* ---- running tools -------------------------------------------------------- */

int tool_start(const char *dir, char *const argv[], const char *out, const char *err) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (dir)
    posix_spawn_file_actions_addchdir_np(&fa, dir);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (err && out && !strcmp(err, out))
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
  else
    posix_spawn_file_actions_addopen(&fa, 2, err ? err : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid;
  int rc = strchr(argv[0], '/') ? posix_spawn(&pid, argv[0], &fa, NULL, argv, environ)
                                 : posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) {
    fprintf(stderr, "cannot run '%s': %s\n", argv[0], strerror(rc));
    return -1;
  }
  return (int)pid;
}

int tool_wait(int pid) {
  int status;
  while (waitpid((pid_t)pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

int tool_run(const char *dir, char *const argv[], const char *out, const char *err) {
  int pid = tool_start(dir, argv, out, err);
  return pid < 0 ? -1 : tool_wait(pid);
}

int tool_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}
