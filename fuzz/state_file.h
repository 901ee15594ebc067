/* state_file.h: what the state-file fuzz targets share (fuzz_exhaust_state.c,
 * fuzz_exec_state.c): the input written to a file in a private directory
 * the command reads as its --state, the command's summary to /dev/null
 * (stderr keeps sanitizer reports). Header-only: each target is one file
 * for libFuzzer, AFL++ and the replay driver alike. */
#ifndef IRQSIM_FUZZ_STATE_FILE_H
#define IRQSIM_FUZZ_STATE_FILE_H

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* dir: a mkdtemp template the target owns; path: where the input goes */
static void state_file_setup(char *dir, char *path, size_t len)
{
    int null = open("/dev/null", O_WRONLY);
    if (!mkdtemp(dir) || null < 0 || dup2(null, 1) < 0)
        __builtin_trap();
    close(null);
    snprintf(path, len, "%s/state", dir);
}

/* the input as the state file (set up on the first call) */
static void state_file_write(char *dir, char *path, size_t len, const uint8_t *data, size_t size)
{
    if (!path[0])
        state_file_setup(dir, path, len);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
        __builtin_trap();
}

#endif
