/* cache.c: the device object cache; see cache.h for what and why.
 *
 * Layout: <dir>/<first two hex digits>/<key>.<part>, each file the content
 * behind a header with its size and SHA-256 (checked on every read: a
 * damaged entry is removed, with a warning, and compiled again). A hit refreshes the
 * entry's modification time, which is what trimming orders by. With a
 * remote cache (remote_cache.h) a local miss asks the server, and what it
 * has is stored here first, so later builds on this machine do not ask;
 * what is compiled goes to both. */
#include "cache.h"

#include "cache_stats.h"
#include "diag.h"
#include "fatbin.h"
#include "remote_cache.h"
#include "tmp.h"

#include <dirent.h>
#include <elf.h>
#include <link.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static char dir[PATH_MAX];
static int enabled;
static int remote; /* GPUCC_REMOTE_CACHE is set and usable */

static int mkdirs(const char *path) {
  char buf[PATH_MAX];
  snprintf(buf, sizeof buf, "%s", path);
  for (char *p = buf + 1; *p; p++) {
    if (*p != '/')
      continue;
    *p = '\0';
    if (mkdir(buf, 0755) != 0 && errno != EEXIST)
      return -1;
    *p = '/';
  }
  return mkdir(buf, 0755) != 0 && errno != EEXIST ? -1 : 0;
}

const char *cache_directory(void) {
  const char *env = getenv("GPUCC_CACHE_DIR");
  if (env && !*env)
    return NULL;
  if (env)
    snprintf(dir, sizeof dir, "%s", env);
  else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
    snprintf(dir, sizeof dir, "%s/gpucc", getenv("XDG_CACHE_HOME"));
  else if (getenv("HOME") && *getenv("HOME"))
    snprintf(dir, sizeof dir, "%s/.cache/gpucc", getenv("HOME"));
  else
    return NULL;
  return dir;
}

/* This run's hits and misses go to the statistics once, at exit, by the
 * process that opened the cache (not by a job child that exits). */
static pid_t opener;
/* Whether this run stored an entry (only then may cache_trim have work):
 * in memory shared with the jobs forked after cache_open, which store
 * their own entries. */
static volatile int *stored;

static void record_stats(void) {
  if (enabled && getpid() == opener)
    cache_stats_flush(dir);
}

int cache_open(int want) {
  enabled = remote = 0;
  if (!want || !cache_directory())
    return -1;
  if (mkdirs(dir) != 0) {
    diag_warning("cannot create the cache directory '%s': %s (compiling without cache)", dir,
                 strerror(errno));
    return -1;
  }
  enabled = 1;
  if (!stored) {
    void *m = mmap(NULL, sizeof *stored, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    stored = m == MAP_FAILED ? NULL : m; /* NULL: trim after every run, as before */
  }
  if (!opener)
    atexit(record_stats);
  opener = getpid();
  /* Remote entries are always stored locally: no local cache, no remote. */
  remote = remote_cache_open() == 0;
  return 0;
}

int cache_enabled(void) { return enabled; }

/* The executable's GNU build-id note: the linker's hash of its contents
 * (CMake links gpucc with --build-id=sha1). NULL when it has none. */
struct build_id {
  const unsigned char *bytes;
  size_t len;
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct build_id *id = arg;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const unsigned char *p = (const unsigned char *)(info->dlpi_addr + ph->p_vaddr);
    const unsigned char *end = p + ph->p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      const ElfW(Nhdr) *n = (const ElfW(Nhdr) *)p;
      const unsigned char *name = p + sizeof *n;
      const unsigned char *desc = name + ((n->n_namesz + 3) & ~3u);
      if (desc + n->n_descsz > end)
        break;
      if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 && !memcmp(name, "GNU", 4) &&
          n->n_descsz >= 16) {
        id->bytes = desc;
        id->len = n->n_descsz;
        return 1;
      }
      p = desc + ((n->n_descsz + 3) & ~3u);
    }
  }
  return 1; /* the first object is the executable: only it counts */
}

/* Pipelines change between builds of the same version: an entry made by
 * another gpucc binary must not be reused, so the binary's identity is part
 * of every key (as ccache hashes the compiler): its build-id, which costs
 * nothing to read, or else the SHA-256 of its file (a few ms). */
const char *cache_compiler_id(void) {
  static char id[2 * FATBIN_SHA256_SIZE + 1];
  if (id[0])
    return id;
  struct build_id b = {NULL, 0};
  dl_iterate_phdr(find_build_id, &b);
  if (b.bytes) {
    static const char hex[] = "0123456789abcdef";
    size_t n = b.len < FATBIN_SHA256_SIZE ? b.len : FATBIN_SHA256_SIZE;
    for (size_t i = 0; i < n; i++) {
      id[2 * i] = hex[b.bytes[i] >> 4];
      id[2 * i + 1] = hex[b.bytes[i] & 15];
    }
    id[2 * n] = '\0';
    return id;
  }
  void *data;
  size_t size;
  if (tmp_read_file("/proc/self/exe", &data, &size) != 0)
    BUG("cannot read gpucc's own executable");
  unsigned char sum[FATBIN_SHA256_SIZE];
  fatbin_sha256(data, size, sum);
  free(data);
  fatbin_sha256_hex(sum, id);
  return id;
}

void cache_key(const void *text, size_t size, const char *params, char key[CACHE_KEY_SIZE]) {
  size_t plen = strlen(params);
  char *buf = malloc(size + plen + 2);
  if (!buf)
    BUG("out of memory");
  memcpy(buf, params, plen);
  buf[plen] = '\n'; /* params never contain a newline: no ambiguity */
  memcpy(buf + plen + 1, text, size);
  unsigned char sum[FATBIN_SHA256_SIZE];
  fatbin_sha256(buf, size + plen + 1, sum);
  free(buf);
  fatbin_sha256_hex(sum, key);
}

static void entry_path(char *out, size_t len, const char *key, const char *part) {
  snprintf(out, len, "%s/%.2s/%s.%s", dir, key, key, part);
}

/* Both levels name an entry by its local file name, "<key>.<part>". */
static void entry_name(char *out, size_t len, const char *key, const char *part) {
  snprintf(out, len, "%s.%s", key, part);
}

/* A local entry is its content behind a header that vouches for it, as
 * ccache's do: a truncated, zeroed or bit-flipped file (a full disk, a
 * crash, a bad sector, a copy gone wrong) is told from a good one before
 * anything uses it.
 *   offset 0   8 bytes  ENTRY_MAGIC
 *   offset 8   u64 LE   content size
 *   offset 16  32 bytes SHA-256 of the content
 *   offset 48  content */
#define ENTRY_MAGIC "GPUCCENT"
#define ENTRY_HEADER (8 + 8 + FATBIN_SHA256_SIZE)

static void put_u64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_u64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++)
    v |= (uint64_t)p[i] << (8 * i);
  return v;
}

/* Writes data as an entry to path (a temp name the caller renames). */
static int write_entry(const char *path, const void *data, size_t size) {
  unsigned char *buf = malloc(ENTRY_HEADER + size);
  if (!buf)
    return -1;
  memcpy(buf, ENTRY_MAGIC, 8);
  put_u64(buf + 8, size);
  fatbin_sha256(data, size, buf + 16);
  memcpy(buf + ENTRY_HEADER, data, size);
  int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  int rc = fd < 0 ? -1 : 0;
  for (size_t done = 0; rc == 0 && done < ENTRY_HEADER + size;) {
    ssize_t n = write(fd, buf + done, ENTRY_HEADER + size - done);
    if (n <= 0)
      rc = -1;
    else
      done += (size_t)n;
  }
  if (fd >= 0 && close(fd) != 0)
    rc = -1;
  free(buf);
  return rc;
}

/* The whole file, malloc'ed, without a word on failure: the cache failing is
 * never an error of the build. */
static int read_quietly(const char *path, void **data, size_t *size) {
  *data = NULL;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  struct stat st;
  if (fd < 0)
    return -1;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !(*data = malloc((size_t)st.st_size + 1))) {
    close(fd);
    return -1;
  }
  size_t done = 0;
  for (ssize_t n; done < (size_t)st.st_size; done += (size_t)n)
    if ((n = read(fd, (char *)*data + done, (size_t)st.st_size - done)) <= 0)
      break;
  close(fd);
  if (done != (size_t)st.st_size) {
    free(*data);
    *data = NULL;
    return -1;
  }
  *size = done;
  return 0;
}

enum entry_state { ENTRY_GOOD, ENTRY_MISSING, ENTRY_DAMAGED };

/* Reads the entry at path; when good, *data (malloc'ed, the whole file) and
 * *content point at its content of *size bytes. */
static enum entry_state read_entry(const char *path, void **data, const void **content,
                                   size_t *size) {
  *data = NULL;
  if (access(path, F_OK) != 0)
    return ENTRY_MISSING;
  size_t len;
  if (read_quietly(path, data, &len) != 0)
    return ENTRY_DAMAGED;
  const unsigned char *p = *data;
  unsigned char sum[FATBIN_SHA256_SIZE];
  if (len < ENTRY_HEADER || memcmp(p, ENTRY_MAGIC, 8) != 0 || get_u64(p + 8) != len - ENTRY_HEADER)
    return ENTRY_DAMAGED;
  fatbin_sha256(p + ENTRY_HEADER, len - ENTRY_HEADER, sum);
  if (memcmp(sum, p + 16, FATBIN_SHA256_SIZE) != 0)
    return ENTRY_DAMAGED;
  *content = p + ENTRY_HEADER;
  *size = len - ENTRY_HEADER;
  return ENTRY_GOOD;
}

/* A damaged entry is a miss: it goes, and the build compiles instead. */
static void drop_damaged(const char *path) {
  if (unlink(path) == 0 || errno == ENOENT)
    diag_warning("damaged cache entry '%s' (removed)", path);
  else
    diag_warning("damaged cache entry '%s' (cannot remove it: %s)", path, strerror(errno));
}

/* Copies the file src into the cache as the entry at path, through a temp
 * name unique per process (two gpucc runs may store the same entry at once),
 * so that concurrent builds never see half of it. */
static int store_local(const char *src, const char *path) {
  char tmp[PATH_MAX + 160];
  snprintf(tmp, sizeof tmp, "%s.tmp.%ld", path, (long)getpid());
  void *data;
  size_t size;
  if (read_quietly(src, &data, &size) != 0)
    return -1;
  int rc = write_entry(tmp, data, size) == 0 && rename(tmp, path) == 0 ? 0 : -1;
  free(data);
  if (rc != 0)
    unlink(tmp);
  return rc;
}

/* The entries ("<key>.<part>") this run took from the remote cache: their
 * local hits are remote hits, for -v and the statistics. A set by open
 * addressing (FNV-1a): a program may have thousands of cells. */
static char **from_remote;
static size_t from_remote_cap, from_remote_n;

static size_t remote_slot(char **set, size_t cap, const char *name) {
  uint64_t h = 14695981039346656037ull;
  for (const char *c = name; *c; c++)
    h = (h ^ (unsigned char)*c) * 1099511628211ull;
  for (size_t i = h & (cap - 1);; i = (i + 1) & (cap - 1))
    if (!set[i] || !strcmp(set[i], name))
      return i;
}

static void remember_remote(const char *name) {
  if (2 * (from_remote_n + 1) > from_remote_cap) {
    size_t cap = from_remote_cap ? 2 * from_remote_cap : 64;
    char **set = calloc(cap, sizeof *set);
    if (!set)
      return; /* the hit is reported as local: nothing else depends on it */
    for (size_t i = 0; i < from_remote_cap; i++)
      if (from_remote[i])
        set[remote_slot(set, cap, from_remote[i])] = from_remote[i];
    free(from_remote);
    from_remote = set;
    from_remote_cap = cap;
  }
  size_t i = remote_slot(from_remote, from_remote_cap, name);
  if (!from_remote[i] && (from_remote[i] = strdup(name)))
    from_remote_n++;
}

int cache_from_remote(const char *key, const char *part) {
  char name[CACHE_KEY_SIZE + 16];
  entry_name(name, sizeof name, key, part);
  return from_remote_cap && from_remote[remote_slot(from_remote, from_remote_cap, name)];
}

/* A local miss: the remote's entry, verified by its own checksum, is stored
 * here like a compiled one. */
static int fetch_remote(const char *key, const char *part, const char *path) {
  char sub[PATH_MAX + 8], name[CACHE_KEY_SIZE + 16], got[PATH_MAX + 160];
  snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
  if (mkdir(sub, 0755) != 0 && errno != EEXIST)
    return 0;
  entry_name(name, sizeof name, key, part);
  snprintf(got, sizeof got, "%s.remote.%ld", path, (long)getpid());
  int ok = remote_cache_get(name, got) == 0 && store_local(got, path) == 0;
  unlink(got);
  if (ok)
    remember_remote(name);
  return ok;
}

/* Statistics count a (gpu.module, target) cell by its device file and a
 * host object by itself; a finished object ("lnk") goes with its device
 * file. */
static int counted_part(const char *part) { return strcmp(part, "lnk") != 0; }

/* A direct entry (direct_cache.h): a whole command's object. Storing one
 * compiles nothing (the build's own entries counted that), and it stays
 * local: its key holds the working directory. */
static int direct_part(const char *part) { return !strcmp(part, CACHE_PART_DIRECT); }

/* Reads the whole entry, so that a damaged one is found while the build can
 * still compile instead. */
int cache_has(const char *key, const char *part) {
  if (!enabled)
    return 0;
  char path[PATH_MAX + 128];
  entry_path(path, sizeof path, key, part);
  void *data;
  const void *content;
  size_t size;
  enum entry_state st = read_entry(path, &data, &content, &size);
  free(data);
  if (st == ENTRY_GOOD)
    return 1;
  if (st == ENTRY_DAMAGED)
    drop_damaged(path);
  return remote && fetch_remote(key, part, path);
}

int cache_fetch(const char *key, const char *part, const char *dest) {
  if (!enabled)
    return -1;
  char path[PATH_MAX + 128];
  entry_path(path, sizeof path, key, part);
  void *data;
  const void *content;
  size_t size;
  enum entry_state st = read_entry(path, &data, &content, &size);
  if (st == ENTRY_DAMAGED)
    drop_damaged(path);
  int rc = st == ENTRY_GOOD ? tmp_write_file(dest, content, size) : -1;
  free(data);
  if (rc == 0)
    utimensat(AT_FDCWD, path, NULL, 0); /* most recently used now */
  if (rc == 0 && counted_part(part))
    cache_stats_count(cache_from_remote(key, part) ? CACHE_HIT_REMOTE : CACHE_HIT_LOCAL);
  return rc;
}

void cache_store(const char *key, const char *part, const char *src) {
  if (!enabled)
    return;
  char sub[PATH_MAX + 8], path[PATH_MAX + 128];
  snprintf(sub, sizeof sub, "%s/%.2s", dir, key);
  if (counted_part(part) && !direct_part(part))
    cache_stats_count(CACHE_MISS); /* compiled: nothing served it */
  if (mkdir(sub, 0755) != 0 && errno != EEXIST)
    return;
  entry_path(path, sizeof path, key, part);
  if (stored)
    *stored = 1;
  if (store_local(src, path) != 0)
    diag_warning("cannot store '%s' in the cache '%s'", src, dir);
  if (remote && !direct_part(part)) {
    char name[CACHE_KEY_SIZE + 16];
    entry_name(name, sizeof name, key, part);
    remote_cache_put(name, src);
  }
}

struct cached_file {
  char path[PATH_MAX + 300];
  time_t mtime;
  off_t size;
};

static int older_first(const void *a, const void *b) {
  const struct cached_file *x = a, *y = b;
  return (x->mtime > y->mtime) - (x->mtime < y->mtime);
}

static int all_hex(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
      return 0;
  return 1;
}

/* What trimming may delete: only the cache's own shard folders (two hex
 * digits: not "..", whose files are the user's) and in them only regular
 * files named like entries ("<key>.<part>", "<key>.<part>.tmp.<pid>", key
 * in hex and in this shard). */
static int is_shard(const char *name) { return strlen(name) == 2 && all_hex(name, 2); }

static int is_entry(const char *shard, const char *name) {
  size_t keylen = CACHE_KEY_SIZE - 1;
  return strlen(name) > keylen + 1 && all_hex(name, keylen) && name[keylen] == '.' &&
         name[0] == shard[0] && name[1] == shard[1];
}

/* Calls fn on every entry file of the cache (regular files only). */
static void each_entry_file(void (*fn)(const char *path, const char *name, const struct stat *st, void *ud),
                            void *ud) {
  DIR *top = opendir(dir);
  if (!top)
    return;
  struct dirent *d;
  while ((d = readdir(top))) {
    if (!is_shard(d->d_name))
      continue;
    char sub[PATH_MAX + 8];
    snprintf(sub, sizeof sub, "%s/%.2s", dir, d->d_name);
    DIR *sd = opendir(sub);
    if (!sd)
      continue;
    struct dirent *e;
    while ((e = readdir(sd))) {
      if (!is_entry(d->d_name, e->d_name))
        continue;
      char path[PATH_MAX + 300];
      struct stat st;
      snprintf(path, sizeof path, "%s/%s", sub, e->d_name);
      if (lstat(path, &st) == 0 && S_ISREG(st.st_mode))
        fn(path, e->d_name, &st, ud);
    }
    closedir(sd);
  }
  closedir(top);
}

unsigned long long cache_size_limit(void) {
  const char *env = getenv("GPUCC_CACHE_SIZE");
  if (env && strtoull(env, NULL, 10) > 0)
    return strtoull(env, NULL, 10);
  return 1ull << 30;
}

struct file_list {
  struct cached_file *files;
  size_t n, cap;
  unsigned long long total;
};

static void collect(const char *path, const char *name, const struct stat *st, void *ud) {
  (void)name;
  struct file_list *l = ud;
  if (l->n == l->cap) {
    size_t cap = l->cap ? l->cap * 2 : 256;
    struct cached_file *g = realloc(l->files, cap * sizeof *g);
    if (!g)
      return;
    l->files = g;
    l->cap = cap;
  }
  struct cached_file *f = &l->files[l->n++];
  snprintf(f->path, sizeof f->path, "%s", path);
  f->mtime = st->st_mtime;
  f->size = st->st_size;
  l->total += (unsigned long long)st->st_size;
}

void cache_trim(void) {
  /* Only a run that stored something can have pushed the cache over its
   * limit; walking every entry costs a stat each (tens of thousands in a
   * team's cache), which a warm build must not pay. */
  if (!enabled || (stored && !*stored))
    return;
  unsigned long long limit = cache_size_limit();
  struct file_list l = {0};
  each_entry_file(collect, &l);
  if (l.total > limit) {
    /* Down to 90% so that the next builds do not trim again at once. */
    qsort(l.files, l.n, sizeof *l.files, older_first);
    for (size_t i = 0; i < l.n && l.total > limit / 10 * 9; i++)
      if (unlink(l.files[i].path) == 0)
        l.total -= (unsigned long long)l.files[i].size;
  }
  free(l.files);
}

/* An entry is counted by its device file or host object: "<key>.dev",
 * "<key>.host" (a "lnk" goes with a "dev"; temp names are not entries). */
static void count_usage(const char *path, const char *name, const struct stat *st, void *ud) {
  (void)path;
  struct cache_usage *u = ud;
  const char *part = name + CACHE_KEY_SIZE;
  u->entries += !strcmp(part, "dev") || !strcmp(part, "host");
  u->files++;
  u->bytes += (unsigned long long)st->st_size;
}

void cache_usage(struct cache_usage *u) {
  memset(u, 0, sizeof *u);
  if (cache_directory())
    each_entry_file(count_usage, u);
}

struct clearing {
  struct cache_usage removed;
  int failed;
};

static void remove_entry(const char *path, const char *name, const struct stat *st, void *ud) {
  struct clearing *c = ud;
  if (unlink(path) == 0)
    count_usage(path, name, st, &c->removed);
  else if (errno != ENOENT)
    c->failed = 1;
}

int cache_clear(struct cache_usage *removed) {
  struct clearing c = {{0}, 0};
  if (cache_directory()) {
    each_entry_file(remove_entry, &c);
    /* Empty shards go too; one that another gpucc is filling stays. */
    DIR *top = opendir(dir);
    for (struct dirent *d; top && (d = readdir(top));) {
      char sub[PATH_MAX + 8];
      snprintf(sub, sizeof sub, "%s/%.2s", dir, d->d_name);
      if (is_shard(d->d_name))
        rmdir(sub);
    }
    if (top)
      closedir(top);
  }
  *removed = c.removed;
  return c.failed ? -1 : 0;
}
