/* fatbin_test_vendor.c: the fat binary's side of the test-only backend
 * (backend_test.c): one more vendor row, with an id and a format id of its
 * own, and the vendor list with it added. Linked, in place of
 * fatbin/fatbin_vendors.c, into the test's program (which writes archives)
 * and its runtime (which reads them): adding a vendor to the format is this
 * row and one line in the list. */
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

static const struct fatbin_format_row test_formats[] = {
    {TEST_FORMAT, "testobj", 0, NULL, 0, test_check},
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
