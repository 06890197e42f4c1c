/* test_vendor.h: the ids of the test-only vendor and its formats
 * (fatbin_test_vendor.c, backend_test.c, and the compiler's test kind,
 * tests/driver/dummy_target.c): beyond every id fatbin.h names, as a new
 * vendor's would be. */
#ifndef GPUCC_TEST_VENDOR_H
#define GPUCC_TEST_VENDOR_H

#include "fatbin.h"

#define TEST_VENDOR ((enum fatbin_vendor)(FATBIN_VENDOR_VULKAN + 1))
/* "testobj": the text "TESTOBJ:<target>", made by hand in runtime tests. */
#define TEST_FORMAT ((enum fatbin_format)(FATBIN_FORMAT_SPIRV + 1))
/* "testso": a shared object for this machine from the test kind, whose
 * kernels the test backend calls one thread after another. */
#define TEST_FORMAT_SO ((enum fatbin_format)(FATBIN_FORMAT_SPIRV + 2))

#endif
