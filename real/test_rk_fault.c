/*
 * test_rk_fault: rk_fault without a kernel: a signal raised between
 * rk_fault_enter and rk_fault_leave reaches the entry's exit with a text
 * naming the signal and the address, and rk_fault_where names the
 * function it was raised in (this program's own, from its symbol table);
 * outside an entry a signal goes to the handler installed before; an
 * entry that does not return is ended after the hang limit, in a child
 * of fork too.
 * SPDX-License-Identifier: BSD-2-Clause
 */
#define _GNU_SOURCE
#include "test_rk.h"
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rk_fault.h"

/* s begins with the string literal lit */
#define STARTS(s, lit) (strncmp((s), (lit), sizeof(lit) - 1) == 0)

static sigjmp_buf back;
static char seen[400];
static volatile int before_handler_ran;

/* the entry's exit (hk_fault's part): keep the text, leave */
static void exit_entry(const char *text)
{
    snprintf(seen, sizeof seen, "%s", text);
    siglongjmp(back, 1);
}

/* the faults themselves, not the sanitizers' reports of them (the
 * kernel's code is built without sanitizers) */
#define RAW __attribute__((noinline, no_sanitize("address", "undefined")))

/* a wild store below the first page */
RAW static void store_to_low_page(uintptr_t a)
{
    *(volatile int *)a = 1;
}

static volatile int quotient, divisor;

RAW static void divide(void)
{
    quotient = quotient / divisor;
}

/* an endless loop the compiler keeps */
RAW static void spin(void)
{
    for (;;)
        __asm__ volatile("");
}

static void before(int sig)
{
    (void)sig;
    before_handler_ran = 1;
    siglongjmp(back, 2);
}

int main(void)
{
    /* a handler of SIGSEGV before rk_fault's, which it must pass to */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = before;
    sa.sa_flags = SA_NODEFER;
    sigaction(SIGSEGV, &sa, NULL);

    setenv("IRQSIM_HANG_SECONDS", "1", 1);
    char where[200];
    CHECK(rk_fault_where(where, sizeof where) == 0); /* nothing raised yet */

    if (sigsetjmp(back, 0) == 0) {
        rk_fault_enter(exit_entry);
        store_to_low_page(0x18);
        CHECK(!"the store returned");
    }
    rk_fault_leave();
    CHECK(STARTS(seen, "hk: KERNEL FAULT in store_to_low_page: the kernel's code raised SIGSEGV"));
    CHECK(strstr(seen, "\nhk: at store_to_low_page+0x") && strstr(seen, "accessing address 0x18\n"));
    CHECK(rk_fault_where(where, sizeof where) == 1);
    CHECK(STARTS(where, "store_to_low_page+0x"));
    CHECK(!before_handler_ran);

    seen[0] = '\0';
    if (sigsetjmp(back, 0) == 0) {
        rk_fault_enter(exit_entry);
        quotient = 1;
        divisor = 0;
        divide();
        CHECK(!"the division returned");
    }
    rk_fault_leave();
    CHECK(STARTS(seen, "hk: KERNEL FAULT in divide: the kernel's code raised SIGFPE"));
    CHECK(rk_fault_where(where, sizeof where) == 1 && STARTS(where, "divide+0x"));

    /* an entry that raised nothing: no place */
    rk_fault_enter(exit_entry);
    rk_fault_leave();
    CHECK(rk_fault_where(where, sizeof where) == 0);

    /* an entry that does not return: ended after IRQSIM_HANG_SECONDS (1
     * here, set before the first entry) of CPU time, in spin */
    seen[0] = '\0';
    if (sigsetjmp(back, 0) == 0) {
        rk_fault_enter(exit_entry);
        spin();
    }
    rk_fault_leave();
    CHECK(STARTS(seen, "hk: KERNEL HANG in spin: the entry ran at least 1 s of CPU time"));
    CHECK(rk_fault_where(where, sizeof where) == 1 && STARTS(where, "spin+0x"));

    /* a child of fork has no interval timer of its parent's: its own is
     * armed at its first entry, and catches its hang */
    pid_t child = fork();
    if (child == 0) {
        seen[0] = '\0';
        if (sigsetjmp(back, 0) == 0) {
            rk_fault_enter(exit_entry);
            spin();
        }
        rk_fault_leave();
        _exit(strstr(seen, "KERNEL HANG") ? 0 : 1);
    }
    int status = -1;
    CHECK(child > 0 && waitpid(child, &status, 0) == child && WIFEXITED(status) && WEXITSTATUS(status) == 0);

    /* outside an entry: the handler installed before takes it */
    seen[0] = '\0';
    if (sigsetjmp(back, 0) == 0) {
        store_to_low_page(0x20);
        CHECK(!"the store returned");
    }
    CHECK(before_handler_ran && seen[0] == '\0');
    return rk_test_failures != 0;
}
