/*
 * reportreal: `irqsim report` of the JSON of a real-kernel run (`fuzz
 * --real`, `validate --real`) and of `irqsim review`, as Markdown review
 * comments (report.c reads the file and dispatches on "command").
 */
#ifndef IRQSIM_REPORTREAL_H
#define IRQSIM_REPORTREAL_H

#include <stdio.h>

#include "jval.h"

/* 0, or -1 with the message on stderr naming the file and what is wrong. */
int report_real_run(FILE *out, const struct jval_doc *jd, const char *json_path, const struct jval *run);
int report_review(FILE *out, const struct jval_doc *jd, const char *json_path, const struct jval *run);

#endif
