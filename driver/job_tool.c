/* job_tool.c: jobs that are a tool's command (ptxas, cc -shared, cc -c,
 * ld -r) and the link, which runs last; see job.h. They print as their
 * command, which is how they are rerun. */
#include "job.h"

#include "proc.h"

#include <stdio.h>
#include <string.h>

static int run_tool(struct plan *p, struct job *j) {
  (void)p;
  return spawn_run(j->argv, NULL, j->what);
}

static void describe_tool(FILE *out, const struct plan *p, const struct job *j) {
  (void)p;
  spawn_print(out, j->argv);
}

/* A tool's -ftime-report row is its name ("ptxas", "cc -shared", "ld -r"). */
static void about_tool(const struct plan *p, const struct job *j, struct job_about *a) {
  (void)p;
  a->doing = "running";
  snprintf(a->subject, sizeof a->subject, "%s", j->what);
  snprintf(a->row_name, sizeof a->row_name, "%.*s", (int)strcspn(j->what, ":"), j->what);
  a->row = a->row_name;
  a->target = j->target_id;
  snprintf(a->label, sizeof a->label, "%s", j->what);
}

static void about_link(const struct plan *p, const struct job *j, struct job_about *a) {
  about_tool(p, j, a);
  a->row = "link";
}

const struct job_kind job_tool = {
    .name = "tool",
    .spawned = 1,
    .run = run_tool,
    .describe = describe_tool,
    .about = about_tool,
};

const struct job_kind job_link = {
    .name = "link",
    .spawned = 1,
    .run = run_tool,
    .describe = describe_tool,
    .about = about_link,
};
