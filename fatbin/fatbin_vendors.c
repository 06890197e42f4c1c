/* fatbin_vendors.c: the vendors whose objects an archive may hold, one row
 * each (fatbin_private.h says what a row holds). Adding a vendor is adding
 * its row file and a line here. Kept apart so that a test can link the
 * library with a list of its own. */
#include "fatbin_private.h"

const struct fatbin_vendor_row *const fatbin_vendors[] = {
    &fatbin_vendor_nvidia,
    &fatbin_vendor_amd,
    &fatbin_vendor_host,
    &fatbin_vendor_vulkan,
    NULL,
};
