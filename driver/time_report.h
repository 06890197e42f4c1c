/* time_report.h: -ftime-report, where a run's time went.
 *
 * Each stage records its wall time and CPU time under a stage name and, for
 * work done per target, the target: parsing and normalizing, device code
 * per target, each finishing tool (ptxas, cc -shared) per target, cache
 * fetches, host code, bundling, the link. time_report_print writes one line
 * per (stage, target), in the order they first ran, with the number of
 * jobs, and the run's elapsed time: jobs run side by side, so their wall
 * times add up to more than that. */
#ifndef GPUCC_TIME_REPORT_H
#define GPUCC_TIME_REPORT_H

/* Starts the clock of the run; records nothing unless `on`. */
void time_report_init(int on);
int time_report_enabled(void);

/* CPU seconds (user and system) of gpucc itself, and of its children that
 * have ended and been waited for: the difference across one wait is that
 * job's, whatever it started in turn. */
double time_report_cpu_self(void);
double time_report_cpu_children(void);

/* Adds one job's (or stage's) times; target may be NULL. Copied. */
void time_report_add(const char *stage, const char *target, double wall, double cpu);

/* Writes the summary to stderr. */
void time_report_print(void);

#endif
