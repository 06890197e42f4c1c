/* last_words.c: see last_words.h. */
#include "last_words.h"

#include <signal.h>

/* Written before any exit path can read them (at init or before a child is
 * started); sig_atomic_t-sized reads are not needed for function pointers
 * that are set once and never cleared. */
static void (*hooks[LAST_STEPS])(enum last_how);

void last_words_set(enum last_step step, void (*hook)(enum last_how how)) {
  if (step < LAST_STEPS)
    hooks[step] = hook;
}

void last_words_run(enum last_how how) {
  for (int s = 0; s < LAST_STEPS; s++)
    if (hooks[s])
      hooks[s](how);
}
