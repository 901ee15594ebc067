/* rk_fault: a signal of a loaded kernel's code ends its entry as a halt. */
#define _GNU_SOURCE
#include "rk_fault.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <sys/time.h>
#include <elf.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include <unistd.h>

/* The signals a wrong pointer or operand raises in the faulting code
 * itself. */
static const int fault_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL};
#define N_FAULT_SIGNALS (sizeof fault_signals / sizeof fault_signals[0])

/* A signal handler reaches irqsim only through globals: the entry running
 * (NULL outside one) and the handlers it displaced, to pass signals on. */
static volatile rk_fault_fn fault_target;
/* where the last entry's signal was raised: the object (dladdr's) and the
 * program counter's offset in it; no object when it raised none */
static const char *fault_object;
static uintptr_t fault_offset, fault_base;
static struct sigaction fault_prev[N_FAULT_SIGNALS];
static int fault_installed;
/* the watchdog: entries begun, the count a tick last saw, and the ticks
 * (seconds of CPU time) it has seen the same entry running */
static volatile unsigned long fault_entries;
static unsigned long tick_entries;
static unsigned tick_count, hang_ticks;
/* the timer is armed in this process (a child of fork has none: unset
 * there by child_rearm) */
static int timer_armed;
/* a stack of its own, so that a kernel that overran the host stack is
 * still caught */
static char fault_stack[1 << 16];

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV: return "SIGSEGV (an invalid memory access)";
    case SIGBUS: return "SIGBUS (a misaligned or invalid access)";
    case SIGFPE: return "SIGFPE (an arithmetic fault, e.g. a division by zero)";
    default: return "SIGILL (an illegal instruction, e.g. a __builtin_trap or unreachable code reached)";
    }
}

/* The function of a place ("NAME+0xOFF", or the unnamed place's words)
 * alone in fn, the whole place in at: the first line of a halt's text
 * names the function only (review groups halts by that line, and a loop
 * is caught anywhere in its body), the second the offset. */
static void place_parts(char *fn, size_t fn_n, char *at, size_t at_n)
{
    if (!rk_fault_where(at, at_n)) {
        snprintf(fn, fn_n, "an unknown place");
        snprintf(at, at_n, "an unknown place");
        return;
    }
    size_t k = strcspn(at, "+");
    snprintf(fn, fn_n, "%.*s", (int)(at[k] ? k : strlen(at)), at);
}

void rk_fault_text(char *buf, unsigned long n, int sig, const void *addr)
{
    char fn[160], at[700];
    place_parts(fn, sizeof fn, at, sizeof at);
    snprintf(buf, n,
             "hk: KERNEL FAULT in %s: the kernel's code raised %s; the entry is ended there (on the board, a "
             "kernel-mode fault)\nhk: at %s, accessing address 0x%lx\n",
             fn, signal_name(sig), at, (unsigned long)(uintptr_t)addr);
}

static const void *pc_of(void *ucontext)
{
    const ucontext_t *uc = ucontext;
#if defined(__x86_64__)
    return (const void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
    return (const void *)uc->uc_mcontext.pc;
#else
    (void)uc;
    return NULL;
#endif
}

/* where the interrupted code was: its object and offset (rk_fault_where) */
static void note_place(void *uc)
{
    Dl_info di;
    const void *pc = pc_of(uc);
    if (pc && dladdr(pc, &di) && di.dli_fname) {
        fault_object = di.dli_fname;
        fault_base = (uintptr_t)di.dli_fbase;
        fault_offset = (uintptr_t)pc - fault_base;
    }
}

/* pass a signal on to the handler it displaced: the default action (or an
 * ignore) is reinstated and the faulting instruction runs again; a signal
 * another process sent (si_code SI_USER or below) is raised again, since
 * no instruction would repeat it */
static void pass_on(int i, int sig, siginfo_t *si, void *uc)
{
    const struct sigaction *p = &fault_prev[i];
    if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
        p->sa_sigaction(sig, si, uc);
        return;
    }
    if (p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
        p->sa_handler(sig);
        return;
    }
    sigaction(sig, p, NULL);
    if (si->si_code <= 0)
        raise(sig);
}

static void on_fault(int sig, siginfo_t *si, void *uc)
{
    unsigned i = 0;
    while (i < N_FAULT_SIGNALS - 1 && fault_signals[i] != sig)
        i++;
    rk_fault_fn f = fault_target;
    if (!f) {
        pass_on((int)i, sig, si, uc);
        return;
    }
    fault_target = NULL;
    note_place(uc);
    /* snprintf and dladdr are not async-signal-safe in general; here the
     * signal came from the kernel's code, which holds no libc lock */
    char text[1200];
    rk_fault_text(text, sizeof text, sig, si->si_addr);
    f(text); /* does not return: the entry's own exit (a longjmp) */
}

/* SIGVTALRM, each second of the process's CPU time: an entry still
 * running after hang_ticks of them is ended (the kernel's code loops) */
static void on_tick(int sig, siginfo_t *si, void *uc)
{
    (void)sig, (void)si;
    rk_fault_fn f = fault_target;
    if (!f || fault_entries != tick_entries) {
        tick_entries = fault_entries;
        tick_count = 0;
        return;
    }
    if (++tick_count < hang_ticks)
        return;
    fault_target = NULL;
    note_place(uc);
    char text[1200], fn[160], at[700];
    place_parts(fn, sizeof fn, at, sizeof at);
    snprintf(text, sizeof text,
             "hk: KERNEL HANG in %s: the entry ran at least %u s of CPU time without returning (an endless loop in "
             "the kernel's code?); the entry is ended there (IRQSIM_HANG_SECONDS sets the limit)\nhk: at %s\n",
             fn, hang_ticks, at);
    f(text);
}

/* IRQSIM_HANG_SECONDS, 5 by default: an entry takes microseconds */
static unsigned hang_limit(void)
{
    const char *v = getenv("IRQSIM_HANG_SECONDS");
    char *end;
    unsigned long n = v ? strtoul(v, &end, 10) : 0;
    return v && *v && !*end && n > 0 && n <= 3600 ? (unsigned)n : 5;
}

/* pthread.h cannot be included here: it includes <sched.h>, which the
 * model's sim/sched.h shadows on this target's include path. POSIX's
 * prototype; glibc has it in libc. */
int pthread_atfork(void (*prepare)(void), void (*parent)(void), void (*child)(void));

/* a child of fork (review's builds, the jobs) has no interval timer: it
 * arms its own at its first entry */
static void child_rearm(void)
{
    timer_armed = 0;
}

static void arm_timer(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_tick;
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGVTALRM, &sa, NULL);
    struct itimerval it = {.it_interval = {1, 0}, .it_value = {1, 0}};
    setitimer(ITIMER_VIRTUAL, &it, NULL);
    timer_armed = 1;
}

static void install(void)
{
    hang_ticks = hang_limit();
    pthread_atfork(NULL, NULL, child_rearm);
    stack_t ss = {.ss_sp = fault_stack, .ss_size = sizeof fault_stack, .ss_flags = 0};
    sigaltstack(&ss, NULL);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    /* SA_NODEFER: the handler leaves by a longjmp, with nothing to unblock */
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (unsigned i = 0; i < N_FAULT_SIGNALS; i++)
        sigaction(fault_signals[i], &sa, &fault_prev[i]);
    fault_installed = 1;
}

void rk_fault_enter(rk_fault_fn f)
{
    if (!fault_installed)
        install();
    if (!timer_armed)
        arm_timer();
    fault_object = NULL;
    fault_entries++;
    fault_target = f;
}

/* the STT_FUNC symbol of fd's .symtab that holds offset off of the
 * object loaded at base: its name in name and its start (an offset) in
 * *start; 0 when found */
static int symtab_lookup(int fd, uintptr_t off, uintptr_t base, char *name, size_t n, uintptr_t *start)
{
    Elf64_Ehdr eh;
    if (pread(fd, &eh, sizeof eh, 0) != (ssize_t)sizeof eh || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
        eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr))
        return -1;
    /* a position-dependent executable's symbols are absolute addresses */
    uintptr_t shift = eh.e_type == ET_EXEC ? base : 0;
    off += shift;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh, str;
        if (pread(fd, &sh, sizeof sh, (off_t)(eh.e_shoff + i * sizeof sh)) != (ssize_t)sizeof sh)
            return -1;
        if (sh.sh_type != SHT_SYMTAB || sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh.e_shnum ||
            pread(fd, &str, sizeof str, (off_t)(eh.e_shoff + sh.sh_link * sizeof str)) != (ssize_t)sizeof str)
            continue;
        for (uint64_t j = 0; j < sh.sh_size / sizeof(Elf64_Sym); j++) {
            Elf64_Sym sym;
            if (pread(fd, &sym, sizeof sym, (off_t)(sh.sh_offset + j * sizeof sym)) != (ssize_t)sizeof sym)
                return -1;
            if (ELF64_ST_TYPE(sym.st_info) != STT_FUNC || off < sym.st_value || off >= sym.st_value + sym.st_size ||
                sym.st_name >= str.sh_size)
                continue;
            ssize_t got = pread(fd, name, n - 1, (off_t)(str.sh_offset + sym.st_name));
            if (got <= 0)
                return -1;
            name[got] = '\0';
            *start = sym.st_value - shift;
            return 0;
        }
    }
    return -1;
}

int rk_fault_where(char *buf, unsigned long n)
{
    if (!fault_object)
        return 0;
    /* one entry remembered: a bug faults at one place, entry after entry */
    static char last_object[512], last_name[128];
    static uintptr_t last_offset, last_start;
    static int last_found = -1;
    if (last_found < 0 || last_offset != fault_offset || strcmp(last_object, fault_object) != 0) {
        snprintf(last_object, sizeof last_object, "%s", fault_object);
        last_offset = fault_offset;
        int fd = open(fault_object, O_RDONLY);
        last_found = fd >= 0 && symtab_lookup(fd, fault_offset, fault_base, last_name, sizeof last_name, &last_start) == 0;
        if (fd >= 0)
            close(fd);
    }
    if (last_found)
        snprintf(buf, n, "%s+0x%lx", last_name, (unsigned long)(fault_offset - last_start));
    else
        snprintf(buf, n, "an unnamed place at offset 0x%lx of %s", (unsigned long)fault_offset, fault_object);
    return 1;
}

void rk_fault_leave(void)
{
    fault_target = NULL;
}
