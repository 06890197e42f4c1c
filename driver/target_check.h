/* target_check.h: refusing, before any job, what a target cannot compile. */
#ifndef GPUCC_TARGET_CHECK_H
#define GPUCC_TARGET_CHECK_H

#include "program.h"
#include "targets.h"

#include <stddef.h>

/* Asks each of the n targets about every distinct op of p's device code
 * (targets.h: op_requirement). Returns 0 when all can compile all, else -1
 * after one located error per op that some target cannot compile. */
int target_check_program(const struct program *p, const struct target *targets, size_t n);

#endif
