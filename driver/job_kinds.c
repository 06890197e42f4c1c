/* job_kinds.c: every kind of job, in one list (-cc1 finds its jobs here);
 * each kind's row is its job_*.c file. */
#include "job.h"

#include <stddef.h>

const struct job_kind *const job_kinds[] = {&job_normalize, &job_device, &job_tool, &job_bundle,
                                            &job_pack,      &job_host,   &job_fetch, &job_link,
                                            NULL};
