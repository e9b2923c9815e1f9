#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-mpi-spatial: binaural and ambisonic receivers under
`mpirun -np N roomwave-cli simulate` (issue #15) write what one process
writes.

Each rank voxelises only its slab, while a spatial receiver's probe reads
the grid cells within RW_WAVE_PROBE_RADIUS = 4 cells of it and its
stencil's beyond (up to 432 cells for orders 2 and 3, rw_wave_probe_at):
every rank voxelises the planes around each such receiver alone
(rw_wave_probe_planes, rw_voxelise_planes) and finds the probe's cells in
the whole grid's indices, which the solver gathers from the ranks whose
planes hold them.

The demo room (walls vertical: every inside plane of the grid holds the
same cells; at this spacing the 38 planes' inside ones are 2 … 35, so
rw_slab_plan cuts 2 ranks at plane 19 and 3 ranks at planes 14 and 25 —
"the first plane below which k/n of the inside cells lie", computed below
from that) on the 7-point scheme, fp64 on the CPU backend, no hybrid:
 - receiver 1, ambisonic order 3, on plane 19: its probe (planes 15 … 23)
   straddles the cut of 2 ranks;
 - receiver 2, binaural (order 3 probe), on plane 13: its probe (9 … 17)
   straddles the first cut of 3 ranks;
 - receiver 3, ambisonic order 2, 0.2 m below the ceiling: within 4 cells
   of it, so its wave part falls back to order 1 (a warning), the window
   clipped at the grid's end.
With 1 (plain and under mpirun), 2 and 3 ranks (and, full band with the
geometrical part joined, 0.3 s, 2 ranks) every WAV file is byte for byte
one process's (the PEAK chunk's time stamp, which libsndfile sets to
the time of writing, masked), the same files are written, and
results.json equals one process's but for timings and "ranks".
The same receivers on the FCC scheme: 2 ranks write one process's files.
With RW_SPATIAL_BACKEND=cuda (test cli-mpi-spatial-cuda; every rank on
GPU local rank % the GPUs, exit 77 without a device) all of it runs on
the CUDA backend, and one process on CUDA must first write the CPU
backend's files byte for byte (fp64 is the same bits on both). What that
found (H200, 2026-11-29): the AmbiX channels above order 0 took the
room's uniform mode off every node of the probe, and that sum's rounding
depends on the order the backend and the ranks add it in; receiver 1's
AmbiX file differed in 5–37 samples, by a float's last bit, from the CPU
and between 1 and 2 ranks; the solver now sums that mode exactly
(rw-exact-sum.h).
What fails it: probe cells in slab-local or window-local indices (other
cells recorded, or refused as outside the grid), a window too small (the
ball's K read as 0 on the window's last plane: order 1 instead of 3), the
old refusal of spatial receivers under ranks.

Environment (tests/meson.build): ROOMWAVE_CLI, ROOMWAVE_DATA_DIR, MPIRUN,
RW_SPATIAL_BACKEND (cpu, the default, or cuda)."""
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

from rwcheck import check, finish, results_but_timings

cli = os.environ["ROOMWAVE_CLI"]
mpirun = os.environ["MPIRUN"]
demo = os.path.join(os.environ["ROOMWAVE_DATA_DIR"], "rooms", "demo-room.obj")
tmp = tempfile.mkdtemp(prefix="rw-cli-mpi-spatial-")
ARGS = ["--mesh", demo, "--source", "1.5,1.2,1.3",
        "--receiver", "3,2,1.5:ambisonic=3",
        "--receiver", "4.2,3.1,1.0:binaural,yaw=30",
        "--receiver", "5.5,1.5,2.8:ambisonic=2",
        "--fmax", "500", "--duration", "0.1", "--scheme", "cartesian",
        "--backend", "cpu", "--precision", "f64", "--no-hybrid", "--threads", "1"]
RADIUS = 4  # RW_WAVE_PROBE_RADIUS
BACKEND = os.environ.get("RW_SPATIAL_BACKEND", "cpu")
if BACKEND not in ("cpu", "cuda"):
    print(f"RW_SPATIAL_BACKEND {BACKEND!r}: cpu or cuda", file=sys.stderr)
    sys.exit(2)
if BACKEND == "cuda":
    d = subprocess.run([cli, "devices"], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, LANGUAGE="C", LANG="C"))
    if not any(l.startswith("cuda:") and "device(s)" in l for l in d.stdout.splitlines()):
        print("SKIP: no CUDA device (roomwave-cli devices: "
              f"{[l for l in d.stdout.splitlines() if l.startswith('cuda')]})")
        shutil.rmtree(tmp, ignore_errors=True)
        sys.exit(77)
    CPU_ARGS = list(ARGS)
    ARGS[ARGS.index("cpu")] = "cuda"


def masked(path):
    """The WAV file's bytes, the PEAK chunk's time stamp zeroed."""
    b = bytearray(open(path, "rb").read())
    i = 12
    while i + 8 <= len(b):
        size = int.from_bytes(b[i + 4:i + 8], "little")
        if b[i:i + 4] == b"PEAK":
            b[i + 12:i + 16] = b"\0\0\0\0"   # after the version: the time stamp
        i += 8 + size + (size & 1)
    return bytes(b)


def cell_indices(j):
    found = []
    if isinstance(j, dict):
        for k, v in j.items():
            if k == "cell_index":
                found.append(v)
            else:
                found += cell_indices(v)
    elif isinstance(j, list):
        for v in j:
            found += cell_indices(v)
    return found


def cuts(first, last, n):
    """rw_slab_plan's cuts of a grid whose inside planes first … last
    hold the same cells each."""
    planes = last - first + 1
    return [first + math.ceil(k * planes / n) for k in range(1, n)]


ref = os.path.join(tmp, "one")
p = subprocess.run([cli, "simulate", *ARGS, "--out", ref], capture_output=True, text=True,
                   timeout=300)
check(p.returncode == 0, f"one process: exit {p.returncode}: {p.stderr[-2000:]}")
if p.returncode != 0:
    shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(finish())
if BACKEND == "cuda":
    # one process on the CPU backend: the CUDA run's files byte for byte
    cpu_ref = os.path.join(tmp, "one-cpu")
    c = subprocess.run([cli, "simulate", *CPU_ARGS, "--out", cpu_ref], capture_output=True,
                       text=True, timeout=300)
    check(c.returncode == 0, f"one process on the CPU: exit {c.returncode}: {c.stderr[-2000:]}")
    if c.returncode == 0:
        check(sorted(os.listdir(cpu_ref)) == sorted(os.listdir(ref)),
              "CUDA and the CPU write the same files")
        for f in sorted(os.listdir(ref)):
            if f.endswith(".wav"):
                a, b = masked(os.path.join(cpu_ref, f)), masked(os.path.join(ref, f))
                check(len(a) > 10000 and a == b, f"CUDA: {f} equals the CPU backend's byte for byte")
check("encoded to order 1 only" in p.stderr, f"receiver 3 falls back to order 1: {p.stderr[-600:]}")
ja = json.load(open(os.path.join(ref, "results.json")))
grid = ja["grid"]
check(grid["nz"] == 38, f"the grid has 38 planes (got {grid['nz']}): the cuts below assume it")
nxy = grid["nx"] * grid["ny"]
# the source's cell, then the three receivers'
planes = [c // nxy for c in cell_indices(ja)][-3:]
check(planes[:2] == [19, 13], f"receivers 1 and 2 on planes 19 and 13 (got {planes})")
c2, c3 = cuts(2, 35, 2), cuts(2, 35, 3)
check(c2 == [19] and c3 == [14, 25], f"cuts {c2} and {c3}")
check(any(planes[0] - RADIUS < c <= planes[0] + RADIUS for c in c2),
      "receiver 1's probe straddles the cut of 2 ranks")
check(any(planes[1] - RADIUS < c <= planes[1] + RADIUS for c in c3),
      "receiver 2's probe straddles a cut of 3 ranks")
wavs = sorted(f for f in os.listdir(ref) if f.endswith(".wav"))
check(len(wavs) == 7, f"seven WAV files (omni ×3, ambix ×3, binaural): {wavs}")

for np_ in [1, 2, 3]:
    out = os.path.join(tmp, f"np{np_}")
    p = subprocess.run([mpirun, "-np", str(np_), cli, "simulate", *ARGS, "--out", out],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"{np_} rank(s): exit {p.returncode}: {p.stderr[-2000:]}")
    if p.returncode != 0:
        continue
    check(p.stderr.count("encoded to order 1 only") == 1,
          f"{np_} rank(s): receiver 3's warning, once: {p.stderr[-600:]}")
    check(sorted(os.listdir(out)) == sorted(os.listdir(ref)),
          f"{np_} rank(s): the same files as one process")
    for f in wavs:
        a, b = masked(os.path.join(ref, f)), masked(os.path.join(out, f))
        check(len(a) > 10000 and a == b, f"{np_} rank(s): {f} equals one process's byte for byte")
    jb = json.load(open(os.path.join(out, "results.json")))
    check(results_but_timings(ja) == results_but_timings(jb),
          f"{np_} rank(s): results.json equals one process's but for timings and ranks")

def against_two_ranks(what, args, name):
    """simulate with args in one process and on 2 ranks: the same files,
    every WAV byte for byte, results.json but for timings and ranks.
    Returns one process's run (or None) and its results.json."""
    ref = os.path.join(tmp, name + "-one")
    out = os.path.join(tmp, name + "-np2")
    p = subprocess.run([cli, "simulate", *args, "--out", ref], capture_output=True, text=True,
                       timeout=300)
    check(p.returncode == 0, f"{what}, one process: exit {p.returncode}: {p.stderr[-2000:]}")
    q = subprocess.run([mpirun, "-np", "2", cli, "simulate", *args, "--out", out],
                       capture_output=True, text=True, timeout=300)
    check(q.returncode == 0, f"{what}, 2 ranks: exit {q.returncode}: {q.stderr[-2000:]}")
    if p.returncode != 0 or q.returncode != 0:
        return None, None
    check(sorted(os.listdir(out)) == sorted(os.listdir(ref)), f"{what}: the same files")
    for f in wavs:
        a, b = masked(os.path.join(ref, f)), masked(os.path.join(out, f))
        check(len(a) > 10000 and a == b, f"{what}, 2 ranks: {f} equals one process's byte for byte")
    ja, jb = (json.load(open(os.path.join(d, "results.json"))) for d in (ref, out))
    check(results_but_timings(ja) == results_but_timings(jb),
          f"{what}, 2 ranks: results.json equals one process's but for timings and ranks")
    return p, ja


# the full band (the geometrical part joined to every channel and ear at
# the crossover; rank 0 alone computes it) on 2 ranks, 0.3 s: the same
hybrid = [a for a in ARGS if a != "--no-hybrid"]
hybrid[hybrid.index("0.1")] = "0.3"
against_two_ranks("full band", hybrid, "hybrid")

# the FCC scheme (issue #14: spatial receivers probe its sites about
# their positions, rw_wave_probe_at, from windows of planes two more a
# side): 2 ranks write one process's files (the same seven WAV files)
fcc = list(ARGS)
fcc[fcc.index("cartesian")] = "fcc"
p, ja = against_two_ranks("FCC", fcc, "fcc")
if p is not None:
    check(ja["settings"]["scheme"] == "fcc", f"FCC: the run's scheme {ja['settings']['scheme']}")
    # receiver 3, 1.7 of the FCC lattice's cells below the ceiling: its
    # first-order probe about its position would read sites past the
    # ceiling, so it is taken about its nearest site
    check("nearest grid node" in p.stderr and "encoded to order 1 only" in p.stderr,
          f"FCC: receiver 3 about its nearest node, order 1: {p.stderr[-800:]}")

shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
