#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-checkpoint: `simulate --checkpoint DIR` continues a run that was
stopped, and the continued run's IRs equal an uninterrupted run's sample
for sample (issue #15; docs/CHECKPOINT.md).

A box with two materials given per octave band (frequency-dependent
surfaces: the solver keeps branch states), the wave part alone.
- SIGTERM in the solve (the test hook RW_TEST_TERM_AT_STEP raises it at the
  first progress report): exit 75, the message names DIR and the step, no
  --out is written, DIR holds rank-0-of-1.ckpt; the same command again says
  it continues from DIR and its WAVs equal the uninterrupted run's (the
  FCC scheme in fp32, the 7-point scheme in fp64), and DIR is emptied.
- Two sources, SIGTERM in the second: the first's checkpoint (written at
  its solve's end) and the second's are in DIR/source-1, DIR/source-2; the
  same command continues both and equals the uninterrupted run.
- SIGKILL (no warning) after periodic checkpoints (--checkpoint-every a
  tiny period: one at every chunk boundary): the same command continues
  from one inside the run, equal.
- A checkpoint of another run (the source moved) is refused: exit 1,
  naming the file and what differs. SIGTERM without --checkpoint cancels
  as Ctrl-C does (exit 1). Usage: --checkpoint-every without --checkpoint,
  a bad period, --checkpoint inside --out (also through a link to --out,
  or with --out a link): exit 2.
What fails it: any part of the run's state not restored (the WAVs differ),
SIGTERM not wired to the checkpoint (exit 1, no file), the source-N
folders not kept apart (the second source would take the first's
checkpoint, refused as another run's).

Environment: ROOMWAVE_CLI (the binary)."""
import json
import os
import re
import subprocess
import sys
import tempfile

from rwcheck import check, finish, read_float_wav

CLI = os.environ["ROOMWAVE_CLI"]


def run(args, env_extra=None, timeout=300):
    env = dict(os.environ)
    env.update(env_extra or {})
    p = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def box_obj(path):
    """A closed, outward box 2.4 × 1.6 × 2 m: the floor, and the walls and ceiling."""
    corners = [(x, y, z) for z in (0, 2.0) for y in (0, 1.6) for x in (0, 2.4)]
    quads = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]
    with open(path, "w") as f:
        f.writelines("v %g %g %g\n" % c for c in corners)
        for i, (a, b, c, d) in enumerate(quads):
            f.write("g %s\nf %d %d %d\nf %d %d %d\n" % ("floor" if i == 0 else "wall", a, b, c, a, c, d))


def wavs(out):
    """{relative path: samples} of the WAVs under out (the samples, not the
    bytes: libsndfile's PEAK chunk holds the time of writing)."""
    got = {}
    for root, _, files in os.walk(out):
        for name in files:
            if name.endswith(".wav"):
                p = os.path.join(root, name)
                got[os.path.relpath(p, out)] = read_float_wav(p)[2]
    return got


def ckpt_files(d):
    return sorted(os.path.relpath(os.path.join(r, n), d) for r, _, fs in os.walk(d) for n in fs
                  if ".ckpt" in n)


def same(a, b, what):
    check(sorted(a) == sorted(b) and len(a) > 0, "%s: the same files (%s vs %s)" % (what, sorted(a), sorted(b)))
    for k in a:
        if k in b:
            check(a[k] == b[k], "%s: %s equals the uninterrupted run's sample for sample" % (what, k))


def main():
    tmp = tempfile.mkdtemp(prefix="rw-cli-ckpt-")
    mesh = os.path.join(tmp, "box.obj")
    box_obj(mesh)
    materials = os.path.join(tmp, "map.json")
    with open(materials, "w") as f:
        json.dump({"wall": {"alpha": [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.5, 0.5]},
                   "floor": {"alpha": [0.3, 0.25, 0.2, 0.15, 0.1, 0.1, 0.1, 0.1]}}, f)
    base = ["simulate", "--mesh", mesh, "--materials", materials, "--receiver", "1.6,0.5,1.3",
            "--receiver", "0.4,1.1,0.6", "--fmax", "500", "--duration", "0.3", "--no-hybrid",
            "--threads", "1", "--quiet"]
    one = ["--source", "0.7,0.8,0.9"]
    n = [0]

    def fresh(name):
        n[0] += 1
        return os.path.join(tmp, "%s-%d" % (name, n[0]))

    # ---- SIGTERM in the solve, then the same command again
    for extra in ([], ["--scheme", "cartesian", "--precision", "f64"]):
        what = " ".join(extra) or "defaults (fcc, f32)"
        ref = fresh("ref")
        rc, _, err = run(base + one + extra + ["--out", ref])
        check(rc == 0, "%s: the uninterrupted run: %s" % (what, err))
        out, ck = fresh("out"), fresh("ck")
        args = base + one + extra + ["--out", out, "--checkpoint", ck]
        rc, _, err = run(args, {"RW_TEST_TERM_AT_STEP": "1"})
        check(rc == 75, "%s: SIGTERM with --checkpoint exits 75 (%d): %s" % (what, rc, err))
        check(ck in err and "Stopped at step" in err, "%s: the message names the folder and the step: %s" % (what, err))
        check(not os.path.exists(out), "%s: no --out written" % what)
        check(ckpt_files(ck) == ["rank-0-of-1.ckpt"], "%s: the checkpoint is there: %s" % (what, ckpt_files(ck)))
        rc, _, err = run(args)
        check(rc == 0, "%s: continued: %s" % (what, err))
        check("continuing from the checkpoint in " + ck in err, "%s: says it continues: %s" % (what, err))
        same(wavs(ref), wavs(out), what + ", stopped and continued")
        check(ckpt_files(ck) == [], "%s: the checkpoint removed after a good run: %s" % (what, ckpt_files(ck)))

    # ---- two sources, SIGTERM in the second
    two = ["--source", "0.7,0.8,0.9", "--source", "1.7,0.9,1.2"]
    ref = fresh("ref")
    rc, _, err = run(base + two + ["--out", ref])
    check(rc == 0, "two sources: the uninterrupted run: %s" % err)
    out, ck = fresh("out"), fresh("ck")
    args = base + two + ["--out", out, "--checkpoint", ck]
    rc, _, err = run(args, {"RW_TEST_TERM_AT_STEP": "1@2"})
    check(rc == 75, "two sources: SIGTERM in the second exits 75 (%d): %s" % (rc, err))
    check(ckpt_files(ck) == ["source-1/rank-0-of-1.ckpt", "source-2/rank-0-of-1.ckpt"],
          "two sources: one folder a source: %s" % ckpt_files(ck))
    rc, _, err = run(args)
    check(rc == 0 and err.count("continuing from the checkpoint") == 2,
          "two sources: both continued: %s" % err)
    same(wavs(ref), wavs(out), "two sources, stopped in the second and continued")
    check(ckpt_files(ck) == [] and not os.path.exists(os.path.join(ck, "source-1")),
          "two sources: removed after a good run: %s" % ckpt_files(ck))

    # ---- SIGKILL after periodic checkpoints
    ref = fresh("ref")
    rc, _, err = run(base + one + ["--out", ref])
    out, ck = fresh("out"), fresh("ck")
    args = base + one + ["--out", out, "--checkpoint", ck, "--checkpoint-every", "1e-9"]
    # the first chunk is a fixed number of steps (a million cell updates:
    # 452 here), so a periodic checkpoint lies there before the kill at the
    # first report past step 900
    rc, _, err = run(args, {"RW_TEST_TERM_AT_STEP": "900", "RW_TEST_SIGNAL": "KILL"})
    check(rc == -9, "SIGKILL: the run was killed (%d): %s" % (rc, err))
    check(ckpt_files(ck) == ["rank-0-of-1.ckpt"], "SIGKILL: a periodic checkpoint is there: %s" % ckpt_files(ck))
    rc, _, err = run(args)
    step = re.search(r"continuing from the checkpoint in \S+ at step (\d+)", err)
    check(rc == 0 and step is not None and 0 < int(step.group(1)) < 900,
          "SIGKILL: continued from a periodic checkpoint inside the run: %s" % err)
    same(wavs(ref), wavs(out), "killed and continued")

    # ---- another run's checkpoint
    out, ck = fresh("out"), fresh("ck")
    rc, _, err = run(base + one + ["--out", out, "--checkpoint", ck], {"RW_TEST_TERM_AT_STEP": "1"})
    rc, _, err = run(base + ["--source", "0.9,0.8,0.9", "--out", out, "--checkpoint", ck])
    check(rc == 1 and os.path.join(ck, "rank-0-of-1.ckpt") in err and "another run" in err
          and "source" in err, "another run's checkpoint refused, naming the file (%d): %s" % (rc, err))

    # ---- SIGTERM without --checkpoint; usage
    out = fresh("out")
    rc, _, err = run(base + one + ["--out", out], {"RW_TEST_TERM_AT_STEP": "1"})
    check(rc == 1 and "cancelled" in err and not os.path.exists(out),
          "SIGTERM without --checkpoint cancels (%d): %s" % (rc, err))
    # --checkpoint inside --out through a link, either way round: the
    # folders as the system resolves them
    linked = fresh("linked")
    os.makedirs(linked)
    os.symlink(linked, os.path.join(tmp, "to-linked"))
    for bad, what in ((["--checkpoint-every", "5"], "--checkpoint-every alone"),
                      (["--checkpoint", fresh("ck"), "--checkpoint-every", "abc"], "a bad period"),
                      (["--checkpoint", os.path.join(tmp, "o", "ck"), "--out", os.path.join(tmp, "o")],
                       "--checkpoint inside --out"),
                      (["--checkpoint", os.path.join(tmp, "to-linked", "ck"), "--out", linked],
                       "--checkpoint inside --out through a link to --out"),
                      (["--checkpoint", os.path.join(linked, "ck"), "--out", os.path.join(tmp, "to-linked")],
                       "--checkpoint inside --out, which is a link")):
        rc, _, err = run(base + one + bad)
        check(rc == 2 and "checkpoint" in err, "%s: usage error (%d): %s" % (what, rc, err))
    return finish()


if __name__ == "__main__":
    sys.exit(main())
