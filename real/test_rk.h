/*
 * test_rk: the check macro of the real/ unit tests (test_rk_*.c), which
 * need no kernel and no cmocka: each failed check is printed with its
 * place and counted in rk_test_failures; main returns whether any failed.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#ifndef IRQSIM_TEST_RK_H
#define IRQSIM_TEST_RK_H

#include <stdio.h>

static int rk_test_failures;

#define CHECK(c)                                                                  \
    do {                                                                          \
        if (!(c)) {                                                               \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
            rk_test_failures++;                                                   \
        }                                                                         \
    } while (0)

#endif
