/*
 * cli: what every irqsim command says alike on its command line and in the
 * files it writes: the board list its errors give, and the "# " comment
 * block a reproducer carries its verdict in.
 */
#ifndef IRQSIM_CLI_H
#define IRQSIM_CLI_H

#include <stddef.h>
#include <stdio.h>

/* "imx8mm imx8mq ... qemu-arm-virt3": every preset of sim/config.c, the
 * boards --board takes, into buf. */
const char *cli_boards(char *buf, size_t len);
/* Write text into f with every line prefixed by "# " (a report on top of
 * a reproducer, which the readers skip as comments). */
void cli_commented(FILE *f, const char *text);

#endif
