#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-cluster-model: `roomwave-cli cluster-model` (issue #15;
docs/CLUSTER.md). Its --json figures against values worked out here (the
grid by hand from the volume and h, halo bytes = neighbours × halo planes
× plane bytes, the step times from their definitions, the largest room
fitting where 0.1 % more does not); the table names the same figures;
--scheme auto as fcc (simulate's choice for such a room); bad input
(negative volume, 0 GPUs, an unknown scheme or precision — the engine's
names only: fp16 is refused as by simulate —, no
--fmax, both --volume and --largest) exits non-zero with a message that
names the option; --help.

Environment (tests/meson.build): ROOMWAVE_CLI."""
import json
import math
import os
import subprocess
import sys

from rwcheck import check, finish

cli = os.environ["ROOMWAVE_CLI"]


def run(*args):
    p = subprocess.run([cli, "cluster-model", *args], capture_output=True, text=True,
                       timeout=120, env=dict(os.environ, LANGUAGE="C", LANG="C"))
    return p.returncode, p.stdout, p.stderr


def model(*args):
    rc, out, err = run(*args, "--json")
    check(rc == 0, f"cluster-model {args}: exit {rc}: {err}")
    try:
        return json.loads(out)
    except ValueError:
        check(False, f"cluster-model {args}: not JSON: {out!r}")
        return {}


c = 331.3 * math.sqrt(1 + 20 / 273.15)

# 2000 m³, 4 kHz, FCC fp32 on 16 GPUs, a 4 : 3 : 5 box
m = model("--volume", "2000", "--fmax", "4000", "--scheme", "fcc", "--precision", "f32",
          "--gpus", "16", "--aspect", "4,3,5", "--bandwidth", "25", "--latency", "3",
          "--rate", "100", "--duration", "0.5")
if m:
    h = c / (4000 * 5.75)
    check(abs(m["spacing_m"] - h) < 1e-12, f"h {m['spacing_m']} vs {h}")
    s = (2000 / 60) ** (1 / 3)
    n = [math.floor(a * s / h + 0.5) for a in (4, 3, 5)]
    check(m["grid"] == [k + 4 for k in n], f"grid {m['grid']} vs {[k + 4 for k in n]}")
    check(abs(m["nodes"] - n[0] * n[1] * n[2] / 2) < 0.5, f"nodes {m['nodes']}")
    check(m["steps"] == math.ceil(0.5 * c / h), f"steps {m['steps']}")
    check(m["halo_planes"] == 2 and m["neighbours"] == 2, "FCC: 2 planes to 2 neighbours")
    plane = (m["grid"][0] + 1) // 2 * m["grid"][1] * 4
    check(m["plane_bytes"] == plane, f"plane bytes {m['plane_bytes']} vs {plane}")
    check(m["halo_bytes_per_step"] == 2 * 2 * plane, f"halo bytes {m['halo_bytes_per_step']}")
    check(m["slab_planes"] == -(-n[2] // 16), f"slab planes {m['slab_planes']}")
    pn = n[0] * n[1] / 2
    interior = m["slab_planes"] * pn / 100e9
    edge = 2 * 2 * pn / 100e9
    exch = 2 * 3e-6 + 4 * plane / 25e9
    check(math.isclose(m["interior_s"], interior, rel_tol=1e-12), "interior time")
    check(math.isclose(m["exchange_s"], exch, rel_tol=1e-12), "exchange time")
    check(math.isclose(m["step_serial_s"], interior + exch, rel_tol=1e-12), "serial step")
    check(math.isclose(m["step_overlap_s"], max(interior - edge, exch) + edge, rel_tol=1e-12),
          "overlapped step")
    check(math.isclose(m["efficiency_overlap"],
                       n[0] * n[1] * n[2] / 2 / 100e9 / (16 * m["step_overlap_s"]),
                       rel_tol=1e-12), "efficiency")
    check(math.isclose(m["run_overlap_s"], m["steps"] * m["step_overlap_s"], rel_tol=1e-12),
          "run time")
    check(m["fits"] is True, "2000 m³ on 16 GPUs fits")

# the memory edge through the CLI: the bytes it reports, as GiB, fit; less does not
m = model("--volume", "800", "--fmax", "8000", "--precision", "f16", "--gpus", "2")
if m:
    gib = m["device_bytes_per_rank"] / 2 ** 30
    a = model("--volume", "800", "--fmax", "8000", "--precision", "f16", "--gpus", "2",
              "--gpu-memory", repr(gib * (1 + 1e-9)))
    b = model("--volume", "800", "--fmax", "8000", "--precision", "f16", "--gpus", "2",
              "--gpu-memory", repr(gib * (1 - 1e-6)))
    check(a.get("fits") is True and b.get("fits") is False, f"memory edge: {a.get('fits')} {b.get('fits')}")

# the largest room: it fits, 0.1 % more does not
m = model("--largest", "--fmax", "2000", "--gpus", "8", "--gpu-memory", "40")
if m:
    v = m["volume_m3"]
    check(m["fits"] is True and m["largest"] is True, "the largest fits")
    up = model("--volume", repr(v * 1.001), "--fmax", "2000", "--gpus", "8", "--gpu-memory", "40")
    check(up.get("fits") is False, f"0.1 % above {v} m³ does not fit")
    hv = m["largest_host_limited_m3"]
    check(0 < hv <= v, f"host-limited largest {hv} ≤ {v}")

# the table says the same
rc, out, err = run("--volume", "1000", "--fmax", "4000", "--gpus", "64")
check(rc == 0 and "fits" in out and "efficiency" in out and "halo" in out
      and "2 plane(s)" in out, f"table: {rc} {out!r} {err!r}")

# --scheme auto: what simulate runs for such a room, the FCC scheme
a = model("--volume", "100", "--fmax", "1000", "--scheme", "auto")
f = model("--volume", "100", "--fmax", "1000", "--scheme", "fcc")
if a and f:
    check(a["scheme"] == "fcc" and a == f, f"--scheme auto: {a.get('scheme')}, the same figures as fcc")

rc, out, err = run("--help")
check(rc == 0 and "--volume" in out and "--bandwidth" in out and "--largest" in out,
      f"--help: {rc} {out!r}")

# bad input: non-zero, the option named
for args, option in ((["--volume", "-5", "--fmax", "1000"], "--volume"),
                     (["--volume", "0", "--fmax", "1000"], "--volume"),
                     (["--volume", "100", "--fmax", "1000", "--gpus", "0"], "--gpus"),
                     (["--volume", "100", "--fmax", "1000", "--scheme", "hex"], "--scheme"),
                     (["--volume", "100", "--fmax", "1000", "--precision", "f8"], "--precision"),
                     # the engine's names only, as simulate takes them
                     (["--volume", "100", "--fmax", "1000", "--precision", "fp16"], "--precision"),
                     (["--volume", "100", "--fmax", "1000", "--bandwidth", "-1"], "--bandwidth"),
                     (["--volume", "100", "--fmax", "1000", "--gpu-memory", "nan"], "--gpu-memory"),
                     (["--volume", "100"], "--fmax"),
                     (["--volume", "100", "--fmax", "1000", "--largest"], "--largest"),
                     (["--volume", "100", "--fmax", "1000", "--frobnicate"], "--frobnicate")):
    rc, out, err = run(*args)
    check(rc == 2 and option in err, f"{args}: exit {rc}, {err!r}")
    check(out == "", f"{args}: nothing on stdout: {out!r}")
# a room too thin for the GPUs' slabs: exit 1, gpus named
rc, out, err = run("--volume", "30", "--fmax", "500", "--gpus", "64")
check(rc == 1 and "gpus" in err, f"too many GPUs: exit {rc}, {err!r}")

sys.exit(finish())
