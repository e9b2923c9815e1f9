#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-iacc: `roomwave-cli iacc` on binaural impulse responses written here
as 2-channel 32-bit float WAV files (48 kHz): decaying Gaussian noise after
20 ms of silence (T60 0.5 s, 1 s long).

- identical ears: --json gives IACC 1 (to 1e-6) at τ 0 in every window of
  every band and broadband, E3 = L3 = 1, the onset at 20 ms, 8 bands
  63 Hz … 8 kHz;
- the right ear the left one 0.5 ms later: broadband τ = +0.5 ms (the sign
  the help states), IACC > 0.95;
- two independent noises: broadband IACC < 0.15, late IACC_L3 < 0.3:
  each band's peak is Rayleigh with σ = 1/√(2 B T_eff) (tests/test-iacc.c),
  T_eff ≈ 0.07 s for the late window: σ 0.14, 0.10, 0.07 at 500 Hz,
  1 kHz, 2 kHz, their mean peak about 0.13; E3/L3 are the means of the
  500 Hz, 1 kHz, 2 kHz bands' figures in the same JSON;
- the table shows every band, broadband and the E3/L3 line; an IR that
  ends 50 ms after its onset has no late part: null in the JSON, a dash
  (not nan) in the table;
- a mono file, a 3-channel file, a silent ear, a missing file, garbage:
  exit 1 naming the file, nothing on stdout; no file, two files, an
  unknown option: exit 2; --help exits 0.

Environment (tests/meson.build): ROOMWAVE_CLI."""
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
    p = subprocess.run([cli, "iacc", *args], capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def write_float_wav(path, channels_data, rate=RATE):
    """channels_data: a list of equally long lists of samples."""
    nch = len(channels_data)
    flat = [ch[i] for i in range(len(channels_data[0])) for ch in channels_data]
    data = struct.pack("<%df" % len(flat), *flat)
    fmt = struct.pack("<HHIIHHH", 3, nch, rate, rate * 4 * nch, 4 * nch, 32, 0)
    body = (b"WAVE" + b"fmt " + struct.pack("<I", len(fmt)) + fmt
            + b"fact" + struct.pack("<I", 4) + struct.pack("<I", len(channels_data[0]))
            + b"data" + struct.pack("<I", len(data)) + data)
    with open(path, "wb") as f:
        f.write(b"RIFF" + struct.pack("<I", len(body)) + body)


def noise(rng, n=RATE, t60=0.5, pre=0.02):
    k = 13.815510557964274 / t60
    i0 = int(pre * RATE)
    return [0.0] * i0 + [rng.gauss(0, 1) * math.exp(-0.5 * k * (i - i0) / RATE) for i in range(i0, n)]


def windows(b):
    return [(b[w], b["tau_%s_s" % w[5:]]) for w in ("iacc_early", "iacc_late", "iacc_full")]


def iacc_json(tmp, name, channels):
    """Writes channels as tmp/name, runs `iacc --json` on it: (path, JSON or None)."""
    path = os.path.join(tmp, name)
    write_float_wav(path, channels)
    rc, out, err = run(path, "--json")
    check(rc == 0, "%s: exit %d: %s" % (name, rc, err))
    return path, json.loads(out) if rc == 0 else None


def main():
    rng = random.Random(13)
    tmp = tempfile.mkdtemp(prefix="rw-cli-iacc-")
    left, other = noise(rng), noise(rng)

    same, j = iacc_json(tmp, "same.wav", [left, left])
    if j:
        check(j["file"] == same and j["rate_hz"] == RATE, "file/rate %r %r" % (j["file"], j["rate_hz"]))
        check(abs(j["onset_s"] - 0.02) < 1e-4, "onset %r" % j["onset_s"])
        check([b["centre_hz"] for b in j["bands"]] == [63, 125, 250, 500, 1000, 2000, 4000, 8000],
              "bands %r" % [b["centre_hz"] for b in j["bands"]])
        for b in j["bands"] + [j["broadband"]]:
            check(b["analysed"], "band %r not analysed" % b["centre_hz"])
            for v, tau in windows(b):
                check(abs(v - 1) < 1e-6 and tau == 0, "identical %r: IACC %r τ %r" % (b["centre_hz"], v, tau))
        check(abs(j["iacc_e3"] - 1) < 1e-6 and abs(j["iacc_l3"] - 1) < 1e-6,
              "identical: E3 %r L3 %r" % (j["iacc_e3"], j["iacc_l3"]))

    _, j = iacc_json(tmp, "late.wav", [left, [0.0] * 24 + left[:-24]])
    if j:
        bb = j["broadband"]
        print("right 0.5 ms later: broadband full IACC %.4f at τ %+.3f ms" % (bb["iacc_full"], bb["tau_full_s"] * 1e3))
        check(abs(bb["tau_full_s"] - 0.0005) < 1e-9 and bb["iacc_full"] > 0.95, "delayed: %r" % bb)

    indep, j = iacc_json(tmp, "independent.wav", [left, other])
    if j:
        bb = j["broadband"]
        print("independent: broadband %.3f/%.3f/%.3f, E3 %.3f, L3 %.3f"
              % (bb["iacc_early"], bb["iacc_late"], bb["iacc_full"], j["iacc_e3"], j["iacc_l3"]))
        check(max(bb["iacc_early"], bb["iacc_late"], bb["iacc_full"]) < 0.15, "independent: %r" % bb)
        check(j["iacc_l3"] < 0.3, "independent: L3 %r" % j["iacc_l3"])
        for key, w in (("iacc_e3", "iacc_early"), ("iacc_l3", "iacc_late")):
            mean = sum(j["bands"][k][w] for k in (3, 4, 5)) / 3
            check(abs(j[key] - mean) < 1e-12, "%s %r, mean of the bands %r" % (key, j[key], mean))

    rc, out, err = run(indep)
    check(rc == 0 and all(s in out for s in ("63 Hz", "1 kHz", "8 kHz", "broadband", "IACC_E3", "IACC_L3")),
          "table: exit %d:\n%s%s" % (rc, out, err))

    # an IR ending 50 ms after its onset: no late part (null, a dash)
    short, j = iacc_json(tmp, "short.wav", [left[:3360], other[:3360]])
    if j:
        check(j["iacc_l3"] is None and j["broadband"]["iacc_late"] is None
              and j["iacc_e3"] is not None, "short: E3 %r L3 %r" % (j["iacc_e3"], j["iacc_l3"]))
        rc, out, err = run(short)
        check(rc == 0 and "IACC_L3 \u2014" in out and "nan" not in out, "short table:\n%s%s" % (out, err))

    mono = os.path.join(tmp, "mono.wav")
    write_float_wav(mono, [left])
    three = os.path.join(tmp, "three.wav")
    write_float_wav(three, [left, left, other])
    silent = os.path.join(tmp, "silent.wav")
    write_float_wav(silent, [left, [0.0] * len(left)])
    garbage = os.path.join(tmp, "garbage.wav")
    with open(garbage, "wb") as f:
        f.write(b"RIFF not a wave file at all" * 10)
    missing = os.path.join(tmp, "missing.wav")
    for path, what in ((mono, "channel"), (three, "channel"), (silent, "silent"), (garbage, ""), (missing, "")):
        for extra in ((), ("--json",)):
            rc, out, err = run(path, *extra)
            check(rc == 1 and path in err and what in err and out == "",
                  "%s %r: exit %d, stdout %r, stderr %r" % (os.path.basename(path), extra, rc, out[:80], err))
    for args in ((), (same, indep), (same, "--bogus")):
        rc, out, err = run(*args)
        check(rc == 2 and out == "", "usage %r: exit %d: %s" % (args, rc, err))
    rc, out, _ = run("--help")
    check(rc == 0 and "IACC" in out and "--json" in out, "--help: exit %d" % rc)
    for name in os.listdir(tmp):
        os.unlink(os.path.join(tmp, name))
    os.rmdir(tmp)


if __name__ == "__main__":
    main()
    sys.exit(finish())
