/* test_vendor.h: the ids of the test-only vendor and its one format
 * (fatbin_test_vendor.c, backend_test.c): beyond every id fatbin.h names,
 * as a new vendor's would be. */
#ifndef GPUCC_TEST_VENDOR_H
#define GPUCC_TEST_VENDOR_H

#include "fatbin.h"

#define TEST_VENDOR ((enum fatbin_vendor)3)
#define TEST_FORMAT ((enum fatbin_format)6)

#endif
