#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-devices: `roomwave-cli devices` lists every backend built in and its
devices (the CPU always, device 0); without a CUDA device it says so.
`simulate --device N` and `bench --device N` refuse a device beyond the
backend's count with a clear message and exit 1, a non-number with exit 2.

Environment (tests/meson.build): ROOMWAVE_CLI, ROOMWAVE_DATA_DIR."""
import os
import subprocess
import sys
import tempfile

from rwcheck import check, finish

cli = os.environ["ROOMWAVE_CLI"]
demo = os.path.join(os.environ["ROOMWAVE_DATA_DIR"], "rooms", "demo-room.obj")


def run(*args):
    p = subprocess.run([cli, *args], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, LANGUAGE="C", LANG="C"))
    return p.returncode, p.stdout, p.stderr


rc, out, err = run("devices")
check(rc == 0, f"devices exit {rc}: {err}")
lines = out.splitlines()
check("cpu: 1 device(s)" in lines, f"the CPU listed: {out!r}")
cpu = lines.index("cpu: 1 device(s)") if "cpu: 1 device(s)" in lines else -1
check(cpu >= 0 and cpu + 1 < len(lines) and lines[cpu + 1].startswith("  0  ")
      and "GB" in lines[cpu + 1], f"CPU device 0 with its memory: {out!r}")
cuda = [l for l in lines if l.startswith("cuda:")]
check(len(cuda) == 1, f"one cuda line: {out!r}")
has_gpu = bool(cuda) and "device(s)" in cuda[0]
if not has_gpu:
    check("not built in" in cuda[0] or "no device" in cuda[0], f"no CUDA device said: {cuda}")
rc, out, err = run("devices", "--help")
check(rc == 0 and "--device N" in out, f"devices --help: {rc} {out!r}")
rc, out, err = run("devices", "extra")
check(rc == 2, f"devices extra: exit {rc}")

with tempfile.TemporaryDirectory() as tmp:
    base = ["simulate", "--mesh", demo, "--source", "2,2,1.5", "--receiver", "4,3,1.2",
            "--fmax", "150", "--duration", "0.02", "--reflection", "0.9",
            "--out", os.path.join(tmp, "out")]
    rc, out, err = run(*base, "--device", "4095")
    check(rc == 1, f"--device 4095: exit {rc}")
    check("Device 4095 does not exist" in err and "devices lists them" in err,
          f"--device 4095 message: {err!r}")
    rc, out, err = run(*base, "--backend", "cpu", "--device", "1")
    check(rc == 1 and "the cpu backend has 1 device(s)" in err, f"cpu --device 1: {rc} {err!r}")
    rc, out, err = run(*base, "--device", "abc")
    check(rc == 2 and "--device" in err, f"--device abc: {rc} {err!r}")
    rc, out, err = run(*base, "--backend", "cpu", "--device", "0")
    check(rc == 0, f"cpu --device 0 runs: {rc} {err!r}")
    check(not os.path.exists(os.path.join(tmp, "out")) or rc == 0, "out only on success")

rc, out, err = run("bench", "--device", "3", "--size", "8,8,8", "--steps", "1")
check(rc == 1 and "device 3 does not exist" in err, f"bench --device 3: {rc} {err!r}")
rc, out, err = run("bench", "--device", "x")
check(rc == 2, f"bench --device x: exit {rc}")
rc, out, err = run("--help")
check("devices" in out, f"--help lists devices: {out!r}")
sys.exit(finish())
