/* remote_cache.c: GET and PUT of device objects on an HTTP server, with
 * libcurl; see remote_cache.h for the layout and the contract.
 *
 * Everything here is best effort: the build must come out the same, and not
 * much slower, whatever the server does. So every failure ends in "compile
 * instead", a failing server is dropped for the rest of the run after one
 * warning (a dead server would otherwise cost a timeout per entry), and file
 * errors are not reported through diag_error, which would fail the build. */
#include "remote_cache.h"

#include "curl_lib.h"
#include "diag.h"
#include "fatbin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define REMOTE_MAGIC "gpucc-remote-1"
/* Device objects are megabytes at most; anything far bigger is not ours. */
#define REMOTE_MAX_SIZE (1ull << 30)

static char *base_url;     /* without a trailing '/' */
static char *shown_url;    /* base_url without user:password@, for messages */
static int read_only;
static int given_up;       /* the server failed once: not asked again */
static int warned;
static const struct curl_lib *curl; /* loaded by remote_cache_open */
static CURL *handle;       /* reused so that requests share one connection */
static pid_t handle_pid;

static void warn_once(const char *what, const char *why) {
  if (warned)
    return;
  warned = 1;
  diag_warning("remote cache '%s': %s%s%s (compiling without it)", shown_url, what,
               why ? ": " : "", why ? why : "");
}

static void give_up(const char *what, const char *why) {
  warn_once(what, why);
  given_up = 1;
}

static char *hide_password(const char *url) {
  char *s = strdup(url);
  if (!s)
    BUG("out of memory");
  char *host = strstr(s, "://");
  if (!host)
    return s;
  host += 3;
  char *end = host + strcspn(host, "/");
  char *at = memchr(host, '@', (size_t)(end - host));
  if (at)
    memmove(host, at + 1, strlen(at + 1) + 1);
  return s;
}

const char *remote_cache_shown_url(void) {
  static char *shown;
  const char *url = getenv("GPUCC_REMOTE_CACHE");
  if (!url || !*url)
    return NULL;
  free(shown);
  shown = hide_password(url);
  return shown;
}

int remote_cache_read_only(void) {
  const char *ro = getenv("GPUCC_REMOTE_CACHE_READONLY");
  return ro && *ro && strcmp(ro, "0") != 0;
}

int remote_cache_open(void) {
  const char *url = getenv("GPUCC_REMOTE_CACHE");
  if (!url || !*url)
    return -1;
  free(base_url);
  free(shown_url);
  base_url = strdup(url);
  if (!base_url)
    BUG("out of memory");
  for (size_t n = strlen(base_url); n > 0 && base_url[n - 1] == '/'; n--)
    base_url[n - 1] = '\0';
  shown_url = hide_password(base_url);
  read_only = remote_cache_read_only();
  given_up = warned = 0;
  if (strncasecmp(base_url, "http://", 7) != 0 && strncasecmp(base_url, "https://", 8) != 0) {
    give_up("not an http:// or https:// URL", NULL);
    return -1;
  }
  char why[512];
  if (!(curl = curl_lib_load(why, sizeof why))) {
    give_up("libcurl is needed", why);
    return -1;
  }
  if (curl->global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    give_up("cannot initialize libcurl", NULL);
    return -1;
  }
  return 0;
}

/* A handle made before a fork shares its connection with the parent: a
 * child makes its own (and leaves the parent's alone). */
static CURL *request(const char *name, char *errbuf) {
  if (handle && handle_pid == getpid()) {
    curl->easy_reset(handle);
  } else {
    handle = curl->easy_init();
    handle_pid = getpid();
    if (!handle) {
      give_up("cannot initialize libcurl", NULL);
      return NULL;
    }
  }
  char url[4096];
  if (snprintf(url, sizeof url, "%s/%.2s/%s", base_url, name, name + 2) >= (int)sizeof url) {
    give_up("URL too long", NULL);
    return NULL;
  }
  errbuf[0] = '\0';
  curl->easy_setopt(handle, CURLOPT_URL, url);
  curl->easy_setopt(handle, CURLOPT_ERRORBUFFER, errbuf);
  curl->easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl->easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, 2L);
  curl->easy_setopt(handle, CURLOPT_TIMEOUT, 10L);
  /* No SIGALRM for name lookups: gpucc has its own signal handlers. */
  curl->easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl->easy_setopt(handle, CURLOPT_USERAGENT, "gpucc/" GPUCC_VERSION);
  return handle;
}

/* A transfer that did not happen: the server is dropped for this run. */
static int transfer_failed(CURLcode rc, const char *errbuf) {
  give_up("request failed", errbuf[0] ? errbuf : curl->easy_strerror(rc));
  return -1;
}

static int status_failed(long status) {
  char why[64];
  snprintf(why, sizeof why, "HTTP status %ld", status);
  give_up("request failed", why);
  return -1;
}

struct buffer {
  char *data;
  size_t len, cap;
};

static size_t on_data(char *ptr, size_t size, size_t n, void *arg) {
  struct buffer *b = arg;
  size_t more = size * n;
  if (b->len + more > REMOTE_MAX_SIZE)
    return 0; /* curl stops with CURLE_WRITE_ERROR */
  if (b->len + more > b->cap) {
    size_t cap = b->cap ? b->cap : 1 << 16;
    while (cap < b->len + more)
      cap *= 2;
    char *d = realloc(b->data, cap);
    if (!d)
      return 0;
    b->data = d;
    b->cap = cap;
  }
  memcpy(b->data + b->len, ptr, more);
  b->len += more;
  return more;
}

static size_t on_discard(char *ptr, size_t size, size_t n, void *arg) {
  (void)ptr;
  (void)arg;
  return size * n;
}

struct upload {
  const char *data;
  size_t len, off;
};

static size_t on_send(char *ptr, size_t size, size_t n, void *arg) {
  struct upload *u = arg;
  size_t k = size * n;
  if (k > u->len - u->off)
    k = u->len - u->off;
  memcpy(ptr, u->data + u->off, k);
  u->off += k;
  return k;
}

/* The line that starts an object: what it is, how long, its hash. */
static int header_for(const char *name, const void *data, size_t size, char *out, size_t len) {
  unsigned char sum[FATBIN_SHA256_SIZE];
  char hex[2 * FATBIN_SHA256_SIZE + 1];
  fatbin_sha256(data, size, sum);
  fatbin_sha256_hex(sum, hex);
  return snprintf(out, len, REMOTE_MAGIC " %s %zu %s\n", name, size, hex);
}

static int write_whole(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  int bad = fwrite(data, 1, size, f) != size || fflush(f) != 0 || ferror(f);
  return fclose(f) != 0 || bad ? -1 : 0;
}

static int read_whole(const char *path, char **data, size_t *size) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return -1;
  struct buffer b = {0};
  char chunk[1 << 16];
  size_t n;
  int bad = 0;
  while (!bad && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
    bad = on_data(chunk, 1, n, &b) != n;
  bad |= ferror(f);
  fclose(f);
  if (bad) {
    free(b.data);
    return -1;
  }
  *data = b.data;
  *size = b.len;
  return 0;
}

int remote_cache_get(const char *name, const char *dest) {
  if (!base_url || given_up)
    return -1;
  char errbuf[CURL_ERROR_SIZE];
  CURL *h = request(name, errbuf);
  if (!h)
    return -1;
  struct buffer b = {0};
  curl->easy_setopt(h, CURLOPT_WRITEFUNCTION, on_data);
  curl->easy_setopt(h, CURLOPT_WRITEDATA, &b);
  CURLcode rc = curl->easy_perform(h);
  long status = 0;
  curl->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  int ret = -1;
  if (rc != CURLE_OK) {
    transfer_failed(rc, errbuf);
  } else if (status == 404 || status == 410) {
    /* A miss: the normal case for new code, silent. */
  } else if (status != 200) {
    status_failed(status);
  } else {
    /* The header must be exactly the one the payload implies. */
    char *nl = b.len ? memchr(b.data, '\n', b.len < 512 ? b.len : 512) : NULL;
    char want[512];
    size_t hlen = nl ? (size_t)(nl - b.data) + 1 : 0;
    if (!nl || (size_t)header_for(name, b.data + hlen, b.len - hlen, want, sizeof want) != hlen ||
        memcmp(want, b.data, hlen) != 0)
      warn_once("corrupt entry ignored", name);
    else if (write_whole(dest, b.data + hlen, b.len - hlen) == 0)
      ret = 0;
  }
  free(b.data);
  return ret;
}

void remote_cache_put(const char *name, const char *src) {
  if (!base_url || given_up || read_only)
    return;
  char *payload;
  size_t size;
  if (read_whole(src, &payload, &size) != 0)
    return; /* the local store has warned about this file already */
  char head[512];
  int hlen = header_for(name, payload, size, head, sizeof head);
  struct upload u = {.len = (size_t)hlen + size};
  char *body = malloc(u.len);
  if (!body)
    BUG("out of memory");
  memcpy(body, head, (size_t)hlen);
  memcpy(body + hlen, payload, size);
  free(payload);
  u.data = body;

  char errbuf[CURL_ERROR_SIZE];
  CURL *h = request(name, errbuf);
  if (!h) {
    free(body);
    return;
  }
  /* No "Expect: 100-continue" round trip: objects are small. */
  struct curl_slist *hdrs = curl->slist_append(NULL, "Expect:");
  hdrs = curl->slist_append(hdrs, "Content-Type: application/octet-stream");
  curl->easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
  curl->easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl->easy_setopt(h, CURLOPT_READFUNCTION, on_send);
  curl->easy_setopt(h, CURLOPT_READDATA, &u);
  curl->easy_setopt(h, CURLOPT_INFILESIZE_LARGE, (curl_off_t)u.len);
  curl->easy_setopt(h, CURLOPT_WRITEFUNCTION, on_discard);
  CURLcode rc = curl->easy_perform(h);
  long status = 0;
  curl->easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  /* The handle keeps a pointer to the list until reset or cleanup. */
  curl->easy_setopt(h, CURLOPT_HTTPHEADER, NULL);
  curl->slist_free_all(hdrs);
  free(body);
  if (rc != CURLE_OK)
    transfer_failed(rc, errbuf);
  else if (status != 200 && status != 201 && status != 204)
    status_failed(status);
}
