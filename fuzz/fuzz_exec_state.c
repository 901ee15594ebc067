/* fuzz_exec_state: libFuzzer target for the state file loader of
 * `irqsim exhaust --executions --state` (tools/execstate.c and
 * tools/execcmd.c, linked in): the input is a state file of depth 1 (490
 * workloads); a file that resumes runs at most one workload
 * (--stop-after 1). Any input must be resumed (exit 0, 1, or 5 when the
 * resumed run stops short of its bound) or refused (exit 2) without
 * a memory error or a hang. The run's summary goes to /dev/null. */
#define _GNU_SOURCE /* mkdtemp */

#include <stddef.h>
#include <stdint.h>

#include "execcmd.h"
#include "state_file.h"
#include "stop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_exec_state-XXXXXX";
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    state_file_write(dir, path, sizeof path, data, size);
    /* as tools/irqsim.c calls it: argv[0] is the command's name */
    char *argv[] = {"exhaust", "--executions", "--depth", "1", "--quiet", "--stop-after", "1", "--state", path, NULL};
    int rc = exec_main(9, argv);
    /* 0, 1, 2, or 5: a run stopped by --stop-after before the end of the
     * bound is incomplete (check/stop.h's RUN_INCOMPLETE) */
    if (rc < 0 || (rc > 2 && rc != RUN_INCOMPLETE))
        __builtin_trap();
    return 0;
}
