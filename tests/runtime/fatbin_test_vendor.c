/* fatbin_test_vendor.c: the fat binary's side of the test-only vendor (its
 * backend backend_test.c, its compiler kind tests/driver/dummy_target.c):
 * one more vendor row, with an id and format ids of its own, and the vendor
 * list with it added. Linked, in place of fatbin/fatbin_vendors.c, into
 * the tests' programs and the test build of gpucc-fatbin, the test runtime
 * (which reads archives) and the test build of gpucc (which writes them):
 * adding a vendor to the format is this row and one line in the list. */
#include <elf.h>
#include <string.h>

#include "fatbin_private.h"
#include "test_vendor.h"

/* A test object is the text "TESTOBJ:<target>" and its NUL. */
static int test_check(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                      const struct fatbin_ehdr *h, char *err, size_t errlen) {
  (void)h;
  size_t n = strlen(e->target);
  if (size != 8 + n + 1 || memcmp(d, "TESTOBJ:", 8) != 0 || memcmp(d + 8, e->target, n) != 0 ||
      d[size - 1] != '\0')
    return fatbin_error(err, errlen, "fatbin: test object of module '%s' is not for %s",
                        e->module, e->target);
  return 0;
}

/* A test shared object: for this machine (the shared check reads the
 * machine), and a shared object. */
#if defined(__x86_64__)
#define TEST_SO_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define TEST_SO_MACHINE EM_AARCH64
#else
#define TEST_SO_MACHINE 0
#endif

static int test_check_so(const struct fatbin_entry *e, const unsigned char *d, size_t size,
                         const struct fatbin_ehdr *h, char *err, size_t errlen) {
  (void)d, (void)size;
  if (h->type != ET_DYN)
    return fatbin_error(err, errlen, "fatbin: test object of module '%s' is not a shared object",
                        e->module);
  return 0;
}

static const struct fatbin_format_row test_formats[] = {
    {TEST_FORMAT, "testobj", 0, NULL, 0, test_check},
    {TEST_FORMAT_SO, "testso", 0, "this machine's", TEST_SO_MACHINE, test_check_so},
};

static const struct fatbin_vendor_row fatbin_vendor_test = {
    TEST_VENDOR, "testvendor", test_formats, sizeof test_formats / sizeof test_formats[0]};

const struct fatbin_vendor_row *const fatbin_vendors[] = {
    &fatbin_vendor_nvidia,
    &fatbin_vendor_amd,
    &fatbin_vendor_host,
    &fatbin_vendor_test,
    NULL,
};
