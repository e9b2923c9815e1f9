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


def run_cli(args, timeout=900):
    """(exit status, stdout, stderr) of `roomwave-cli ARGS` (ROOMWAVE_CLI);
    a failing command is echoed to stderr with its output."""
    import os
    import subprocess
    p = subprocess.run([os.environ["ROOMWAVE_CLI"]] + args, capture_output=True, text=True,
                       timeout=timeout)
    if p.returncode != 0:
        print("$ roomwave-cli " + " ".join(args) + "\n" + p.stdout + p.stderr, file=sys.stderr)
    return p.returncode, p.stdout, p.stderr


def read_float_wav(path):
    """(rate, channels, [channel][frame]) of a 32-bit float WAV (what
    roomwave-cli writes); a file that is not one fails a check."""
    import struct
    with open(path, "rb") as f:
        data = f.read()
    check(data[:4] == b"RIFF" and data[8:12] == b"WAVE", "%s is not a WAV" % path)
    pos, rate, channels, bits, frames = 12, 0, 0, 0, None
    while pos + 8 <= len(data):
        cid, size = data[pos:pos + 4], struct.unpack("<I", data[pos + 4:pos + 8])[0]
        body = data[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            _, channels, rate = struct.unpack("<HHI", body[:8])
            bits = struct.unpack("<H", body[14:16])[0]
        elif cid == b"data":
            check(bits == 32, "%s: %d bits, not 32-bit float" % (path, bits))
            n = size // 4
            vals = struct.unpack("<%df" % n, body[:4 * n])
            frames = [list(vals[c::channels]) for c in range(channels)]
        pos += 8 + size + (size & 1)
    return rate, channels, frames


def results_but_timings(j, path=""):
    """results.json (parsed) without what may differ between two runs of
    the same simulation: timings, speeds, the number of ranks."""
    if isinstance(j, dict):
        return {k: results_but_timings(v, path + "/" + k) for k, v in j.items()
                if not (k.endswith("_s") and "time" in path + k) and k not in
                ("mvox_per_s", "ranks", "timings", "timings_s", "import_s", "voxelise_s",
                 "solve_s", "postprocess_s", "total_s", "geometrical_s", "join_s")}
    if isinstance(j, list):
        return [results_but_timings(v, path) for v in j]
    return j
