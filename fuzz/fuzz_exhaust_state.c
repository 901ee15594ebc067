/* fuzz_exhaust_state: libFuzzer target for the state file loader of
 * `irqsim exhaust --state` (tools/exhaustcmd.c, linked in): the input is a
 * state file of the smallest useful bound (threads 1, refills 1, domains
 * 1: 5,180 states, so the loader's walk and the one state checked after a
 * resume stay fast). Any input must be resumed or refused (exit 2)
 * without a memory error or a hang. The run's summary goes to /dev/null. */
#define _GNU_SOURCE /* mkdtemp */

#include <stddef.h>
#include <stdint.h>

#include "exhaustcmd.h"
#include "state_file.h"

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
    if (rc < 0 || rc > 2)
        __builtin_trap();
    return 0;
}
