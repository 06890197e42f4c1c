/* op_site.c: the locations compiled code passes along with a gpu op; see
 * op_site.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "op_site.h"
#include "rt.h"

static _Thread_local const char *rt_site;

RT_EXPORT void gpuccOpSite(const char *where) { rt_site = where; }

const char *rt_op_site_take(void) {
  const char *where = rt_site;
  rt_site = NULL;
  return where;
}

RT_EXPORT void gpuccAllocSizeFailed(const char *where, const char *op, int64_t elementBytes,
                                    int64_t *allocated, int64_t *sizes, int64_t offset,
                                    int64_t rank, int64_t stride) {
  (void)allocated;
  char what[1024] = "";
  int negative = 0;
  for (int64_t i = 0; i < rank; i++) {
    int64_t size = sizes[offset + i * stride];
    negative |= size < 0;
    rt_appendf(what, sizeof what, "%" PRId64 " x ", size);
  }
  rt_appendf(what, sizeof what, "%" PRId64 " bytes", elementBytes);
  rt_error("%s%s%s of %s size (%s)", where ? where : "", where ? ": " : "", op ? op : "allocation",
           negative ? "a negative" : "an overflowing", what);
  exit(1);
}
