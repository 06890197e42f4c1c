/* target_list.c: the kinds of target this gpucc knows, in the order their
 * chips are listed. Adding a vendor is adding its kind file and a line
 * here. Kept apart so that a test can link gpucc with a list of its own. */
#include "target_rows.h"

#include <stddef.h>

const struct target_kind *const target_kinds[] = {&target_kind_nvidia, &target_kind_amd,
                                                  &target_kind_host, &target_kind_spirv, NULL};
