#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-output-safety: no command loses a file it was given.

- An output that is the same file as an input (by its own name, "./name",
  a symbolic link or a hard link) is refused with exit 1 naming it, before
  anything is written, and the input keeps its bytes: auralise -o (IR, DRY,
  --ir-right), compare --report/--csv/--json-out (SIM, MEASURED, the
  results.json beside SIM, another output).
- compare writes its outputs all or none: an output that cannot be written
  leaves the others as they were (an existing one keeps its old bytes).
- simulate checks --out before the import and the solve: under a missing
  folder, under a file, read-only, holding files no run wrote or holding
  the mesh, the current folder: exit 1 at once, naming --out, never the
  (broken) mesh that would otherwise be read first.
- A re-run into the same --out leaves exactly its own files (no stale
  receiver-N.wav or source-N/), and nothing beside the folder.
- A second writer fails at once while the lock on ".OUT.lock" is held.
- Ctrl-C in the writing phase (ROOMWAVE_TEST_WRITE_PAUSE_S holds the run
  between writing and the swap) leaves the previous folder as it was.

Environment: ROOMWAVE_CLI (the binary)."""
import fcntl
import hashlib
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import wave

from rwcheck import check, communicate_or_kill, finish

CLI = os.environ["ROOMWAVE_CLI"]


def run(args, env=None, timeout=120, cwd=None):
    p = subprocess.run([CLI] + args, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def sine_decay_wav(path, seed, n=24000, rate=48000):
    """A 16-bit mono WAV: a click and an exponentially decaying tone."""
    frames = bytearray()
    for i in range(n):
        v = (0.9 if i == 50 else 0.0) + 0.3 * 10 ** (-3.0 * i / (0.4 * rate)) * ((i * 7919 * seed) % 200 - 100) / 100
        frames += struct.pack("<h", int(max(-1.0, min(1.0, v)) * 30000))
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(bytes(frames))


def cube_obj(path, edge=2.0):
    """A closed, outward cube [0, edge]³, one surface."""
    corners = [(x, y, z) for z in (0, edge) for y in (0, edge) for x in (0, edge)]
    quads = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]
    with open(path, "w") as f:
        f.writelines("v %g %g %g\n" % c for c in corners)
        for a, b, c, d in quads:
            f.write("f %d %d %d\nf %d %d %d\n" % (a, b, c, a, c, d))


def digest(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def snapshot(d):
    """{relative path: sha256} of every file under d."""
    out = {}
    for root, _, files in os.walk(d):
        for name in files:
            p = os.path.join(root, name)
            out[os.path.relpath(p, d)] = digest(p)
    return out


def refused(args, words, what, inputs, cwd=None):
    before = {p: digest(p) for p in inputs}
    rc, out, err = run(args, cwd=cwd)
    check(rc == 1, "%s: exit %d, expected 1 (%s)" % (what, rc, err.strip()))
    for w in words:
        check(w in err, "%s: stderr lacks %r: %s" % (what, w, err.strip()))
    for p, h in before.items():
        check(os.path.exists(p) and digest(p) == h, "%s: %s changed" % (what, p))
    check("AddressSanitizer" not in err and "runtime error" not in err, "%s: crashed: %s" % (what, err))
    print("%-44s exit %d: %s" % (what, rc, err.strip().splitlines()[0] if err.strip() else ""))
    return err


def leftovers(d):
    return sorted(n for n in os.listdir(d) if ".part-" in n or ".tmp-" in n or ".old-" in n
                  or n.startswith(".") and (".new-" in n or n.endswith(".lock")))


with tempfile.TemporaryDirectory() as tmp:
    ir = os.path.join(tmp, "ir.wav")
    sine_decay_wav(ir, 3)
    ir2 = os.path.join(tmp, "ir2.wav")
    sine_decay_wav(ir2, 5)
    dry = os.path.join(tmp, "dry.wav")
    sine_decay_wav(dry, 7, n=4800)
    meas = os.path.join(tmp, "meas.wav")
    sine_decay_wav(meas, 11)
    hard = os.path.join(tmp, "hard-link-of-ir.wav")
    os.link(ir, hard)
    soft = os.path.join(tmp, "soft-link-to-dry.wav")
    os.symlink(dry, soft)
    dotted = os.path.join(tmp, ".", "dry.wav")
    inputs = [ir, ir2, dry, meas]

    # ---- auralise: -o is never an input
    for out, name, what in ((dry, "dry.wav", "auralise -o DRY"),
                            (dotted, "dry.wav", "auralise -o ./DRY"),
                            (ir, "ir.wav", "auralise -o IR"),
                            (hard, "hard-link-of-ir.wav", "auralise -o hard link of IR"),
                            (soft, "soft-link-to-dry.wav", "auralise -o symlink to DRY")):
        refused(["auralise", ir, dry, "-o", out], [name, "same file"], what, inputs)
    refused(["auralise", ir, dry, "--ir-right", ir2, "-o", ir2], ["ir2.wav"], "auralise -o IR2", inputs)

    # ---- compare: no output is SIM, MEASURED, results.json beside SIM, or another output
    sim_dir = os.path.join(tmp, "sim")
    os.mkdir(sim_dir)
    sim = os.path.join(sim_dir, "receiver-1.wav")
    sine_decay_wav(sim, 13)
    results = os.path.join(sim_dir, "results.json")
    with open(results, "w") as f:
        json.dump({"fmax_hz": 4000}, f)
    sim_link = os.path.join(tmp, "link-to-sim.wav")
    os.symlink(sim, sim_link)
    meas_hard = os.path.join(tmp, "meas-hard.wav")
    os.link(meas, meas_hard)
    cmp_inputs = [sim, meas, results]
    fresh = os.path.join(tmp, "fresh.csv")
    for flags, name, what in ((["--csv", meas], "meas.wav", "compare --csv MEAS"),
                              (["--report", sim], "receiver-1.wav", "compare --report SIM"),
                              (["--json-out", meas_hard], "meas-hard.wav", "compare --json-out hard link of MEAS"),
                              (["--csv", sim_link], "link-to-sim.wav", "compare --csv symlink to SIM"),
                              (["--json-out", results], "results.json", "compare --json-out results.json"),
                              (["--csv", fresh, "--json-out", os.path.join(tmp, ".", "fresh.csv")], "fresh.csv",
                               "compare --csv X --json-out ./X")):
        refused(["compare", sim, meas] + flags, [name], what, cmp_inputs)
        check(not os.path.exists(fresh), "%s: wrote %s" % (what, fresh))
    check(leftovers(tmp) == [] and leftovers(sim_dir) == [],
          "refusals left temporaries: %s %s" % (leftovers(tmp), leftovers(sim_dir)))

    # ---- compare: all or none
    csv = os.path.join(tmp, "r.csv")
    with open(csv, "w") as f:
        f.write("old\n")
    pdf = os.path.join(tmp, "r.pdf")
    # the last output under a missing folder: its part cannot even be made
    rc, _, err = run(["compare", sim, meas, "--report", pdf, "--csv", csv,
                      "--json-out", os.path.join(tmp, "nowhere", "r.json")])
    check(rc == 1 and "nowhere" in err, "compare, --json-out unwritable: exit %d: %s" % (rc, err.strip()))
    check(not os.path.exists(pdf), "compare, --json-out unwritable: the report was written")
    check(open(csv).read() == "old\n", "compare, --json-out unwritable: the CSV was replaced")
    # the last output a folder: every part is written, the last rename fails
    folder = os.path.join(tmp, "r-folder.json")
    os.mkdir(folder)
    rc, _, err = run(["compare", sim, meas, "--report", pdf, "--csv", csv, "--json-out", folder])
    check(rc == 1 and "r-folder.json" in err, "compare, --json-out a folder: exit %d: %s" % (rc, err.strip()))
    check(not os.path.exists(pdf), "compare, --json-out a folder: the report was written")
    check(open(csv).read() == "old\n", "compare, --json-out a folder: the CSV was replaced")
    check(leftovers(tmp) == [], "compare all-or-none left %s" % leftovers(tmp))
    rc, _, err = run(["compare", sim, meas, "--report", pdf, "--csv", csv,
                      "--json-out", os.path.join(tmp, "r.json")])
    check(rc == 0 and os.path.getsize(pdf) > 0 and open(csv).read() != "old\n"
          and os.path.exists(os.path.join(tmp, "r.json")), "compare, all writable: exit %d: %s" % (rc, err.strip()))
    print("compare all-or-none checked")

    # ---- simulate: --out checked before the import and the solve
    mesh = os.path.join(tmp, "cube.obj")
    cube_obj(mesh)
    garbage = os.path.join(tmp, "garbage.obj")
    with open(garbage, "wb") as f:
        f.write(bytes(range(256)) * 4)
    tiny = ["--source", "0.7,0.8,0.9", "--fmax", "200", "--duration", "0.05", "--reflection", "0.9"]
    a_file = os.path.join(tmp, "a-file")
    with open(a_file, "w") as f:
        f.write("x\n")
    read_only = os.path.join(tmp, "read-only")
    os.mkdir(read_only)
    os.chmod(read_only, 0o555)
    foreign = os.path.join(tmp, "foreign")
    os.mkdir(foreign)
    with open(os.path.join(foreign, "notes.txt"), "w") as f:
        f.write("mine\n")
    here = os.path.join(tmp, "here")   # the current folder of the "." case
    os.mkdir(here)
    with_mesh = os.path.join(tmp, "with-mesh")
    os.mkdir(with_mesh)
    os.link(garbage, os.path.join(with_mesh, "receiver-1.wav"))   # a run's name, but the mesh
    cases = [
        (os.path.join(tmp, "missing-1", "missing-2", "out"), ["missing-1", "does not exist"], "--out two levels missing"),
        (os.path.join(a_file, "out"), ["a-file", "not a folder"], "--out under a file"),
        (a_file, ["a-file", "not a folder"], "--out a file"),
        (read_only, ["read-only"], "--out read-only"),
        (foreign, ["notes.txt", "not an output of a run"], "--out holds a foreign file"),
        (with_mesh, ["receiver-1.wav", "input"], "--out holds the mesh"),
        (".", ["current folder"], "--out the current folder"),
    ]
    for out, words, what in cases:
        t0 = time.monotonic()
        err = refused(["simulate", "--mesh", garbage, "--receiver", "1,1,1", "--out", out] + tiny,
                      words, what, [garbage], cwd=here)
        check(out == with_mesh or "garbage.obj" not in err, "%s: the mesh was read before --out was checked: %s" % (what, err.strip()))
        check(time.monotonic() - t0 < 20, "%s: took %.1f s" % (what, time.monotonic() - t0))
    check(not os.path.exists(os.path.join(tmp, "missing-1")), "a refused --out made folders")
    check(sorted(os.listdir(foreign)) == ["notes.txt"], "the foreign file was touched")
    check(sorted(os.listdir(read_only)) == [], "the read-only folder was written")
    if os.geteuid() != 0:
        ro_parent = os.path.join(tmp, "ro-parent")
        os.mkdir(ro_parent)
        os.chmod(ro_parent, 0o555)
        refused(["simulate", "--mesh", garbage, "--receiver", "1,1,1", "--out", os.path.join(ro_parent, "out")]
                + tiny, ["ro-parent"], "--out in a read-only folder", [garbage])
    check(leftovers(tmp) == [], "refused --out left %s" % leftovers(tmp))
    # one missing level is made for the run, and removed when the run fails
    rc, _, err = run(["simulate", "--mesh", garbage, "--receiver", "1,1,1",
                      "--out", os.path.join(tmp, "one-missing", "out")] + tiny)
    check(rc == 1 and "garbage.obj" in err, "a bad mesh under one missing level: exit %d: %s" % (rc, err.strip()))
    check(not os.path.exists(os.path.join(tmp, "one-missing")), "a failed run left the folder it made")

    # ---- simulate: a re-run leaves exactly its own files
    out = os.path.join(tmp, "out")
    rc, _, err = run(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--receiver", "1.2,1.1,1",
                      "--receiver", "1.3,1,1.2", "--out", out, "--quiet"] + tiny)
    check(rc == 0, "first run: exit %d: %s" % (rc, err.strip()))
    check(sorted(os.listdir(out)) == ["receiver-1.wav", "receiver-2.wav", "receiver-3.wav", "results.json"],
          "first run: %s" % sorted(os.listdir(out)))
    os.chmod(out, 0o750)
    rc, _, err = run(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--out", out + "/", "--quiet"] + tiny)
    check(rc == 0, "second run: exit %d: %s" % (rc, err.strip()))
    check(sorted(os.listdir(out)) == ["receiver-1.wav", "results.json"],
          "stale files after a re-run: %s" % sorted(os.listdir(out)))
    check(os.stat(out).st_mode & 0o777 == 0o750, "the folder's mode was not kept: %o" % os.stat(out).st_mode)
    with open(os.path.join(out, "results.json")) as f:
        check(json.load(f)["outputs"] == ["receiver-1.wav"], "results.json lists other files")
    rc, _, err = run(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--source", "1.4,1.4,1.4",
                      "--out", out, "--quiet"] + tiny)
    check(rc == 0 and sorted(os.listdir(out)) == ["source-1", "source-2"],
          "two sources over one: exit %d, %s" % (rc, sorted(os.listdir(out))))
    rc, _, err = run(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--out", out, "--quiet"] + tiny)
    check(rc == 0 and sorted(os.listdir(out)) == ["receiver-1.wav", "results.json"],
          "one source over two: exit %d, %s" % (rc, sorted(os.listdir(out))))
    link = os.path.join(tmp, "link-to-out")
    os.symlink(out, link)
    rc, _, err = run(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--receiver", "1.2,1.1,1",
                      "--out", link, "--quiet"] + tiny)
    check(rc == 0 and os.path.islink(link) and sorted(os.listdir(out)) == ["receiver-1.wav", "receiver-2.wav", "results.json"],
          "through a symbolic link: exit %d, %s" % (rc, sorted(os.listdir(out))))
    check(leftovers(tmp) == [], "re-runs left %s beside the folder" % leftovers(tmp))
    print("re-runs into one --out checked")

    # ---- simulate: a second writer fails at once
    before = snapshot(out)
    lock_path = os.path.join(tmp, ".out.lock")
    with open(lock_path, "w") as held:
        fcntl.flock(held, fcntl.LOCK_EX | fcntl.LOCK_NB)
        t0 = time.monotonic()
        refused(["simulate", "--mesh", mesh, "--receiver", "1,1,1", "--out", out] + tiny,
                ["another run", ".out.lock"], "second writer while the lock is held", [mesh])
        check(time.monotonic() - t0 < 20, "second writer: took %.1f s" % (time.monotonic() - t0))
        check(snapshot(out) == before, "second writer changed --out")
    os.unlink(lock_path)

    # ---- simulate: Ctrl-C in the writing phase keeps the previous folder
    env = dict(os.environ, ROOMWAVE_TEST_WRITE_PAUSE_S="60")
    p = subprocess.Popen([CLI, "simulate", "--mesh", mesh, "--receiver", "1.5,1.5,1.5", "--out", out, "--quiet"]
                         + tiny, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = p.stderr.readline()
    check("test hook" in line, "no test-hook line: %r" % line)
    p.send_signal(signal.SIGINT)
    sout, serr = communicate_or_kill(p, "SIGINT in the writing phase did not stop the run")
    check(p.returncode == 1 and "cancelled" in serr, "Ctrl-C while writing: exit %d: %s" % (p.returncode, serr.strip()))
    check(snapshot(out) == before, "Ctrl-C while writing changed --out: %s" % sorted(snapshot(out)))
    check(leftovers(tmp) == [], "Ctrl-C while writing left %s" % leftovers(tmp))
    check(sout == "", "Ctrl-C while writing printed a summary: %r" % sout)
    print("Ctrl-C in the writing phase checked")

    os.chmod(read_only, 0o755)

sys.exit(finish())
