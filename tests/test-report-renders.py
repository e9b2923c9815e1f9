#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""report-renders: `roomwave-cli compare` writes the PDF report, the CSV and
the JSON for mono and stereo files at equal and different sample rates, and
their content is right:

- pdftotext extracts the table's band centres (63 … 8000), every parameter
  name (EDT, T20, T30, C50, C80, D50, Ts), the fmax statement and 4 pages;
- the CSV has a header and one row per band and parameter (9 × 7), numbers
  or empty fields, flags that follow the numbers (|diff| > JND);
- the JSON (file and --json on stdout) parses, has 9 bands × 7 parameters
  and agrees with the CSV;
- a hybrid simulation (issue #12, results.json 2.3 beside it): the crossover
  line's label "crossover 250 Hz" on the band bars and the frequency
  response, a "Method" row naming each band's method, the full-band
  validity, no band above fmax (CSV), crossover and methods in the JSON;
  the other cases have neither;
- every PDF page is rendered to PNG with pdftoppm and kept in
  $RW_TEST_ARTIFACTS (report-<case>-page-N.png) for a person to look at.

Environment: ROOMWAVE_CLI (the roomwave-cli to run), RW_TEST_ARTIFACTS
(folder for the PNGs; default: a temporary folder).
"""
import csv
import io
import json
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import wave

from rwcheck import check, finish

CLI = os.environ.get("ROOMWAVE_CLI")
BANDS = ["63", "125", "250", "500", "1000", "2000", "4000", "8000", "broadband"]
PARAMS = ["EDT", "T20", "T30", "C50", "C80", "D50", "Ts"]
JND = {"EDT": (0.05, True), "T20": (0.05, True), "T30": (0.05, True),
       "C50": (1.0, False), "C80": (1.0, False), "D50": (0.05, False), "Ts": (10.0, False)}


def room_ir(rate, t_low, t_high, seed, floor_db=None, dur=1.6):
    """A plausible room IR: direct sound at 5 ms, a few early reflections,
    then a diffuse tail of noise whose low part (one-pole low-pass at
    400 Hz) decays with t_low and whose high part with t_high, over an
    optional noise floor."""
    rnd = random.Random(seed)
    n = int(dur * rate)
    x = [0.0] * n
    t0 = int(0.005 * rate)
    x[t0] = 1.0
    for ms, a in ((3.1, -0.55), (5.7, 0.45), (9.4, 0.35), (13.2, -0.3), (17.9, 0.25), (24.5, -0.2)):
        x[t0 + int(ms * 1e-3 * rate)] += a
    a_lp = math.exp(-2 * math.pi * 400.0 / rate)
    lp = 0.0
    k_low, k_high = 3 * math.log(10) / t_low, 3 * math.log(10) / t_high
    for i in range(t0, n):
        t = (i - t0) / rate
        w = rnd.gauss(0.0, 1.0)
        lp = (1 - a_lp) * w + a_lp * lp
        hp = w - lp
        ramp = min(1.0, t / 0.015)
        x[i] += ramp * 0.08 * (3.0 * lp * math.exp(-k_low * t) + hp * math.exp(-k_high * t))
    if floor_db is not None:
        g = 10 ** (floor_db / 20)
        for i in range(n):
            x[i] += g * rnd.gauss(0.0, 1.0)
    return x


def write_wav(path, channels, rate):
    """channels: list of equal-length lists; 24-bit PCM."""
    peak = max(max(abs(v) for v in ch) for ch in channels)
    s = 0.9 / peak
    n = len(channels[0])
    frames = bytearray()
    for i in range(n):
        for ch in channels:
            frames += struct.pack("<i", int(round(ch[i] * s * 8388607)))[:3]
    with wave.open(path, "wb") as w:
        w.setnchannels(len(channels))
        w.setsampwidth(3)
        w.setframerate(rate)
        w.writeframes(bytes(frames))


def run(args):
    p = subprocess.run([CLI] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check_case(name, tmp, artifacts, sim, meas, extra, expect_fmax, hybrid=None):
    """hybrid: (crossover_hz, the method per octave band) of a hybrid
    simulation's results.json beside sim, whose report names them."""
    pdf = os.path.join(tmp, f"report-{name}.pdf")
    csv_path = os.path.join(tmp, f"report-{name}.csv")
    json_path = os.path.join(tmp, f"report-{name}.json")
    rc, out, err = run(["compare", sim, meas] + extra + ["--report", pdf, "--csv", csv_path, "--json-out", json_path])
    check(rc == 0, f"{name}: exit {rc}: {err.strip()}")
    if rc != 0:
        return
    print(f"{name}: {out.strip()}")

    # PDF text
    text = subprocess.run(["pdftotext", "-layout", pdf, "-"], capture_output=True, text=True).stdout
    for b in BANDS[:-1]:
        check(b in text.split() or f" {b} " in text, f"{name}: band {b} not in the PDF text")
    for p in PARAMS:
        check(f"{p} sim" in text and f"{p} meas" in text, f"{name}: parameter {p} not in the PDF text")
    check("Broadband" in text, f"{name}: 'Broadband' not in the PDF text")
    check(text.count("\f") == 4, f"{name}: {text.count(chr(12))} pages, expected 4")
    if expect_fmax:
        check(f"fmax = {expect_fmax:g} Hz" in text, f"{name}: the fmax statement is missing")
    check("Just-noticeable differences" in text, f"{name}: no JND statement")
    if hybrid:
        fc, methods = hybrid
        # the crossover line's label on the T30, EDT and C80 bars and the
        # frequency response; the method row of the table; the validity
        label = f"crossover {fc:g} Hz"
        check(text.count(label) >= 4, f"{name}: '{label}' {text.count(label)} times in the PDF text, expected 4")
        row = next((l.split() for l in text.splitlines() if l.split()[:1] == ["Method"]), [])
        check(row[1:9] == methods, f"{name}: the table's method row {row}")
        check("full band (hybrid)" in text and "above fmax" not in text,
              f"{name}: the validity statement of a hybrid IR, no band above fmax")
    else:
        check("crossover" not in text and not any(l.split()[:1] == ["Method"] for l in text.splitlines()),
              f"{name}: no crossover or method row without a hybrid IR")

    # pages as PNG, kept for people
    prefix = os.path.join(artifacts, f"report-{name}-page")
    subprocess.run(["pdftoppm", "-r", "80", "-png", pdf, prefix], check=True)
    pngs = sorted(f for f in os.listdir(artifacts) if f.startswith(f"report-{name}-page"))
    check(len(pngs) == 4, f"{name}: {len(pngs)} page images")
    print(f"{name}: pages rendered to {prefix}-N.png")

    # CSV
    with open(csv_path, newline="") as f:
        rows = list(csv.DictReader(f))
    check(len(rows) == 9 * 7, f"{name}: {len(rows)} CSV rows, expected 63")
    seen = {(r["band_hz"], r["parameter"]) for r in rows}
    check(seen == {(b, p) for b in BANDS for p in PARAMS}, f"{name}: CSV band/parameter pairs wrong")
    n_values = 0
    for r in rows:
        for k in ("simulated", "measured", "difference", "relative_difference", "jnd"):
            if r[k] != "":
                float(r[k])
        if r["difference"] != "":
            n_values += 1
            jnd, rel = JND[r["parameter"]]
            d = abs(float(r["relative_difference"] if rel else r["difference"]))
            want = d > jnd * (1 + 1e-9)
            check((r["exceeds_jnd"] == "true") == want,
                  f"{name}: {r['band_hz']} {r['parameter']}: flag {r['exceeds_jnd']} for {d} vs JND {jnd}")
        check(r["above_fmax"] in ("true", "false"), f"{name}: above_fmax '{r['above_fmax']}'")
    check(n_values >= 40, f"{name}: only {n_values} compared values")
    if expect_fmax:
        for r in rows:
            if r["band_hz"] != "broadband":
                upper = float(r["band_hz"]) * 2 ** 0.5
                # nominal centres: 63 → 62.5 exact, so allow the edge case
                check((r["above_fmax"] == "true") == (upper > expect_fmax * 1.02) or abs(upper - expect_fmax) < 0.05 * expect_fmax,
                      f"{name}: band {r['band_hz']} above_fmax {r['above_fmax']} with fmax {expect_fmax}")

    # JSON (file and stdout)
    with open(json_path) as f:
        j = json.load(f)
    rc, out, err = run(["compare", sim, meas] + extra + ["--json"])
    check(rc == 0, f"{name}: --json exit {rc}")
    j2 = json.loads(out)
    check(j2["bands"] == j["bands"], f"{name}: --json differs from --json-out")
    check(len(j["bands"]) == 9, f"{name}: {len(j['bands'])} bands in the JSON")
    for band in j["bands"]:
        check(set(band["parameters"]) == set(PARAMS), f"{name}: JSON parameters {sorted(band['parameters'])}")
        for r in rows:
            if r["band_hz"] == band["band"]:
                v = band["parameters"][r["parameter"]]["simulated"]
                check((v is None) == (r["simulated"] == "") and (v is None or abs(v - float(r["simulated"])) <= 1e-5 * max(1, abs(v))),
                      f"{name}: JSON and CSV disagree at {r['band_hz']} {r['parameter']}")
    if expect_fmax:
        check(j["fmax_hz"] == expect_fmax, f"{name}: JSON fmax {j['fmax_hz']}")
    check(j["summary"]["compared"] == n_values, f"{name}: summary says {j['summary']['compared']} compared, CSV {n_values}")
    if hybrid:
        check(j["fmax_hz"] == 24000 and j["crossover_hz"] == hybrid[0],
              f"{name}: JSON valid to {j['fmax_hz']} Hz, crossover {j.get('crossover_hz')}")
        check([b["method"] for b in j["bands"][:8]] == hybrid[1] and j["bands"][8]["method"] == "both",
              f"{name}: JSON methods {[b.get('method') for b in j['bands']]}")
        check(all(r["above_fmax"] == "false" for r in rows), f"{name}: a band above fmax in the CSV")

    # the table on stdout without outputs
    rc, out, err = run(["compare", sim, meas] + extra)
    check(rc == 0 and "T30 diff (%)" in out and "8000" in out, f"{name}: text table: {out[:200]}")
    if hybrid:
        codes = {"wave": "W", "geometrical": "G", "both": "W+G"}
        row = next((l.split() for l in out.splitlines() if l.split()[:1] == ["method"]), [])
        check(row[1:] == [codes[m] for m in hybrid[1]] + ["W+G"], f"{name}: text table's method row {row}")


def main():
    if not CLI:
        print("ROOMWAVE_CLI not set", file=sys.stderr)
        return 1
    for tool in ("pdftotext", "pdftoppm"):
        if shutil.which(tool) is None:
            print(f"SKIP: {tool} (poppler-utils) not installed")
            return 77
    tmp = tempfile.mkdtemp(prefix="rw-report-")
    artifacts = os.environ.get("RW_TEST_ARTIFACTS") or os.path.join(tmp, "artifacts")
    os.makedirs(artifacts, exist_ok=True)
    for f in os.listdir(artifacts):
        if f.startswith("report-") and f.endswith(".png"):
            os.remove(os.path.join(artifacts, f))
    try:
        # case 1: mono, both 48 kHz, fmax from results.json beside the simulation
        simdir = os.path.join(tmp, "sim")
        os.makedirs(simdir)
        sim = os.path.join(simdir, "receiver-0.wav")
        write_wav(sim, [room_ir(48000, 1.25, 0.75, 1)], 48000)
        with open(os.path.join(simdir, "results.json"), "w") as f:
            json.dump({"settings": {"fmax_hz": 1000.0}, "backend": "cpu"}, f)
        meas = os.path.join(tmp, "measured-mono-48k.wav")
        write_wav(meas, [room_ir(48000, 1.15, 0.80, 2, floor_db=-68)], 48000)
        check_case("mono-48k", tmp, artifacts, sim, meas, [], 1000.0)

        # case 2: stereo at different rates: the simulation a 48 kHz stereo
        # pair, channel 1; the measurement 44.1 kHz stereo, channel 0;
        # fmax from the command line
        sim2 = os.path.join(tmp, "sim-stereo-48k.wav")
        write_wav(sim2, [room_ir(48000, 0.9, 0.6, 3), room_ir(48000, 0.95, 0.62, 4)], 48000)
        meas2 = os.path.join(tmp, "measured-stereo-44k.wav")
        write_wav(meas2, [room_ir(44100, 0.8, 0.66, 5, floor_db=-62), room_ir(44100, 0.3, 0.2, 6)], 44100)
        check_case("stereo-44k-48k", tmp, artifacts, sim2, meas2,
                   ["--sim-channel", "1", "--channel", "0", "--fmax", "2000"], 2000.0)

        # case 3: a hybrid simulation's results.json (version 2.3) beside
        # the simulated IR: valid to the Nyquist frequency, the crossover
        # drawn and the method of each band in the table
        hybdir = os.path.join(tmp, "hybrid")
        os.makedirs(hybdir)
        sim3 = os.path.join(hybdir, "receiver-1.wav")
        write_wav(sim3, [room_ir(48000, 1.25, 0.75, 7)], 48000)
        methods = ["wave", "wave", "both"] + ["geometrical"] * 5
        with open(os.path.join(hybdir, "results.json"), "w") as f:
            json.dump({"format": "roomwave-results", "version": 2, "version_minor": 3,
                       "settings": {"fmax_hz": 500.0}, "fs_out_hz": 48000.0,
                       "hybrid": {"crossover_hz": 250.0, "transition_hz": [176.78, 323.22],
                                  "fit_bands": 8,
                                  "bands": [{"centre_hz": c, "method": m}
                                            for c, m in zip([63, 125, 250, 500, 1000, 2000, 4000, 8000], methods)],
                                  "geometrical": {"method": "image sources + stochastic rays",
                                                  "receiver_radius_m": 0.2, "image_source_arrivals": 10,
                                                  "rays_lost": 0}},
                       "valid_up_to_hz": 24000.0}, f)
        check_case("hybrid", tmp, artifacts, sim3, meas, [], None, (250, methods))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
