/* kind_rows.c: what normalization knows of the target kinds, as the
 * driver gives it from their rows (frontend.h, struct frontend_kind_row).
 * The frontend sits below the kinds and names none of them. */
#include "frontend.h"

#include "diag.h"

static struct frontend_kind_row rows[FRONTEND_MAX_KIND_ROWS];
static size_t nrows;

void frontend_set_kind_rows(const struct frontend_kind_row *given, size_t n) {
  if (n > FRONTEND_MAX_KIND_ROWS)
    BUG("more target kinds than FRONTEND_MAX_KIND_ROWS");
  for (size_t i = 0; i < n; i++)
    rows[i] = given[i];
  nrows = n;
}

const struct frontend_kind_row *frontend_kind_rows(size_t *n) {
  *n = nrows;
  return rows;
}
