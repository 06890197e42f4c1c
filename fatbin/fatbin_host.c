/* fatbin_host.c: the host row of the vendor table: the native shared
 * objects of the host target and the references to them.
 *
 *  - so, solib: an ELF shared object for the machine this library was built
 *    for (any machine where it does not know its own);
 *  - soref: "<64 hex digits> <prefix>\n". */
#include <elf.h>

#include "fatbin_private.h"

#if defined(__x86_64__)
#define FATBIN_HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define FATBIN_HOST_MACHINE EM_AARCH64
#else
#define FATBIN_HOST_MACHINE 0
#endif

static int fatbin_check_so(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                           const struct fatbin_ehdr *h, char *err, size_t errlen) {
  (void)d;
  (void)size;
  if (h->type != ET_DYN)
    return fatbin_error(err, errlen,
                        "fatbin: host object of module '%s' is not a shared object (e_type %u)",
                        e->module, h->type);
  return 0;
}

/* "<64 hex digits> <prefix>\n", the prefix a symbol's characters. */
static int fatbin_check_so_ref(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                               const struct fatbin_ehdr *h, char *err, size_t errlen) {
  (void)h;
  size_t hex = 2 * FATBIN_SHA256_SIZE, i = 0;
  while (i < hex && i < size && ((d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'f')))
    i++;
  int ok = i == hex && size > hex + 2 && size <= FATBIN_SO_REF_MAX_SIZE && d[hex] == ' ' &&
           d[size - 1] == '\n';
  for (i = hex + 1; ok && i + 1 < size; i++)
    ok = (d[i] >= '0' && d[i] <= '9') || (d[i] >= 'a' && d[i] <= 'z') ||
         (d[i] >= 'A' && d[i] <= 'Z') || d[i] == '_' || d[i] == '.';
  if (!ok)
    return fatbin_error(err, errlen, "fatbin: host library reference of module '%s' is malformed",
                        e->module);
  return 0;
}

static const struct fatbin_format_row fatbin_host_formats[] = {
    {FATBIN_FORMAT_SO, "so", 0, "this machine's", FATBIN_HOST_MACHINE, fatbin_check_so},
    {FATBIN_FORMAT_SO_LIB, "solib", 0, "this machine's", FATBIN_HOST_MACHINE, fatbin_check_so},
    {FATBIN_FORMAT_SO_REF, "soref", 0, NULL, 0, fatbin_check_so_ref},
};

const struct fatbin_vendor_row fatbin_vendor_host = {
    FATBIN_VENDOR_HOST, "host", fatbin_host_formats,
    sizeof fatbin_host_formats / sizeof fatbin_host_formats[0]};
