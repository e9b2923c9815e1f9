#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-mpi: `mpirun -np N roomwave-cli simulate …` (issue #15) spreads the
wave solver over N ranks and writes what one process writes.

 - The demo room (FCC and 7-point schemes, library materials with
   frequency-dependent admittances, fp64 on the CPU backend, two
   receivers) on 2 and 3 ranks: every receiver's WAV samples equal one
   rank's bit for bit, results.json equals one rank's except for timings
   and "ranks" (which says N), and only rank 0 printed the summary.
 - A rank killed (SIGKILL) mid-run: mpirun stops the others and exits
   non-zero within 60 s, saying which rank died; the results folder a
   previous run wrote there is left exactly as it was (nothing saved is
   lost) and no staging folder stays behind.
 - A results folder rank 0 cannot write (a file is in the way): every rank
   exits non-zero, rank 0 naming the folder, before the solve.
 - A checkpoint on 2 ranks (--checkpoint, SIGTERM at a step): exit 75,
   one file a rank, and the same command continues to one process's
   samples bit for bit.
Each rank voxelises only its slab (rw_slab_voxelise_ranks): the room's
counts in results.json are the ranks' sums (seen failing with one of
them off by one).
What fails it: a halo or source error (samples differ), ranks ≠ 0 writing
or printing, a rank's death leaving the others waiting (timeout), a
failure of rank 0 alone letting the others run on (hang).

Environment (tests/meson.build): ROOMWAVE_CLI, ROOMWAVE_DATA_DIR, MPIRUN."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from rwcheck import check, finish, results_but_timings

cli = os.environ["ROOMWAVE_CLI"]
mpirun = os.environ["MPIRUN"]
demo = os.path.join(os.environ["ROOMWAVE_DATA_DIR"], "rooms", "demo-room.obj")
tmp = tempfile.mkdtemp(prefix="rw-cli-mpi-")
ARGS = ["--mesh", demo, "--source", "1.5,1.2,1.3", "--receiver", "3,2,1.5",
        "--receiver", "4.2,3.1,2.2", "--fmax", "500", "--duration", "0.25",
        "--backend", "cpu", "--precision", "f64", "--no-hybrid", "--threads", "1"]


def samples(path):
    b = open(path, "rb").read()
    i = b.find(b"data")
    n = int.from_bytes(b[i + 4:i + 8], "little")
    return b[i + 8:i + 8 + n]


def results(d):
    j = json.load(open(os.path.join(d, "results.json")))
    j.pop("timings_s", None)
    j.get("grid", {}).pop("mvox_per_s", None)
    j.pop("mvox_per_s", None)
    return j


def find_key(j, key):
    if isinstance(j, dict):
        if key in j:
            return j[key]
        for v in j.values():
            r = find_key(v, key)
            if r is not None:
                return r
    return None


for scheme in ["fcc", "cartesian"]:
    ref = os.path.join(tmp, f"one-{scheme}")
    p = subprocess.run([cli, "simulate", *ARGS, "--scheme", scheme, "--out", ref],
                       capture_output=True, text=True, timeout=300)
    check(p.returncode == 0, f"{scheme}, one rank: exit {p.returncode}: {p.stderr}")
    for np_ in [2, 3]:
        out = os.path.join(tmp, f"np{np_}-{scheme}")
        p = subprocess.run([mpirun, "-np", str(np_), cli, "simulate", *ARGS, "--scheme", scheme,
                            "--out", out], capture_output=True, text=True, timeout=300)
        check(p.returncode == 0, f"{scheme}, {np_} ranks: exit {p.returncode}: {p.stderr[-2000:]}")
        if p.returncode != 0:
            continue
        check(p.stdout.count("results.json") == 1,
              f"{scheme}, {np_} ranks: one summary (rank 0's), got {p.stdout.count('results.json')}")
        for r in [1, 2]:
            a = samples(os.path.join(ref, f"receiver-{r}.wav"))
            b = samples(os.path.join(out, f"receiver-{r}.wav"))
            check(len(a) > 1000 and a == b,
                  f"{scheme}, {np_} ranks: receiver {r}'s samples equal one rank's bit for bit")
        ja, jb = json.load(open(os.path.join(ref, "results.json"))), json.load(
            open(os.path.join(out, "results.json")))
        check(find_key(jb, "ranks") == np_, f"{scheme}: results.json says ranks {find_key(jb, 'ranks')}")
        check(find_key(ja, "ranks") == 1, "one rank: results.json says ranks 1")
        check(results_but_timings(ja) == results_but_timings(jb),
              f"{scheme}, {np_} ranks: results.json equals one rank's but for timings and ranks")
        check(sorted(os.listdir(out)) == sorted(os.listdir(ref)),
              f"{scheme}, {np_} ranks: the same files as one rank")

# A rank killed mid-run: a run long enough to be caught (about 20 s on
# one core), into a folder that holds an earlier run's results.
keep = os.path.join(tmp, "keep")
shutil.copytree(os.path.join(tmp, "one-fcc"), keep)
before = {f: open(os.path.join(keep, f), "rb").read() for f in os.listdir(keep)}
long_args = [a if a != "0.25" else "4" for a in ARGS]
long_args[long_args.index("500")] = "700"
p = subprocess.Popen([mpirun, "-np", "2", cli, "simulate", *long_args, "--out", keep],
                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
victim = None
t0 = time.time()
while time.time() - t0 < 60 and victim is None:
    time.sleep(0.5)
    ps = subprocess.run(["ps", "-eo", "pid,ppid,etimes,args"], capture_output=True, text=True).stdout
    kids = [l.split() for l in ps.splitlines()[1:]]
    # the CLI processes mpirun started (children of mpirun or of its orted)
    ranks = [int(k[0]) for k in kids if len(k) > 4 and k[3] == cli and k[4] == "simulate"
             and int(k[2]) >= 3]
    if len(ranks) == 2:
        victim = max(ranks)
check(victim is not None, "found the two ranks running")
if victim is not None:
    os.kill(victim, signal.SIGKILL)
    try:
        out, err = p.communicate(timeout=60)
        check(p.returncode != 0, f"killed rank: mpirun exits non-zero (got {p.returncode})")
        check("signal 9" in err or "Killed" in err or "killed" in err,
              f"killed rank: the message says a rank was killed: {err[-600:]}")
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        check(False, "killed rank: the other rank stopped within 60 s")
else:
    p.kill()
    p.communicate()
after = {f: open(os.path.join(keep, f), "rb").read() for f in os.listdir(keep)}
check(after == before, "killed rank: the earlier results are left as they were")
# the killed job's staging folder (its processes died with SIGKILL) is
# removed by the next run into that folder, which succeeds; mpirun may
# return while its last rank is still being torn down: wait for it
t0 = time.time()
while time.time() - t0 < 20:
    ps = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    if not any(l.startswith(cli + " simulate") for l in ps.splitlines()):
        break
    time.sleep(0.2)
p = subprocess.run([mpirun, "-np", "2", cli, "simulate", *ARGS, "--out", keep],
                   capture_output=True, text=True, timeout=300)
check(p.returncode == 0, f"a run after the killed one: exit {p.returncode}: {p.stderr[-600:]}")
left = [f for f in os.listdir(tmp) if f.startswith(".keep.new")]
check(not left, f"the killed job's staging folder is gone after the next run ({left})")

# a checkpoint on 2 ranks: stopped by SIGTERM at a step (the test hook,
# on every rank), exit 75, then the same command continues and writes the
# uninterrupted run's samples (one process's, above). The hook raises at
# the first progress report at or past its step, which comes at the end of
# a chunk: step 1 means the end of the first chunk (10⁶ cell updates, well
# before the run's end); a later step could fall in the last chunk, whose
# size follows the machine's speed, and the run then ends before it stops
ck = os.path.join(tmp, "ck")
ck_out = os.path.join(tmp, "ck-out")
env = dict(os.environ, RW_TEST_TERM_AT_STEP="1")
p = subprocess.run([mpirun, "-np", "2", "-x", "RW_TEST_TERM_AT_STEP", cli, "simulate", *ARGS,
                    "--scheme", "fcc", "--checkpoint", ck, "--out", ck_out],
                   capture_output=True, text=True, timeout=300, env=env)
check(p.returncode == 75, f"checkpoint on 2 ranks: SIGTERM exits 75 (got {p.returncode}): {p.stderr[-400:]}")
check(p.stderr.count("Stopped at step") == 1,
      f"checkpoint on 2 ranks: said once ({p.stderr.count('Stopped at step')} times): {p.stderr[-600:]}")
check(sorted(os.listdir(ck)) == ["rank-0-of-2.ckpt", "rank-1-of-2.ckpt"] if os.path.isdir(ck) else False,
      "checkpoint on 2 ranks: one file a rank")
p = subprocess.run([mpirun, "-np", "2", cli, "simulate", *ARGS, "--scheme", "fcc", "--checkpoint", ck,
                    "--out", ck_out], capture_output=True, text=True, timeout=300)
check(p.returncode == 0 and "continuing from the checkpoint" in p.stderr,
      f"checkpoint on 2 ranks: continued ({p.returncode}): {p.stderr[-400:]}")
for r in [1, 2]:
    check(p.returncode == 0 and samples(os.path.join(ck_out, f"receiver-{r}.wav"))
          == samples(os.path.join(tmp, "one-fcc", f"receiver-{r}.wav")),
          f"checkpoint on 2 ranks: receiver {r} equals the uninterrupted run bit for bit")

# rank 0 cannot write: a file where the folder should be
blocker = os.path.join(tmp, "blocked")
open(blocker, "w").write("not a folder\n")
p = subprocess.run([mpirun, "-np", "2", cli, "simulate", *ARGS, "--out", blocker],
                   capture_output=True, text=True, timeout=120)
check(p.returncode != 0, f"blocked --out: exit non-zero ({p.returncode})")
check("blocked" in p.stderr, f"blocked --out: the message names the folder: {p.stderr[-600:]}")

shutil.rmtree(tmp, ignore_errors=True)
sys.exit(finish())
