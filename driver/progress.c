/* progress.c: the status line; see progress.h. Each update is one write of
 * "\r<text>\033[K": back to the start of the line, the new text, the rest
 * of the old one erased. The text is cut to the terminal's width, since a
 * line that wraps cannot be rewritten with \r. */
#include "progress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

static int enabled;
static int shown;      /* a status line is on the terminal now */
static char line[512]; /* the text last shown, for progress_restore */

void progress_init(int wanted) {
  const char *term = getenv("TERM");
  enabled = wanted && isatty(2) && !(term && !strcmp(term, "dumb"));
}

static size_t width(void) {
  struct winsize ws;
  if (ioctl(2, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 1)
    return ws.ws_col - 1; /* the cursor's column too: no wrap at the end */
  return 79;
}

static void draw(void) {
  char buf[sizeof line + 8];
  size_t n = strlen(line), w = width();
  if (n > w)
    n = w;
  int len = snprintf(buf, sizeof buf, "\r%.*s\033[K", (int)n, line);
  fwrite(buf, 1, (size_t)len, stderr);
  fflush(stderr);
  shown = 1;
}

void progress_show(size_t done, size_t total, const char *what) {
  if (!enabled)
    return;
  snprintf(line, sizeof line, "[%zu/%zu] %s", done, total, what);
  /* A job's name on one line: newlines and tabs shown as spaces. */
  for (char *c = line; *c; c++)
    if (*c == '\n' || *c == '\t' || *c == '\r')
      *c = ' ';
  draw();
}

void progress_hide(void) {
  if (!enabled || !shown)
    return;
  fputs("\r\033[K", stderr);
  fflush(stderr);
  shown = 0;
}

void progress_restore(void) {
  if (enabled && !shown && line[0])
    draw();
}

void progress_end(void) {
  progress_hide();
  line[0] = '\0';
}
