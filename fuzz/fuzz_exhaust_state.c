/* fuzz_exhaust_state: libFuzzer target for the state file loader of
 * `irqsim exhaust --state` (tools/exhaustcmd.c, linked in): the input is a
 * state file of the smallest useful bound (threads 1, refills 1, domains
 * 1: 5,180 states, so the loader's walk and the one state checked after a
 * resume stay fast). Any input must be resumed (exit 0, 1, or 5 when the
 * resumed run stops short of its bound) or refused (exit 2)
 * without a memory error or a hang. The run's summary goes to /dev/null. */
#define _GNU_SOURCE /* mkdtemp */

#include <stddef.h>
#include <stdint.h>

#include "exhaustcmd.h"
#include "state_file.h"
#include "stop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_exhaust_state-XXXXXX";
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    state_file_write(dir, path, sizeof path, data, size);
    /* as tools/irqsim.c calls it: argv[0] is the command's name */
    char *argv[] = {"exhaust", "--threads", "1", "--refills", "1", "--domains", "1",
                    "--quiet", "--stop-after", "1", "--state", path, NULL};
    int rc = exhaust_main(12, argv);
    /* 0, 1, 2, or 5: a run stopped by --stop-after before the end of the
     * bound is incomplete (check/stop.h's RUN_INCOMPLETE) */
    if (rc < 0 || (rc > 2 && rc != RUN_INCOMPLETE))
        __builtin_trap();
    return 0;
}
