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
