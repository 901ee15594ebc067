/*
 * print: writes a kernel state as a scenario file (docs/scenario-format.md):
 * one line per object, objects named, fields that differ from their
 * defaults only. The same text is what a reviewer reads and what
 * scenario_parse() reads back into an identical state.
 */
#ifndef IRQSIM_PRINT_H
#define IRQSIM_PRINT_H

#include <stdio.h>

#include "kstate.h"

void ks_print(FILE *out, const struct kstate *ks);

/* The scheduler action as text: "resume", "choose" or a thread name. */
const char *ks_action_name(const struct kstate *ks, int action, char *buf, size_t len);

#endif
