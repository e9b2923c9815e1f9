# SPDX-License-Identifier: GPL-3.0-or-later
"""rwcheck — the checks of the Python tests (tests/test-*.py): a failed
check prints its message and the test goes on; finish() reports the count
and gives the exit status (0 all held, 1 any failed)."""
import sys

failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what, file=sys.stderr)


def finish():
    if failures:
        print("%d of %d checks failed" % (failures, checks), file=sys.stderr)
        return 1
    print("all %d checks passed" % checks)
    return 0


def communicate_or_kill(p, what, timeout=60):
    """(stdout, stderr) of the subprocess.Popen p once it exits; a p still
    running after timeout seconds is killed and counted as a failure."""
    import subprocess
    try:
        return p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out = p.communicate()
        check(False, "%s: still running after %g s" % (what, timeout))
        return out
