#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-analyse: `roomwave-cli analyse` on synthetic impulse responses written
here as 32-bit float WAV files: exponentially decaying random-sign noise
with T60 = 1.0 s over a -70 dB noise floor gives T30, T20 and EDT within 2 %
(broadband, --json); the JSON holds the documented keys, 8 bands
63 Hz ... 8 kHz; --fmax and a results.json beside the IR mark the bands
whose upper edge lies above fmax; a -30 dB floor leaves T30 null with the
reason; the text table shows the dash and the reason; a stereo file needs
--channel. Several IRs give each table and their spatial average (the
mean over the IRs that have a value, with the counts; a noisy IR without
T30 leaves T30 to the others). Empty, garbage, missing, zero-length and
silent files exit 1 naming the file with nothing on stdout, also among
several; a results folder (and one of several sources) gives every
receiver WAV it lists with the folder's fmax, as the WAVs named one by one
do, and a folder without results.json, with a missing WAV or of a newer
format version exits 1 naming the file; bad usage exits 2; --help exits 0.
A wave-only folder (--no-hybrid) flags the bands above its fmax as
before, all "wave", no crossover; a hybrid folder (issue #12) flags none
(valid to the Nyquist frequency), names each band's method as the rule of
docs/GEOMETRICAL.md gives it (computed here independently), has the
crossover in the JSON and the table, also in the average and for its WAV
named alone; its --parts WAVs read as a wave-only IR and a geometrical
one; --fmax wins over the folder; a bad method in it exits 1.

Environment (tests/meson.build): ROOMWAVE_CLI, ROOMWAVE_TEST_DATA."""
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile

from rwcheck import check, finish

cli = os.environ["ROOMWAVE_CLI"]
RATE = 48000


def run(*args):
    p = subprocess.run([cli, "analyse", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def write_float_wav(path, frames, channels=1, rate=RATE):
    """frames: list of samples (mono) or of tuples (multichannel)."""
    flat = []
    for f in frames:
        flat.extend(f if channels > 1 else (f,))
    data = struct.pack("<%df" % len(flat), *flat)
    fmt = struct.pack("<HHIIHHH", 3, channels, rate, rate * 4 * channels, 4 * channels, 32, 0)
    fact = struct.pack("<I", len(frames))
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
            + b"fact" + struct.pack("<I", 4) + fact
            + b"data" + struct.pack("<I", len(data)) + data)
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def decay_ir(T, floor_db, seed=7, duration=None):
    """Random-sign noise whose energy falls 60 dB in T (its square is the
    envelope exactly), after 50 ms of Gaussian background noise."""
    rng = random.Random(seed)
    t_floor = T * -floor_db / 60.0
    duration = duration or (0.05 + t_floor + max(1.0, 0.4 * t_floor))
    fl = 10 ** (floor_db / 20) * 0.5
    out = []
    for i in range(int(duration * RATE)):
        t = i / RATE - 0.05
        v = 0.0
        if t >= 0:
            v = 0.5 * math.exp(-0.5 * 13.815510557964274 * t / T) * (1 if rng.random() < 0.5 else -1)
        out.append(v + fl * rng.gauss(0, 1))
    return out


# exact octave midband frequencies 63 Hz ... 8 kHz (IEC 61260-1, base 10)
exact_centres = [1000 * 10 ** (0.3 * (b - 4)) for b in range(8)]


def hybrid_methods(fc):
    """The method per octave band of a hybrid IR with crossover fc, from the
    rule of docs/GEOMETRICAL.md: the band holding fc, or overlapping the
    transition band [fc/sqrt2, (2 - 1/sqrt2) fc] by more than 1/24 octave,
    is "both"; below it "wave"; above it "geometrical"."""
    lo, hi = fc / math.sqrt(2), (2 - 1 / math.sqrt(2)) * fc
    out = []
    for c in exact_centres:
        lower, upper = c / 10 ** 0.15, c * 10 ** 0.15
        a, z = max(lower, lo), min(upper, hi)
        if (lower <= fc < upper) or (z > a and math.log2(z / a) > 1 / 24):
            out.append("both")
        else:
            out.append("wave" if upper <= fc else "geometrical")
    return out


tmp = tempfile.mkdtemp(prefix="rw-cli-analyse-")
sim_dir = os.path.join(tmp, "sim")
os.mkdir(sim_dir)

ir = decay_ir(1.0, -70.0)
good = os.path.join(tmp, "room.wav")
write_float_wav(good, ir)

# --json: keys, bands, values.
rc, out, err = run(good, "--json")
check(rc == 0, f"--json exit {rc}: {err}")
j = json.loads(out) if rc == 0 else {}
for k in ["file", "rate_hz", "fmax_hz", "bands", "broadband"]:
    check(k in j, f"key {k}")
check(j.get("rate_hz") == RATE, f"rate {j.get('rate_hz')}")
check(j.get("fmax_hz") is None, "fmax null for an IR without results.json")
bands = j.get("bands", [])
check([b.get("center_hz") for b in bands] == [63, 125, 250, 500, 1000, 2000, 4000, 8000],
      f"band centres {[b.get('center_hz') for b in bands]}")
BAND_KEYS = ["EDT_s", "T20_s", "T30_s", "C50_db", "C80_db", "D50", "Ts_s", "T20_range_db",
             "T30_range_db", "noise_floor_db", "above_fmax", "absent"]
for b in bands + [j.get("broadband", {})]:
    for k in BAND_KEYS:
        check(k in b, f"key {k} in band {b.get('center_hz', 'broadband')}")
bb = j.get("broadband", {})
for k in ["EDT_s", "T20_s", "T30_s"]:
    v = bb.get(k)
    check(v is not None and abs(v - 1.0) <= 0.02, f"broadband {k} = {v}, expected 1.0 s within 2 %")
print("broadband:", {k: bb.get(k) for k in ["EDT_s", "T20_s", "T30_s", "C50_db", "noise_floor_db"]})
# Closed form for the ratios of a pure exponential (docs/ANALYSIS.md).
q50 = math.exp(-13.815510557964274 * 0.05 / 1.0)
check(bb.get("C50_db") is not None and abs(bb["C50_db"] - 10 * math.log10((1 - q50) / q50)) < 0.2,
      f"broadband C50 {bb.get('C50_db')}")
check(all(not b["above_fmax"] for b in bands), "no band above fmax without fmax")
# Per band the decay is the same: T30 within 5 % from 500 Hz up. (Random-sign
# noise is white; in a band its energy scatters like any noise, the more the
# narrower the band: at 63 Hz the T30 of one realisation is off by 10 %.)
for b in bands[3:]:
    check(b["T30_s"] is not None and abs(b["T30_s"] - 1.0) < 0.05,
          f"{b['center_hz']} Hz T30 {b['T30_s']}")

# --fmax 1000: bands with upper edge above 1 kHz (1 k … 8 k) marked.
rc, out, err = run(good, "--json", "--fmax", "1000")
j = json.loads(out) if rc == 0 else {"bands": []}
check(j.get("fmax_hz") == 1000, f"fmax {j.get('fmax_hz')}")
check([b["above_fmax"] for b in j["bands"]] == [False] * 4 + [True] * 4,
      f"above_fmax with --fmax 1000: {[b['above_fmax'] for b in j['bands']]}")
rc, out, err = run(good, "--fmax", "1000")
check(rc == 0 and "1 kHz*" in out and "above fmax" in out, f"text marks bands above fmax: {out}")

# results.json beside the IR: fmax_hz 2000 → 2 k … 8 k marked; --fmax wins.
sim_ir = os.path.join(sim_dir, "ir.wav")
write_float_wav(sim_ir, ir)
with open(os.path.join(sim_dir, "results.json"), "w") as f:
    json.dump({"settings": {"fmax_hz": 2000.0}}, f)
rc, out, err = run(sim_ir, "--json")
j = json.loads(out) if rc == 0 else {"bands": []}
check(j.get("fmax_hz") == 2000, f"fmax from results.json {j.get('fmax_hz')}: {err}")
check([b["above_fmax"] for b in j["bands"]] == [False] * 5 + [True] * 3,
      f"above_fmax from results.json: {[b['above_fmax'] for b in j['bands']]}")
rc, out, err = run(sim_ir, "--json", "--fmax", "500")
j = json.loads(out) if rc == 0 else {}
check(j.get("fmax_hz") == 500, "--fmax overrides results.json")
rc, out, err = run(sim_ir, "--json", "--fmax", "none")
j = json.loads(out) if rc == 0 else {"bands": []}
check(j.get("fmax_hz") is None and not any(b["above_fmax"] for b in j["bands"]),
      "--fmax none ignores results.json")
with open(os.path.join(sim_dir, "results.json"), "w") as f:
    f.write("{ not json")
rc, out, err = run(sim_ir)
check(rc == 1 and "results.json" in err and out == "", f"bad results.json: exit {rc} {err}")

# A -30 dB floor: T30 and T20 absent with the reason; text shows dash + reason.
short = os.path.join(tmp, "noisy.wav")
write_float_wav(short, decay_ir(0.5, -30.0, seed=3))
rc, out, err = run(short, "--json")
j = json.loads(out) if rc == 0 else {}
bb = j.get("broadband", {})
check(bb.get("T30_s") is None, f"T30 with a 30 dB range: {bb.get('T30_s')}")
check("decay range" in bb.get("absent", {}).get("T30_s", ""), f"reason: {bb.get('absent')}")
check(bb.get("EDT_s") is not None and abs(bb["EDT_s"] - 0.5) < 0.02, f"EDT {bb.get('EDT_s')}")
rc, out, err = run(short)
check(rc == 0 and "\u2014" in out and "T30: decay range" in out, f"text absent values: {out}")

# Stereo: --channel picks; without it, a message.
stereo = os.path.join(tmp, "stereo.wav")
write_float_wav(stereo, [(0.0, v) for v in ir], channels=2)
rc, out, err = run(stereo, "--json", "--channel", "1")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and abs((j.get("broadband", {}).get("T30_s") or 0) - 1.0) < 0.02,
      f"stereo channel 1: exit {rc} {err}")
rc, out, err = run(stereo)
check(rc == 1 and stereo in err and out == "", f"stereo without --channel: exit {rc} {err}")
rc, out, err = run(good, "--channel", "3")
check(rc == 1 and good in err, f"missing channel: exit {rc} {err}")

# Bad files: exit 1, the file named, nothing on stdout.
empty = os.path.join(tmp, "empty.wav")
open(empty, "wb").close()
garbage = os.path.join(tmp, "garbage.wav")
with open(garbage, "wb") as f:
    f.write(b"RIFF\x10\x00\x00\x00WAVEfmt this is not audio at all" * 10)
zero = os.path.join(tmp, "zero.wav")
write_float_wav(zero, [])
silent = os.path.join(tmp, "silent.wav")
write_float_wav(silent, [0.0] * 48000)
missing = os.path.join(tmp, "missing.wav")
for path in [empty, garbage, zero, silent, missing]:
    for extra in [[], ["--json"]]:
        rc, out, err = run(path, *extra)
        check(rc == 1, f"{os.path.basename(path)} {extra}: exit {rc}, expected 1")
        check(path in err, f"{os.path.basename(path)}: message names the file: {err!r}")
        check(out == "", f"{os.path.basename(path)}: stdout not empty: {out!r}")

# Several IRs (positions): each analysed, then the spatial average, the
# mean of each value over the IRs that have it.
p12 = os.path.join(tmp, "t12.wav")
p14 = os.path.join(tmp, "t14.wav")
write_float_wav(p12, decay_ir(1.2, -70.0, seed=11))
write_float_wav(p14, decay_ir(1.4, -70.0, seed=13))
rc, out, err = run(good, p12, p14, "--json")
j = json.loads(out) if rc == 0 else {}
files, avg = j.get("files", []), j.get("average", {})
check(rc == 0 and len(files) == 3 and avg.get("averaged_irs") == 3, f"three IRs: exit {rc} {err}")
if len(files) == 3 and avg:
    t30 = [f["broadband"]["T30_s"] for f in files]
    check(all(t is not None for t in t30), f"T30 of each: {t30}")
    check(abs(avg["broadband"]["T30_s"] - sum(t30) / 3) < 1e-9, f"mean T30 {avg['broadband']['T30_s']} of {t30}")
    check(abs(avg["broadband"]["T30_s"] - 1.2) < 0.03, f"mean T30 {avg['broadband']['T30_s']}, expected 1.2")
    check(avg["broadband"]["n_values"] == {"EDT": 3, "T20": 3, "T30": 3, "C50_C80_D50_Ts": 3},
          f"counts {avg['broadband'].get('n_values')}")
    c80 = [f["broadband"]["C80_db"] for f in files]
    check(abs(avg["broadband"]["C80_db"] - sum(c80) / 3) < 1e-9, "mean C80")
    check([b["center_hz"] for b in avg["bands"]] == [63, 125, 250, 500, 1000, 2000, 4000, 8000], "average bands")
# The noisy IR has no T30: T30 is averaged over the other two, EDT over all.
rc, out, err = run(good, p14, short, "--json")
j = json.loads(out) if rc == 0 else {}
avg, files = j.get("average", {}).get("broadband", {}), j.get("files", [])
if rc == 0 and len(files) == 3:
    check(abs(avg["T30_s"] - (files[0]["broadband"]["T30_s"] + files[1]["broadband"]["T30_s"]) / 2) < 1e-9,
          f"T30 over the two that have it: {avg.get('T30_s')}")
    check(avg["n_values"]["T30"] == 2 and avg["n_values"]["EDT"] == 3, f"counts {avg.get('n_values')}")
else:
    check(False, f"three IRs with a noisy one: exit {rc} {err}")
rc, out, err = run(good, short)
check(rc == 0 and "Spatial average of 2" in out and "T30: 1 of 2" in out and out.count(" EDT ") == 3,
      f"text: two tables, the average, the fewer-values note: {out[-600:]}")
# One bad file among them: exit 1 naming it, nothing on stdout.
rc, out, err = run(good, garbage, "--json")
check(rc == 1 and garbage in err and out == "", f"a bad file among several: exit {rc} {err!r} {out[:80]!r}")

# A results folder (docs/RESULTS.md), as `simulate --out` writes it: every
# receiver WAV it lists, fmax from its results.json; with several sources,
# every DIR/source-N/. The values equal those of the WAVs named one by one.
mesh = os.path.join(os.environ["ROOMWAVE_TEST_DATA"], "meshes", "box.obj")
runs = os.path.join(tmp, "runs")
p = subprocess.run([cli, "simulate", "--mesh", mesh, "--source", "1,1,1.2", "--source", "2.5,2,1.4",
                    "--receiver", "3,2,1.5", "--receiver", "1.5,2.2,1.1", "--fmax", "250",
                    "--duration", "0.6", "--reflection", "0.9", "--backend", "cpu", "--quiet",
                    "--no-hybrid", "--out", runs], capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"simulate for analyse DIR: exit {p.returncode} {p.stderr}")
one = os.path.join(runs, "source-1")
rc, out, err = run(one, "--json")
j = json.loads(out) if rc == 0 else {}
names = [f.get("file") for f in j.get("files", [])]
check(rc == 0 and names == [os.path.join(one, "receiver-1.wav"), os.path.join(one, "receiver-2.wav")],
      f"analyse DIR: the folder's two receivers: exit {rc} {names} {err}")
check(all(f.get("fmax_hz") == 250 for f in j.get("files", [])) and j.get("average", {}).get("averaged_irs") == 2,
      "analyse DIR: fmax 250 Hz from the folder, and the average of 2")
rc2, out2, err2 = run(os.path.join(one, "receiver-1.wav"), os.path.join(one, "receiver-2.wav"), "--json")
j2 = json.loads(out2) if rc2 == 0 else {}
check(rc2 == 0 and [f["broadband"] for f in j2.get("files", [])] == [f["broadband"] for f in j.get("files", [])],
      "analyse DIR gives what the WAVs named one by one give")
rc, out, err = run(runs, "--json")
j = json.loads(out) if rc == 0 else {}
names = [os.path.relpath(f.get("file"), runs) for f in j.get("files", [])]
check(rc == 0 and names == ["source-1/receiver-1.wav", "source-1/receiver-2.wav",
                            "source-2/receiver-1.wav", "source-2/receiver-2.wav"],
      f"analyse DIR of several sources: every source's receivers: exit {rc} {names} {err}")
rc, out, err = run(one, "--json", "--fmax", "500")
j = json.loads(out) if rc == 0 else {}
check(rc == 0 and all(f.get("fmax_hz") == 500 for f in j.get("files", [])), "--fmax overrides the folder's")
rc, out, err = run(one)
check(rc == 0 and out.count(" EDT ") == 3 and "results.json of the folder" in out, f"analyse DIR, text: {out[:300]}")
# A wave-only run (--no-hybrid) reads as before: bands whose upper edge
# (centre * 10^0.15) lies above fmax = 250 Hz are flagged, every band made by
# the wave solver, no crossover, no method column in the table.
rc, out, err = run(one, "--json")
j = json.loads(out) if rc == 0 else {}
f0 = (j.get("files") or [{}])[0]
check([b.get("above_fmax") for b in f0.get("bands", [])]
      == [c * 10 ** 0.15 > 250 for c in exact_centres],
      f"--no-hybrid folder: above_fmax as before {[b.get('above_fmax') for b in f0.get('bands', [])]}")
check(f0.get("crossover_hz", "absent") is None
      and [b.get("method") for b in f0.get("bands", [])] == ["wave"] * 8,
      f"--no-hybrid folder: no crossover, every band wave: {f0.get('crossover_hz', 'absent')} "
      f"{[b.get('method') for b in f0.get('bands', [])]}")
rc, out, err = run(one)
check(rc == 0 and " method " not in out and "crossover" not in out and "500 Hz*" in out,
      f"--no-hybrid folder, text: no method column, 500 Hz flagged: {out[:400]}")
# A hybrid run (the default of simulate, issue #12): valid to the Nyquist
# frequency, so no band is flagged above fmax; each band names the method
# that made it, the crossover (fmax / 2 = 125 Hz by default) is in the JSON
# and the table; the spatial average keeps them (both receivers agree).
hyb = os.path.join(tmp, "hybrid")
p = subprocess.run([cli, "simulate", "--mesh", mesh, "--source", "1,1,1.2",
                    "--receiver", "3,2,1.5", "--receiver", "1.5,2.2,1.1", "--fmax", "250",
                    "--duration", "0.6", "--reflection", "0.9", "--backend", "cpu", "--quiet",
                    "--rays", "2000", "--ism-order", "2", "--parts", "--out", hyb],
                   capture_output=True, text=True, timeout=120)
check(p.returncode == 0, f"hybrid simulate for analyse DIR: exit {p.returncode} {p.stderr}")
with open(os.path.join(hyb, "results.json")) as f:
    hdoc = json.load(f)
expected = hybrid_methods(125.0)
check(expected == ["wave", "both"] + ["geometrical"] * 6, f"the rule at 125 Hz: {expected}")
check([b["method"] for b in hdoc["hybrid"]["bands"]] == expected and hdoc["hybrid"]["crossover_hz"] == 125,
      f"results.json of the hybrid run: {hdoc['hybrid']['crossover_hz']} {hdoc['hybrid']['bands']}")
rc, out, err = run(hyb, "--json")
j = json.loads(out) if rc == 0 else {}
for f in j.get("files", []) + [j.get("average", {})]:
    what = f.get("file") or "average"
    check(f.get("fmax_hz") == 24000 == hdoc["valid_up_to_hz"],
          f"hybrid {what}: valid to the Nyquist frequency, not fmax: {f.get('fmax_hz')}")
    check(not any(b.get("above_fmax") for b in f.get("bands", []))
          and all(b.get("analysed") for b in f.get("bands", [])),
          f"hybrid {what}: no band above fmax, every band analysed: "
          f"{[(b.get('above_fmax'), b.get('analysed')) for b in f.get('bands', [])]}")
    check([b.get("method") for b in f.get("bands", [])] == expected,
          f"hybrid {what}: methods per band {[b.get('method') for b in f.get('bands', [])]} != {expected}")
    check(f.get("crossover_hz") == 125 and f.get("broadband", {}).get("method") == "both",
          f"hybrid {what}: crossover {f.get('crossover_hz')}, broadband {f.get('broadband', {}).get('method')}")
check(rc == 0 and len(j.get("files", [])) == 2 and j.get("average", {}).get("averaged_irs") == 2,
      f"hybrid folder: two receivers and their average: exit {rc} {err}")
# the joined IR named alone reads the results.json beside it the same way
rc, out, err = run(os.path.join(hyb, "receiver-1.wav"), "--json")
j1 = json.loads(out) if rc == 0 else {}
check(j1.get("fmax_hz") == 24000 and j1.get("crossover_hz") == 125
      and [b.get("method") for b in j1.get("bands", [])] == expected,
      f"hybrid WAV with results.json beside: {j1.get('fmax_hz')} {j1.get('crossover_hz')}")
# the parts (--parts): the wave part alone is a wave-only IR valid to fmax;
# the geometrical part is geometrical in every band, with no crossover
rc, out, err = run(os.path.join(hyb, "wave-1.wav"), "--json")
jw = json.loads(out) if rc == 0 else {}
check(jw.get("fmax_hz") == 250 and jw.get("crossover_hz", "absent") is None
      and [b.get("above_fmax") for b in jw.get("bands", [])] == [c * 10 ** 0.15 > 250 for c in exact_centres]
      and [b.get("method") for b in jw.get("bands", [])] == ["wave"] * 8,
      f"wave part: valid to fmax, flagged above it: exit {rc} {err} {jw.get('fmax_hz')}")
rc, out, err = run(os.path.join(hyb, "geometrical-1.wav"), "--json")
jg = json.loads(out) if rc == 0 else {}
check(jg.get("fmax_hz") == 24000 and jg.get("crossover_hz", "absent") is None
      and [b.get("method") for b in jg.get("bands", [])] == ["geometrical"] * 8,
      f"geometrical part: {jg.get('fmax_hz')} {[b.get('method') for b in jg.get('bands', [])]}")
rc, out, err = run(hyb)
check(rc == 0 and out.count(" method ") == 3 and "*" not in out.split("Absent values")[0]
      and "crossover 125 Hz" in out and "above fmax" not in out,
      f"hybrid folder, text: a method column, the crossover, no band flagged: {out[:600]}")
rows = [l.split() for l in out.splitlines() if l.startswith(("63 Hz", "125 Hz", "250 Hz", "8 kHz"))]
check([r[2] for r in rows[:4]] == ["wave", "both", "geometrical", "geometrical"],
      f"hybrid folder, text: the method column {rows[:4]}")
# --fmax wins over the folder (documented): bands above it flagged, and no
# methods or crossover from the results
rc, out, err = run(hyb, "--json", "--fmax", "250")
j = json.loads(out) if rc == 0 else {}
f0 = (j.get("files") or [{}])[0]
check(f0.get("fmax_hz") == 250 and [b.get("above_fmax") for b in f0.get("bands", [])]
      == [c * 10 ** 0.15 > 250 for c in exact_centres]
      and f0.get("crossover_hz", "absent") is None
      and [b.get("method") for b in f0.get("bands", [])] == ["unknown"] * 8,
      f"--fmax on a hybrid folder: {f0.get('fmax_hz')} {f0.get('crossover_hz', 'absent')}")
# a hybrid results.json whose method list is broken fails naming the file
with open(os.path.join(hyb, "results.json"), "w") as f:
    bad = json.loads(json.dumps(hdoc))
    bad["hybrid"]["bands"][3]["method"] = "magic"
    json.dump(bad, f)
rc, out, err = run(os.path.join(hyb, "receiver-1.wav"))
check(rc == 1 and "results.json" in err and "hybrid.bands[3].method" in err and out == "",
      f"a bad hybrid method beside the IR: exit {rc} {err!r}")

# Bad folders: exit 1 naming the file, nothing on stdout.
not_results = os.path.join(tmp, "not-results")
os.mkdir(not_results)
rc, out, err = run(not_results)
check(rc == 1 and not_results in err and "results.json" in err and out == "",
      f"a folder without results.json: exit {rc} {err!r}")
os.remove(os.path.join(runs, "source-2", "receiver-2.wav"))
rc, out, err = run(runs, "--json")
check(rc == 1 and "source-2/receiver-2.wav" in err and out == "", f"a missing WAV: exit {rc} {err!r}")
with open(os.path.join(one, "results.json")) as f:
    doc = json.load(f)
doc["version"] = 99
with open(os.path.join(one, "results.json"), "w") as f:
    json.dump(doc, f)
rc, out, err = run(one)
check(rc == 1 and "results.json" in err and "newer Roomwave" in err and out == "",
      f"a newer format version: exit {rc} {err!r}")

# Usage: exit 2.
for args in [["--bogus", good], [], ["--fmax", "abc", good], ["--fmax", "nan", good],
             ["--channel", "-1", good], ["--fmax"]]:
    rc, out, err = run(*args)
    check(rc == 2, f"usage {args}: exit {rc}, expected 2 ({err.strip()})")
rc, out, err = run("--help")
check(rc == 0 and "Usage" in out and "--fmax" in out, "--help")

sys.exit(finish())
