/* target_rows.h: the kinds of target this gpucc has, by name, for the
 * lists that order them (target_list.c, a test build's own list) and for
 * their own files. Nothing else names a kind: what differs between them
 * is in their rows. */
#ifndef GPUCC_TARGET_ROWS_H
#define GPUCC_TARGET_ROWS_H

#include "targets.h"

extern const struct target_kind target_kind_nvidia;
extern const struct target_kind target_kind_amd;
extern const struct target_kind target_kind_host;
extern const struct target_kind target_kind_spirv;

#endif
