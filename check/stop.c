/* stop: SIGINT and SIGTERM stop a long run cleanly (stop.h). */
#define _POSIX_C_SOURCE 200809L
#include "stop.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

/* The one global outside the kernel state: a signal handler can tell the
 * run nothing else (it may only set a volatile sig_atomic_t). */
static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
    stop_sig = sig;
}

static void catch_one(int sig)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == SIG_IGN)
        return;
    sigaction(sig, &sa, NULL);
}

void stop_catch(void)
{
    stop_sig = 0;
    catch_one(SIGINT);
    catch_one(SIGTERM);
}

int stop_requested(void)
{
    return stop_sig;
}

const char *stop_name(int sig)
{
    return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal";
}

static void release_one(int sig)
{
    struct sigaction old;
    if (sigaction(sig, NULL, &old) == 0 && old.sa_handler == on_signal)
        signal(sig, SIG_DFL);
}

int stop_finish(int rc)
{
    release_one(SIGINT);
    release_one(SIGTERM);
    return rc;
}

int stop_exit(int rc)
{
    int sig = stop_sig;
    if (!sig || (rc > 1 && rc != RUN_INCOMPLETE))
        return rc;
    fflush(NULL); /* ending by a signal flushes no stdio buffer */
    raise(sig);
    return 128 + sig; /* not reached unless the signal is blocked */
}
