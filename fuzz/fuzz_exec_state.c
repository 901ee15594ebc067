/* fuzz_exec_state: libFuzzer target for the state file loader of
 * `irqsim exhaust --executions --state` (tools/execstate.c and
 * tools/execcmd.c, linked in): the input is a state file of depth 1 (490
 * workloads); a file that resumes runs at most one workload
 * (--stop-after 1). Any input must be resumed or refused (exit 2) without
 * a memory error or a hang. The run's summary goes to /dev/null. */
#define _GNU_SOURCE /* mkdtemp */

#include <stddef.h>
#include <stdint.h>

#include "execcmd.h"
#include "state_file.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[] = "/tmp/fuzz_exec_state-XXXXXX";
static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    state_file_write(dir, path, sizeof path, data, size);
    /* as tools/irqsim.c calls it: argv[0] is the command's name */
    char *argv[] = {"exhaust", "--executions", "--depth", "1", "--quiet", "--stop-after", "1", "--state", path, NULL};
    int rc = exec_main(9, argv);
    if (rc < 0 || rc > 2)
        __builtin_trap();
    return 0;
}
