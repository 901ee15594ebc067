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

/* The default of the node line's vspace key: what a switch to the current
 * thread installs (vspace_after_switch), the global vspace (KS_NONE) when
 * the current thread is not a thread of the state. */
int scen_vspace_default(const struct kstate *ks);

/* The scheduler action as text: "resume", "choose" or a thread name. */
const char *ks_action_name(const struct kstate *ks, int action, char *buf, size_t len);

#endif
