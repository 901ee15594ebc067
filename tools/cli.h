/*
 * cli: what every irqsim command says alike on its command line: the board
 * list its errors give. (The files commands write, and the "# " comment
 * block a reproducer carries its verdict in: check/out.h.)
 */
#ifndef IRQSIM_CLI_H
#define IRQSIM_CLI_H

#include <stddef.h>
#include <stdio.h>

/* "imx8mm imx8mq ... qemu-arm-virt3": every preset of sim/config.c, the
 * boards --board takes, into buf. */
const char *cli_boards(char *buf, size_t len);

#endif
