#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-simulate-errors: `roomwave-cli simulate` answers every bad input with
exit 1 (bad file or point, message naming it) or 2 (bad usage), never
crashes, and leaves no half-written file; a good tiny run exits 0 and
writes the IRs and results.json (its timings: the stages, the solver's
setup and the writing, total_s at least the stages' sum); --json prints the
same JSON; two sources
give a run each in source-N/ (a JSON array), the nearer source's direct
sound earlier by the difference of the distances over c, and a second
source outside fails naming it; Ctrl-C cancels with exit 1 and
"cancelled" and writes nothing; --progress-json prints one JSON progress
report a line on stdout (no summary, no progress line on stderr) and is
refused with --json or --quiet.

Environment: ROOMWAVE_CLI (the binary), ROOMWAVE_DATA_DIR (data/)."""
import json
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time

from rwcheck import check, communicate_or_kill, finish

CLI = os.environ["ROOMWAVE_CLI"]
DATA = os.environ.get("ROOMWAVE_DATA_DIR", "")


def run(args, timeout=120):
    p = subprocess.run([CLI, "simulate"] + args, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def box_obj(path, size=2.0, drop_face=False, nan=False):
    """A closed, outward box [0, size]³ with one surface per face."""
    L = size
    v = [(0, 0, 0), (L, 0, 0), (L, L, 0), (0, L, 0), (0, 0, L), (L, 0, L), (L, L, L), (0, L, L)]
    faces = {
        "floor": [(1, 3, 2), (1, 4, 3)],
        "ceiling": [(5, 6, 7), (5, 7, 8)],
        "wall_y0": [(1, 2, 6), (1, 6, 5)],
        "wall_y1": [(4, 8, 7), (4, 7, 3)],
        "wall_x0": [(1, 5, 8), (1, 8, 4)],
        "wall_x1": [(2, 3, 7), (2, 7, 6)],
    }
    with open(path, "w") as f:
        for i, (x, y, z) in enumerate(v):
            if nan and i == 6:
                f.write("v nan %g %g\n" % (y, z))
            else:
                f.write("v %g %g %g\n" % (x, y, z))
        for name, tris in faces.items():
            if drop_face and name == "ceiling":
                continue
            f.write("g %s\n" % name)
            for t in tris:
                f.write("f %d %d %d\n" % t)


def expect(args, code, words, what):
    rc, out, err = run(args)
    check(rc == code, "%s: exit %d, expected %d (stderr: %s)" % (what, rc, code, err.strip()))
    for w in words:
        check(w in err, "%s: stderr lacks %r: %s" % (what, w, err.strip()))
    check("Traceback" not in err and "AddressSanitizer" not in err and "runtime error" not in err,
          "%s: crashed: %s" % (what, err))
    print("%-28s exit %d: %s" % (what, rc, err.strip().splitlines()[0] if err.strip() else ""))
    return rc, out, err


def files_in(d):
    return sorted(os.listdir(d)) if os.path.isdir(d) else []


with tempfile.TemporaryDirectory() as tmp:
    good = os.path.join(tmp, "box.obj")
    box_obj(good)
    empty = os.path.join(tmp, "empty.obj")
    open(empty, "w").close()
    garbage = os.path.join(tmp, "garbage.obj")
    with open(garbage, "wb") as f:
        f.write(bytes(range(256)) * 8)
    nanfile = os.path.join(tmp, "nan.obj")
    box_obj(nanfile, nan=True)
    openfile = os.path.join(tmp, "open.obj")
    box_obj(openfile, drop_face=True)
    missing = os.path.join(tmp, "missing.obj")
    out = os.path.join(tmp, "out")
    base = ["--source", "0.5,0.5,0.5", "--receiver", "1.5,1.2,1.0", "--fmax", "200",
            "--duration", "0.05", "--reflection", "0.9", "--out", out]

    # Bad files: exit 1, the message names the file.
    expect(["--mesh", missing] + base, 1, ["missing.obj"], "missing mesh")
    expect(["--mesh", empty] + base, 1, ["empty.obj"], "empty mesh")
    expect(["--mesh", garbage] + base, 1, ["garbage.obj"], "garbage mesh")
    expect(["--mesh", nanfile] + base, 1, ["nan.obj"], "NaN coordinates")
    expect(["--mesh", openfile] + base, 1, ["open.obj"], "open mesh")
    bad_map = os.path.join(tmp, "map.json")
    with open(bad_map, "w") as f:
        f.write('{"floor": "no such material at all"')
    expect(["--mesh", good, "--source", "0.5,0.5,0.5", "--receiver", "1.5,1.2,1.0", "--fmax", "200",
            "--duration", "0.05", "--materials", bad_map, "--out", out], 1, ["map.json"], "broken materials map")
    check(not os.path.exists(out), "a failed run created the output folder")

    # An output "folder" that is a file: exit 1, the path named.
    not_dir = os.path.join(tmp, "not-a-folder")
    open(not_dir, "w").close()
    expect(["--mesh", good] + base[:-2] + ["--out", not_dir], 1, ["not-a-folder"], "--out is a file")

    # Points outside the room: exit 1, the point named.
    expect(["--mesh", good, "--source", "5,0.5,0.5", "--receiver", "1.5,1.2,1.0", "--fmax", "200",
            "--duration", "0.05", "--out", out], 1, ["source", "5.00"], "source outside")
    expect(["--mesh", good, "--source", "0.5,0.5,0.5", "--receiver", "1,1,1", "--receiver", "1,1,-3",
            "--fmax", "200", "--duration", "0.05", "--out", out], 1, ["receiver 2", "-3.00"],
           "receiver outside")

    # Bad usage: exit 2.
    g = ["--mesh", good]
    for args, word, what in [
        (g + base + ["--fmax", "abc"], "--fmax", "fmax not a number"),
        (g + base + ["--fmax", "1e999"], "--fmax", "fmax overflow"),
        (g + base + ["--duration", "nan"], "--duration", "duration NaN"),
        (g + base + ["--duration", "-1"], "--duration", "negative duration"),
        (g + ["--source", "1,2", "--receiver", "1,1,1"], "--source", "source with two numbers"),
        (g + ["--source", "nan,1,1", "--receiver", "1,1,1"], "--source", "source NaN"),
        (g + ["--source", "1,1,1", "--receiver", "1,1,x"], "--receiver", "receiver not numbers"),
        (g + ["--source", "1,,1,1", "--receiver", "1,1,1"], "1,,1,1", "source with an empty field"),
        (g + ["--source", "1,1,1,", "--receiver", "1,1,1"], "1,1,1,", "source with a trailing comma"),
        (g + ["--source", "1,1,1,1", "--receiver", "1,1,1"], "1,1,1,1", "source with four numbers"),
        (g + ["--source", "1,1,1", "--receiver", ",1,1,1"], "--receiver", "receiver with a leading comma"),
        (g + ["--source", "1,1,1", "--receiver", "1,1,1x"], "--receiver", "receiver with trailing garbage"),
        (g + base + ["--reflection", "-1"], "Savioja", "R = -1 with the FV boundary"),
        (g + base + ["--reflection", "-1", "--boundary", "lrs"], "--reflection", "R = -1 with LRS"),
        (g + base + ["--reflection", "1.5"], "--reflection", "R out of range"),
        (g + base + ["--materials", bad_map], "exclude", "both --reflection and --materials"),
        (g + base + ["--boundary", "rigid"], "--boundary", "unknown boundary"),
        (g + base + ["--backend", "opencl"], "--backend", "unknown backend"),
        (g + base + ["--precision", "f8"], "--precision", "unknown precision"),
        (g + base + ["--threads", "0"], "--threads", "zero threads"),
        (g + base + ["--ppw", "2"], "--ppw", "too few points per wavelength"),
        (g + base + ["--humidity", "101"], "--humidity", "humidity over 100 %"),
        (g + base + ["--humidity", "-1"], "--humidity", "negative humidity"),
        (g + base + ["--humidity", "nan"], "--humidity", "humidity NaN"),
        (g + base + ["--humidity", "wet"], "--humidity", "humidity not a number"),
        (g + base + ["--humidity"], "--humidity", "humidity without a value"),
        (g + base + ["--no-air-absorption=1"], "no-air-absorption", "--no-air-absorption with a value"),
        (g + base + ["--frobnicate"], "frobnicate", "unknown option"),
        (base, "--mesh", "missing --mesh"),
        (g + ["--receiver", "1,1,1"], "--source", "missing --source"),
        (g + ["--source", "1,1,1"], "--receiver", "missing --receiver"),
        (g + base + ["extra"], "extra", "stray argument"),
        (g + ["--source", "1,1,1", "--receiver", "1,1,1:cardioid"], "unknown receiver type",
         "unknown receiver type"),
        (g + ["--source", "1,1,1", "--receiver", "1,1,1:ambisonic=4"], "between 1 and 3",
         "ambisonic order 4"),
        (g + ["--source", "1,1,1", "--receiver", "1,1,1:binaural,yaw=400"], "yaw",
         "yaw out of range"),
        (g + base + ["--hrtf", bad_map], "--hrtf", "--hrtf without a binaural receiver"),
        (g + base + ["--scheme", "yee"], "--scheme", "unknown scheme"),
    ]:
        expect(args, 2, [word], what)
    # The FCC scheme has the FV boundary only (issue #14): refused with
    # exit 1, naming what it lacks.
    expect(g + base + ["--scheme", "fcc", "--boundary", "lrs"], 1, ["FCC", "lrs"], "fcc with LRS")
    check(not os.path.exists(out), "a usage error created the output folder")
    # A binaural receiver runs on it (its probe the lattice's sites): in
    # this 2 m box at 200 Hz (0.30 m cells) its wave part has room for
    # order 1 only, said in a warning, and the binaural file is written.
    fcc_out = os.path.join(tmp, "fcc-binaural")
    rc, _, err = expect(g + ["--source", "0.6,0.7,0.8", "--receiver", "1.2,1.1,1.0:binaural", "--fmax", "200",
                             "--duration", "0.05", "--reflection", "0.9", "--scheme", "fcc", "--no-hybrid",
                             "--out", fcc_out], 0, ["receiver 1", "order 1"], "fcc with a binaural receiver")
    check(os.path.exists(os.path.join(fcc_out, "receiver-1-binaural.wav")),
          "fcc with a binaural receiver: no binaural file: %s" % files_in(fcc_out))

    rc, hout, _ = run(["--help"])
    check(rc == 0 and "--mesh" in hout and "--receiver" in hout, "--help")
    check("--humidity PCT" in hout and "--no-air-absorption" in hout, "--help lacks the air absorption")

    # A good tiny run.
    rc, sout, serr = run(["--mesh", good] + base + ["--receiver", "1.0,1.5,1.5"])
    check(rc == 0, "good run: exit %d: %s" % (rc, serr))
    print("good run stdout:\n" + sout)
    check(files_in(out) == ["receiver-1.wav", "receiver-2.wav", "results.json"],
          "outputs: %s" % files_in(out))
    for name in ("receiver-1.wav", "receiver-2.wav"):
        with open(os.path.join(out, name), "rb") as f:
            head = f.read(64)
        check(head[:4] == b"RIFF" and head[8:12] == b"WAVE", name + " is not a WAV")
        fmt_tag, channels, rate = struct.unpack("<HHI", head[20:28])
        bits = struct.unpack("<H", head[34:36])[0]
        check((fmt_tag in (3, 0xFFFE)) and channels == 1 and rate == 48000 and bits == 32,
              "%s: format %d, %d ch, %d Hz, %d bits" % (name, fmt_tag, channels, rate, bits))
    with open(os.path.join(out, "results.json")) as f:
        res = json.load(f)
    for key in ("roomwave_version", "mesh_file", "settings", "fs_grid_hz", "fs_out_hz", "spacing_m",
                "grid", "cells", "volumes", "surfaces", "outputs", "timings", "mvox_per_s", "validity"):
        check(key in res, "results.json lacks " + key)
    check(res.get("settings", {}).get("fmax_hz") == 200, "fmax_hz in settings")
    check(res.get("outputs") == ["receiver-1.wav", "receiver-2.wav"], "outputs list")
    check(abs(res.get("volumes", {}).get("mesh_m3", 0) - 8.0) < 1e-6, "mesh volume 8 m³")
    check(all(abs(s["R"] - 0.9) < 1e-12 for s in res.get("surfaces", [])), "every R = 0.9")
    check(len(res.get("surfaces", [])) == 6, "six surfaces")
    check("Grid" in sout and "results.json" in sout, "summary on stdout")
    # Air absorption on by default at 20 °C, 50 %: recorded with each band's
    # ISO 9613-1 coefficient (the 1 kHz value against ISO 9613-2 Table 2's
    # neighbours is checked in air-absorption-iso; here 4.665 dB/km).
    st = res.get("settings", {})
    air = st.get("air_absorption", {})
    check(st.get("humidity_pct") == 50 and air.get("enabled") is True, "air absorption default: %r, %r"
          % (st.get("humidity_pct"), air.get("enabled")))
    check(res.get("version") == 2 and res.get("version_minor") == 6, "version %r.%r"
          % (res.get("version"), res.get("version_minor")))
    # Where the time goes (issue #14, 2.6): the solver's setup and the
    # WAVs' writing are timed too; total_s holds every stage but the
    # writing (they are nested intervals of one clock, so the sum cannot
    # exceed it but by rounding), and the summary names them.
    tim = res.get("timings", {})
    stages = ("import_s", "voxelise_s", "setup_s", "solve_s", "postprocess_s", "geometrical_s", "join_s")
    check(all(isinstance(tim.get(k), (int, float)) and tim[k] >= 0 for k in stages + ("total_s", "write_s")),
          "timings: %r" % tim)
    if all(isinstance(tim.get(k), (int, float)) for k in stages + ("total_s", "write_s")):
        check(tim["write_s"] > 0, "writing two WAVs took no time: %r" % tim)
        check(tim["total_s"] >= sum(tim[k] for k in stages) - 1e-9,
              "total_s %r < the stages' sum %r: %r" % (tim["total_s"], sum(tim[k] for k in stages), tim))
    check("setup" in sout and "writing the WAVs" in sout, "the summary's timings lack setup, writing")
    # The scheme (issue #14): auto resolves to the FCC scheme (FV boundary,
    # omnidirectional receivers), at its default points per wavelength, λ = 1;
    # the worst-direction phase-velocity error at fmax is recorded (−1.95 %
    # at 5.75 along the body diagonal, the dispersion relation).
    disp = res.get("dispersion", {})
    check(st.get("scheme") == "fcc" and st.get("scheme_requested") == "auto"
          and st.get("ppw") == 5.75 and abs(res.get("courant", 0) - 1.0) < 1e-12
          and abs(disp.get("phase_velocity_error_at_fmax", 0) + 0.019534) < 5e-5
          and disp.get("worst_direction") == "body diagonal",
          "scheme settings: %r %r %r %r %r" % (st.get("scheme"), st.get("scheme_requested"),
                                               st.get("ppw"), res.get("courant"), disp))
    check("Scheme         fcc" in sout, "the summary names the scheme")
    # --scheme fcc: 5.75 points per wavelength, λ = 1, fs = c/h, the FCC
    # scheme's error (−1.95 %), sites on half the cells.
    fcc_out = out + "-fcc"
    rc, fout, ferr = run(["--mesh", good] + base + ["--receiver", "1.0,1.5,1.5", "--scheme", "fcc",
                                                    "--out", fcc_out])
    check(rc == 0, "--scheme fcc: exit %d: %s" % (rc, ferr))
    if rc == 0:
        with open(os.path.join(fcc_out, "results.json")) as f:
            fres = json.load(f)
        fst, fdisp = fres.get("settings", {}), fres.get("dispersion", {})
        h = fres.get("spacing_m", 0)
        c = fst.get("c_m_per_s", 0)
        check(fst.get("scheme") == "fcc" and fst.get("ppw") == 5.75 and fres.get("courant") == 1
              and abs(h - c / (200 * 5.75)) < 1e-12 and abs(fres.get("fs_grid_hz", 0) - c / h) < 1e-6
              and abs(fdisp.get("phase_velocity_error_at_fmax", 0) + 0.01953) < 5e-5
              and fdisp.get("worst_direction") == "body diagonal",
              "--scheme fcc: %r %r %r %r %r" % (fst.get("scheme"), fst.get("ppw"), fres.get("courant"),
                                                fres.get("fs_grid_hz"), fdisp))
        # the lattice's box: round (2/h) whole cells a side, half of them sites of 2h³
        side = round(2.0 / h) * h if h > 0 else 0
        check(abs(fres.get("volumes", {}).get("grid_m3", 0) - side ** 3) < 0.02 * side ** 3,
              "--scheme fcc: grid volume %r m³, the lattice's box %.3f m³"
              % (fres.get("volumes", {}).get("grid_m3"), side ** 3))
        check(files_in(fcc_out) == ["receiver-1.wav", "receiver-2.wav", "results.json"],
              "--scheme fcc outputs: %s" % files_in(fcc_out))
    bands = {b.get("centre_hz"): b.get("alpha_db_per_m") for b in air.get("bands", [])}
    check(abs(bands.get(1000, 0) * 1000 - 4.665) < 0.001, "1 kHz band: %r dB/m" % bands.get(1000))
    check("Air" in sout and "50 % relative humidity" in sout, "summary lacks the air: %s" % sout)

    # An ambisonic receiver (issue #13): its AmbiX file beside the omni IR,
    # and results.json says what it is.
    out_sp = os.path.join(tmp, "spatial")
    rc, sout, serr = run(["--mesh", good, "--source", "0.5,0.5,0.5", "--receiver",
                          "1.5,1.2,1.0:ambisonic=2,yaw=45", "--fmax", "200", "--duration", "0.05",
                          "--reflection", "0.9", "--rays", "500", "--out", out_sp])
    check(rc == 0, "ambisonic run: exit %d: %s" % (rc, serr))
    check(files_in(out_sp) == ["receiver-1-ambix.wav", "receiver-1.wav", "results.json"],
          "ambisonic outputs: %s" % files_in(out_sp))
    if os.path.exists(os.path.join(out_sp, "receiver-1-ambix.wav")):
        with open(os.path.join(out_sp, "receiver-1-ambix.wav"), "rb") as f:
            head = f.read(64)
        channels = struct.unpack("<H", head[22:24])[0]
        check(channels == 9, "order 2: %d channels, not 9" % channels)
    with open(os.path.join(out_sp, "results.json")) as f:
        rcv = json.load(f)["settings"]["receivers"][0]
    check(rcv.get("type") == "ambisonic" and rcv.get("ambisonic_order") == 2
          and rcv.get("yaw_deg") == 45 and rcv.get("ambix_file") == "receiver-1-ambix.wav",
          "results.json receiver: %r" % rcv)
    check("receiver-1-ambix.wav (ambisonic order 2" in sout, "summary lacks the AmbiX file: %s" % sout)

    # --temperature 20 --humidity 70: ISO 9613-2 Table 2's row (63 Hz … 8 kHz).
    out3 = os.path.join(tmp, "humid")
    rc, jout, jerr = run(["--mesh", good] + base[:-2] + ["--out", out3, "--humidity", "70", "--json", "--quiet"])
    check(rc == 0, "--humidity 70: exit %d: %s" % (rc, jerr))
    if rc == 0:
        j = json.loads(jout)
        got = [b["alpha_db_per_m"] * 1000 for b in j["settings"]["air_absorption"]["bands"]][:8]
        table = [0.1, 0.3, 1.1, 2.8, 5.0, 9.0, 22.9, 76.6]
        check(j["settings"]["humidity_pct"] == 70 and all(abs(a - t) <= 0.06 for a, t in zip(got, table)),
              "20 °C, 70 %%: %r, ISO 9613-2 %r" % (got, table))
    # --no-air-absorption: recorded as off, no bands, and the IR differs.
    out6 = os.path.join(tmp, "dry-off")
    rc, jout, jerr = run(["--mesh", good] + base[:-2] + ["--out", out6, "--no-air-absorption", "--json",
                                                          "--quiet"])
    check(rc == 0, "--no-air-absorption: exit %d: %s" % (rc, jerr))
    if rc == 0:
        j = json.loads(jout)
        check(j["settings"]["air_absorption"]["enabled"] is False and j["settings"]["air_absorption"]["bands"] == [],
              "--no-air-absorption recorded as %r" % j["settings"]["air_absorption"])
        with open(os.path.join(out6, "receiver-1.wav"), "rb") as f:
            off = f.read()
        with open(os.path.join(out3, "receiver-1.wav"), "rb") as f:
            on = f.read()
        check(len(off) == len(on) and off != on, "--no-air-absorption gave the same IR")

    # R = -1 is what the Savioja boundary accepts: the wave part alone goes
    # ahead; the hybrid IR is refused before the solve (no admittance for
    # the geometrical part).
    rc, _, serr = run(["--mesh", good] + base + ["--reflection", "-1", "--boundary", "savioja",
                                                  "--quiet", "--no-hybrid"])
    check(rc == 0, "R = -1 with --boundary savioja: exit %d: %s" % (rc, serr))
    rc, _, serr = run(["--mesh", good] + base + ["--reflection", "-1", "--boundary", "savioja",
                                                  "--quiet"])
    check(rc == 1 and "pressure-release" in serr and "solving" not in serr,
          "R = -1, hybrid: exit %d (want 1, before the solve): %s" % (rc, serr))

    # A receiver on the source (the same grid cell): the wave part alone goes
    # ahead, with a warning naming the receiver; the hybrid IR is refused,
    # naming it, before the solve.
    rc, _, serr = run(["--mesh", good] + base[:2] + ["--receiver", "0.5,0.5,0.5"] + base[4:]
                      + ["--receiver", "0.52,0.5,0.5", "--no-hybrid"])
    check(rc == 0 and "warning" in serr and "receiver 1" in serr and "receiver 2" in serr,
          "receivers in the source's cell: exit %d, no warning naming them: %s" % (rc, serr))
    rc, _, serr = run(["--mesh", good] + base[:2] + ["--receiver", "0.5,0.5,0.5"] + base[4:])
    check(rc == 1 and "receiver 1" in serr and "source's grid cell" in serr and "solving" not in serr,
          "receiver in the source's cell, hybrid: exit %d (want 1, before the solve): %s" % (rc, serr))

    # Two overlapping closed boxes: one room, their union; a receiver inside
    # both is inside the room; the overlap is a warning. And a box with
    # inward normals is flipped, with a warning.
    meshes = os.path.join(os.environ["ROOMWAVE_TEST_DATA"], "meshes")
    rc, jout, serr = run(["--mesh", os.path.join(meshes, "two-boxes.obj"), "--source", "1,1,1",
                          "--receiver", "3.2,2,1.25", "--receiver", "6,3.5,1"] + base[4:] + ["--json"])
    check(rc == 0 and "overlap" in serr and "union" in serr,
          "two overlapping boxes, a receiver in both: exit %d: %s" % (rc, serr))
    if rc == 0:
        vol = json.loads(jout).get("volumes", {}).get("mesh_m3", 0)
        check(abs(vol - 52) < 0.02 * 52, "two overlapping boxes: mesh volume %g, union 52" % vol)
    rc, jout, serr = run(["--mesh", os.path.join(meshes, "box-inward.obj")] + base + ["--json"])
    check(rc == 0 and "flipped" in serr, "inward normals: exit %d: %s" % (rc, serr))
    if rc == 0:
        vol = json.loads(jout).get("volumes", {}).get("mesh_m3", 0)
        check(abs(vol - 30) < 1e-6, "inward box: mesh volume %g, expected 30" % vol)

    # The full-band options (issue #12): a crossover above fmax/1.293 and an
    # option of the geometrical part with --no-hybrid are usage errors,
    # refused before the import; --parts writes both parts beside the IR,
    # and results.json records the default crossover fmax/2.
    rc, _, serr = run(["--mesh", good] + base + ["--crossover", "190", "--out", os.path.join(tmp, "xo")])
    check(rc == 2 and "crossover" in serr, "--crossover above fmax/1.293: exit %d: %s" % (rc, serr))
    rc, _, serr = run(["--mesh", good] + base + ["--no-hybrid", "--rays", "100",
                                                  "--out", os.path.join(tmp, "xo")])
    check(rc == 2 and "--rays" in serr and "--no-hybrid" in serr,
          "--rays with --no-hybrid: exit %d: %s" % (rc, serr))
    parts = os.path.join(tmp, "parts")
    rc, jout, serr = run(["--mesh", good] + base + ["--parts", "--rays", "2000", "--out", parts, "--json"])
    check(rc == 0 and all(os.path.exists(os.path.join(parts, f))
                          for f in ("receiver-1.wav", "wave-1.wav", "geometrical-1.wav")),
          "--parts: exit %d, files %s: %s" % (rc, os.listdir(parts) if os.path.isdir(parts) else [], serr))
    if rc == 0:
        j = json.loads(jout)
        hyb = j.get("hybrid", {})
        check(abs(hyb.get("crossover_hz", 0) - 100.0) < 1e-9 and j["settings"]["hybrid"]["rays"] == 2000
              and hyb.get("outputs_wave") == ["wave-1.wav"]
              and hyb.get("outputs_geometrical") == ["geometrical-1.wav"],
              "--parts: results.json's hybrid object %r" % hyb)

    # --json prints the same document; --quiet silences stderr progress.
    out2 = os.path.join(tmp, "deeper", "out2")
    rc, jout, jerr = run(["--mesh", good] + base[:-2] + ["--out", out2, "--json", "--quiet"])
    check(rc == 0, "--json run: exit %d: %s" % (rc, jerr))
    try:
        j = json.loads(jout)
        check(j.get("grid") == res.get("grid"), "--json grid differs from results.json")
        # the writing's time is known before results.json is written: the
        # file and stdout record the same one
        with open(os.path.join(out2, "results.json")) as f:
            w2 = json.load(f).get("timings", {}).get("write_s")
        check(isinstance(w2, float) and w2 > 0 and j.get("timings", {}).get("write_s") == w2,
              "--json write_s %r, results.json's %r" % (j.get("timings", {}).get("write_s"), w2))
    except ValueError as e:
        check(False, "--json output does not parse: %s" % e)
    check(jerr.strip() == "", "--quiet printed on stderr: %r" % jerr)
    check(files_in(out2) == ["receiver-1.wav", "results.json"], "out2: %s" % files_in(out2))

    # --progress-json: every stdout line one progress report as JSON (one
    # rank without MPI, its speed the run's), fractions rising to 1, both
    # parts; no summary on stdout, no progress line on stderr; it goes
    # with neither --json nor --quiet.
    out7 = os.path.join(tmp, "progress-json")
    rc, pout, perr = run(["--mesh", good] + base[:-2] + ["--out", out7, "--progress-json"])
    check(rc == 0, "--progress-json run: exit %d: %s" % (rc, perr))
    reports = []
    for line in pout.splitlines():
        try:
            reports.append(json.loads(line))
        except ValueError:
            check(False, "--progress-json: a stdout line that is not JSON: %r" % line)
    check(len(reports) >= 2, "--progress-json: %d reports" % len(reports))
    for r in reports:
        check(set(r) == {"fraction", "step", "n_steps", "seconds_left", "part", "ranks"}
              and r["part"] in ("wave", "geometrical") and 0 <= r["fraction"] <= 1
              and 0 <= r["step"] <= r["n_steps"] and r["seconds_left"] >= 0
              and len(r["ranks"]) == 1 and r["ranks"][0]["rank"] == 0 and r["ranks"][0]["mvox_per_s"] >= 0,
              "--progress-json report %r" % r)
    wave = [r for r in reports if r.get("part") == "wave"]
    check(wave and wave[-1]["step"] == wave[-1]["n_steps"] and wave[-1]["fraction"] == 1
          and all(a["step"] <= b["step"] for a, b in zip(wave, wave[1:])),
          "--progress-json: the wave part's steps rise to n_steps: %r" % [r.get("step") for r in wave])
    check(any(r["ranks"][0]["mvox_per_s"] > 0 for r in wave), "--progress-json: the wave part's speed")
    check("solving:" not in perr and "geometrical part:" not in perr, "--progress-json: a progress line on stderr: %r" % perr)
    check(files_in(out7) == ["receiver-1.wav", "results.json"], "out7: %s" % files_in(out7))
    for extra in (["--json"], ["--quiet"]):
        expect(["--mesh", good] + base + ["--progress-json"] + extra, 2, ["--progress-json"],
               "--progress-json with %s" % extra[0])

    # Two sources: a run each, in out/source-N/; the direct sound of the
    # nearer source arrives earlier by the difference of the distances / c.
    out4 = os.path.join(tmp, "two")
    rcv = (1.5, 1.2, 1.0)
    srcs = [(0.5, 0.5, 0.5), (1.6, 1.5, 1.6)]
    rc, jout, jerr = run(["--mesh", good, "--source", "%g,%g,%g" % srcs[0], "--source", "%g,%g,%g" % srcs[1],
                          "--receiver", "%g,%g,%g" % rcv, "--fmax", "500", "--duration", "0.05",
                          "--reflection", "0.5", "--out", out4, "--json", "--quiet"])
    check(rc == 0, "two sources: exit %d: %s" % (rc, jerr))
    check(files_in(out4) == ["source-1", "source-2"], "two sources: %s" % files_in(out4))
    try:
        runs = json.loads(jout)
    except ValueError:
        runs = None
    check(isinstance(runs, list) and len(runs) == 2, "--json with two sources prints an array of two")
    peaks = []
    for k in (1, 2):
        d = os.path.join(out4, "source-%d" % k)
        check(files_in(d) == ["receiver-1.wav", "results.json"], "%s: %s" % (d, files_in(d)))
        try:
            with open(os.path.join(d, "receiver-1.wav"), "rb") as f:
                data = f.read()
            i = data.index(b"data") + 8
            x = struct.unpack("<%df" % ((len(data) - i) // 4), data[i:i + (len(data) - i) // 4 * 4])
            with open(os.path.join(d, "results.json")) as f:
                c = json.load(f)["settings"]["c_m_per_s"]
            peaks.append((max(range(len(x)), key=lambda n: abs(x[n])) / 48000.0, c))
        except (OSError, ValueError, struct.error) as e:
            check(False, "%s unreadable: %s" % (d, e))
    if len(peaks) == 2:
        dist = [sum((a - b) ** 2 for a, b in zip(s_, rcv)) ** 0.5 for s_ in srcs]
        want = (dist[0] - dist[1]) / peaks[0][1]
        got = peaks[0][0] - peaks[1][0]
        print("two sources: peaks at %.2f and %.2f ms, difference %.2f ms, (r1 - r2)/c %.2f ms"
              % (peaks[0][0] * 1e3, peaks[1][0] * 1e3, got * 1e3, want * 1e3))
        check(abs(got - want) < 0.5e-3, "peak difference %.2f ms, (r1 - r2)/c %.2f ms" % (got * 1e3, want * 1e3))
    # The second source outside: exit 1 naming it; the first's run is kept.
    out5 = os.path.join(tmp, "two-bad")
    rc, _, serr = run(["--mesh", good, "--source", "0.5,0.5,0.5", "--source", "5,0.5,0.5",
                       "--receiver", "1.5,1.2,1.0", "--fmax", "200", "--duration", "0.05", "--out", out5])
    check(rc == 1 and "source 2" in serr and "5.00" in serr, "second source outside: exit %d: %s" % (rc, serr))
    check(files_in(out5) == ["source-1"], "the first source's run is kept: %s" % files_in(out5))
    rc, _, serr = run(["--mesh", good] + base[:-2] + ["--out", out5] + ["--source", "1,1,1"] * 16)
    check(rc == 2 and "sources" in serr, "17 sources: exit %d: %s" % (rc, serr))

    # Ctrl-C: exit 1, "cancelled", nothing written. A run long enough to be
    # interrupted (the demo room at 1 kHz for 2 s takes minutes).
    demo = os.path.join(DATA, "rooms", "demo-room.obj")
    if os.path.exists(demo):
        out3 = os.path.join(tmp, "cancelled")
        p = subprocess.Popen([CLI, "simulate", "--mesh", demo, "--source", "2,2.5,1.5",
                              "--receiver", "5,3,1.2", "--fmax", "1000", "--duration", "2",
                              "--threads", "1", "--out", out3],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        # SIGINT once the solve has started (its first progress line), not
        # after a fixed time: under load the import and voxelising alone
        # can take longer than any fixed wait.
        head = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = p.stderr.readline()
            if not line:
                break
            head.append(line)
            if "solving" in line:
                break
        p.send_signal(signal.SIGINT)
        sout, serr = communicate_or_kill(p, "SIGINT did not stop the run")
        serr = "".join(head) + serr
        print("cancelled run: exit %d, stderr tail: %s" % (p.returncode, serr.strip().splitlines()[-1:]))
        check(p.returncode == 1, "cancel: exit %d" % p.returncode)
        check("cancelled" in serr, "cancel: stderr lacks 'cancelled': %s" % serr[-300:])
        check(files_in(out3) == [], "cancel left files: %s" % files_in(out3))
        check("solving" in serr, "no progress line on stderr")
    else:
        print("demo room not found, cancel case not run")

sys.exit(finish())
