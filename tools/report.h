/*
 * report: `irqsim report RUN.json`, a fuzz run's JSON summary as a Markdown
 * review comment: each defect with its state, what each path does, the
 * consequence (check/defect.c), where and how often it showed, and its
 * smallest reproducer inline.
 */
#ifndef IRQSIM_REPORT_H
#define IRQSIM_REPORT_H

/* argv[1] is "report"; returns the exit status (0, or 2 on bad input). */
int report_main(int argc, char **argv);

#endif
