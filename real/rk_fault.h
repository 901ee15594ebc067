/*
 * rk_fault: a host signal raised by a loaded kernel's own code during an
 * entry (a NULL or wild pointer, a misaligned access, a division by zero,
 * an undefined instruction) ends that entry as a halt whose text names the
 * signal, the address and the nearest symbol, instead of killing irqsim:
 * a tree a developer brings may have such a bug (seL4's d26f1ff4d fixed a
 * NULL dereference in invokeVCPUInjectIRQ). Outside an entry a signal goes
 * to whoever handled it before (AddressSanitizer's handler, or the default
 * action), so irqsim's own bugs still crash loudly. An entry still running
 * after IRQSIM_HANG_SECONDS (5 by default) of CPU time is ended the same
 * way, as a hang (a watchdog on SIGVTALRM, armed at the first entry; an
 * entry takes microseconds). The real kernel runs on one thread.
 */
#ifndef IRQSIM_RK_FAULT_H
#define IRQSIM_RK_FAULT_H

/* What ends the entry: the loaded kernel's hk_fault (hostkernel.h). */
typedef void (*rk_fault_fn)(const char *text);

/* Around one call into a loaded kernel: signals from here to
 * rk_fault_leave go to f with a text; the handlers are installed on the
 * first call. */
void rk_fault_enter(rk_fault_fn f);
void rk_fault_leave(void);

/* After rk_fault_leave: when the entry ended by a signal or a hang, the function
 * of the loaded kernel it was raised in, from the object's symbol table
 * (its static functions are not in the dynamic one), as "NAME+0xOFF" in
 * buf; returns 1, or 0 when the entry raised none (buf untouched). */
int rk_fault_where(char *buf, unsigned long n);

/* The text rk_fault_enter's handler gives f, for a signal sig at address
 * addr, the place rk_fault_where gives in it. */
void rk_fault_text(char *buf, unsigned long n, int sig, const void *addr);

#endif
