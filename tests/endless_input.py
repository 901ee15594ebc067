#!/usr/bin/env python3
"""endless_input.py IRQSIM WORKDIR: every reader of a file irqsim takes
bounds a line (or the file) before it holds it (issue 32 item 6).

Each command is given three inputs that never end a line: /dev/zero, a
300 MB sparse file (zeros, no newline, no disk used) and an endless
stream of 'x' on a pipe (as /dev/stdin). Each must exit 2 within 10 s
with its peak resident memory under 100 MB (os.wait4's ru_maxrss, the
sanitizer build's own overhead included: about 35 MB). Before the fix,
`exhaust --executions --state /dev/zero` took 833 MB in 10 s and was
still reading."""
import os
import signal
import subprocess
import sys
import time

LIMIT_S = 10
LIMIT_KB = 100 * 1024


def run(argv, feed):
    """argv's exit status, seconds and peak RSS (KB); feed: stdin is an
    endless stream of 'x' when true."""
    src = None
    stdin = subprocess.DEVNULL
    if feed:
        src = subprocess.Popen(["tr", "\\0", "x"], stdin=open("/dev/zero", "rb"), stdout=subprocess.PIPE)
        stdin = src.stdout
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if src:
        src.stdout.close()
    deadline = t0 + LIMIT_S
    while True:
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() > deadline:
            p.kill()
            pid, status, ru = os.wait4(p.pid, 0)
            break
        time.sleep(0.02)
    secs = time.monotonic() - t0
    err = p.stderr.read().decode(errors="replace").strip()
    if src:
        src.kill()
        src.wait()
    rc = os.waitstatus_to_exitcode(status)
    return rc, secs, ru.ru_maxrss, err


def main():
    irqsim, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    big = os.path.join(work, "big-no-newline")
    with open(big, "wb") as f:
        f.truncate(300 << 20)
    os.makedirs(os.path.join(work, "zero-build"), exist_ok=True)
    info = os.path.join(work, "zero-build", "kernel.info")
    if not os.path.lexists(info):
        os.symlink("/dev/zero", info)
    commands = [
        ["exhaust", "--executions", "--state"],
        ["exhaust", "--threads", "1", "--state"],
        ["replay"],
        ["sim"],
        ["check"],
        ["report"],
    ]
    fail = 0
    for cmd in commands:
        for name, path, feed in [("/dev/zero", "/dev/zero", False), ("300 MB, no newline", big, False),
                                 ("endless pipe", "/dev/stdin", True)]:
            rc, secs, kb, err = run([irqsim] + cmd + [path], feed)
            what = f"{' '.join(cmd)} on {name}: exit {rc}, {secs:.1f} s, {kb // 1024} MB"
            if rc == 2 and secs < LIMIT_S and kb < LIMIT_KB:
                print(f"ok   {what}: {err.splitlines()[-1] if err else ''}")
            else:
                print(f"FAIL {what} (exit 2 within {LIMIT_S} s and {LIMIT_KB // 1024} MB wanted)")
                fail = 1
    # a build folder whose kernel.info never ends a line (the --real commands)
    rc, secs, kb, err = run([irqsim, "validate", "--real", os.path.dirname(info)], False)
    what = f"validate --real with kernel.info /dev/zero: exit {rc}, {secs:.1f} s, {kb // 1024} MB"
    if rc == 2 and secs < LIMIT_S and kb < LIMIT_KB and "kernel.info:1:" in err:
        print(f"ok   {what}: {err}")
    else:
        print(f"FAIL {what}: {err}")
        fail = 1
    os.unlink(big)
    return fail


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main())
