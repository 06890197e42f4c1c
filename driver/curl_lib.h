/* curl_lib.h: libcurl, loaded only when a remote cache is configured.
 *
 * Linking libcurl would load it and its dozen dependencies (TLS, Kerberos,
 * LDAP, ...) at every start of gpucc: about 10 ms of a 40 ms start-up, for
 * a feature most builds do not use. So the remote cache opens it with dlopen
 * when GPUCC_REMOTE_CACHE is set; the build needs only its header. */
#ifndef GPUCC_CURL_LIB_H
#define GPUCC_CURL_LIB_H

#include <curl/curl.h>
#include <stddef.h>

/* The libcurl functions remote_cache.c calls. */
struct curl_lib {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  void (*easy_reset)(CURL *handle);
  CURLcode (*easy_setopt)(CURL *handle, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *handle);
  CURLcode (*easy_getinfo)(CURL *handle, CURLINFO info, ...);
  const char *(*easy_strerror)(CURLcode code);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *s);
  void (*slist_free_all)(struct curl_slist *list);
};

/* Loads libcurl.so.4 (GPUCC_CURL_LIBRARY, when set, names another file) the
 * first time, and returns its functions; NULL with the reason in `why` when
 * it cannot be loaded or lacks one of them. */
const struct curl_lib *curl_lib_load(char *why, size_t whylen);

#endif
