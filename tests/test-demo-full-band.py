#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""demo-full-band: the proof of issue #12 (full-band IRs) on the demo room,
through `roomwave-cli` as a user runs it.

- `simulate` the demo room (data/rooms/demo-room.obj) with the demo's
  source and two receivers (.ci/demo) at --fmax 250 --duration 4: a hybrid
  IR (the wave part below the crossover, image sources and rays above);
  its results.json declares it valid to at least 20 kHz;
- `analyse --json --fmax <valid_up_to_hz of results.json>` on both
  receiver WAVs: EDT, T20 and T30 are present (finite numbers) in every
  octave band 63 Hz … 8 kHz for both receivers;
- energy to 20 kHz (`spectrogram --json`, time-averaged band levels re the
  total energy): the 16 kHz octave band within 40 dB of the 1 kHz octave
  band, and the 20 kHz third-octave band (17.8 … 22.4 kHz) within 40 dB of
  the loudest third-octave band;
- negative control: the wave solver alone (--no-hybrid) at the same fmax
  must FAIL that check (its 20 kHz third lies ~85 dB below its loudest
  band: only the numerical floor is there). The 1 kHz comparison alone
  would not tell, as both bands sit at that floor in a wave-only IR;
- `auralise` data/audio/speech-harvard.flac through receiver-1.wav, and
  the spectrograms of the IR and of the auralisation written as
  $RW_TEST_ARTIFACTS/demo-full-band-ir-spectrogram.png and
  demo-full-band-auralised-spectrogram.png (kept for a person to look at
  before resolving the issue; the auralised WAV is kept beside them), each
  a 1200 × 700 PNG of more than 40 kB.

Environment: ROOMWAVE_CLI (the binary), ROOMWAVE_DATA_DIR (data/),
RW_TEST_ARTIFACTS (folder for the PNGs; default: a temporary folder)."""
import json
import math
import os
import shutil
import struct
import sys
import tempfile

from rwcheck import check, finish, run_cli

DATA = os.environ.get("ROOMWAVE_DATA_DIR") or os.path.join(os.path.dirname(__file__), "..", "data")
ROOM = os.path.join(DATA, "rooms", "demo-room.obj")
DRY = os.path.join(DATA, "audio", "speech-harvard.flac")
DEMO = ["--source", "1.5,2.5,1.5", "--fmax", "250", "--duration", "4"]
RECEIVERS = ["--receiver", "5,2,1.2", "--receiver", "5,2.3,1.2"]
OCTAVES = [63, 125, 250, 500, 1000, 2000, 4000, 8000]
MARGIN_DB = 40.0


def simulate(out, extra):
    rc, _, err = run_cli(["simulate", "--mesh", ROOM] + DEMO + extra + ["--out", out, "--quiet"])
    check(rc == 0, "simulate %s: exit %d: %s" % (" ".join(extra), rc, err.strip()))
    return rc == 0


def spectrogram(wav, png):
    """The spectrogram's JSON (band levels) after writing png; None on failure."""
    rc, out, err = run_cli(["spectrogram", wav, "-o", png, "--json"])
    check(rc == 0, "spectrogram %s: exit %d: %s" % (wav, rc, err.strip()))
    if rc != 0:
        return None
    try:
        return json.loads(out)
    except ValueError as e:
        check(False, "spectrogram %s: no JSON (%s)" % (wav, e))
        return None


def energy_to_20k(sg):
    """(holds, description): the 16 kHz octave within MARGIN_DB of the 1 kHz
    octave and the 20 kHz third within MARGIN_DB of the loudest third."""
    octv = {b["center_hz"]: b["level_db"] for b in sg["octave_bands"]}
    thirds = {b["center_hz"]: b["level_db"] for b in sg["third_octave_bands"]}
    o16, o1, t20 = octv.get(16000), octv.get(1000), thirds.get(20000)
    loudest = max(v for v in thirds.values() if v is not None)
    if o16 is None or o1 is None or t20 is None:
        return False, "a band is absent (16 kHz octave %s, 1 kHz octave %s, 20 kHz third %s)" % (o16, o1, t20)
    holds = o16 >= o1 - MARGIN_DB and t20 >= loudest - MARGIN_DB
    return holds, ("16 kHz octave %.1f dB vs 1 kHz octave %.1f dB; 20 kHz third %.1f dB vs the "
                   "loudest third %.1f dB (re the total energy)" % (o16, o1, t20, loudest))


def png_size(path):
    """(width, height) from the PNG's IHDR, or None when it is no PNG."""
    with open(path, "rb") as f:
        head = f.read(24)
    if len(head) < 24 or head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return struct.unpack(">II", head[16:24])


def check_png(path):
    check(os.path.isfile(path), "%s was not written" % path)
    if not os.path.isfile(path):
        return
    dims, size = png_size(path), os.path.getsize(path)
    print("%s: %s pixels, %d bytes" % (path, dims, size))
    check(dims == (1200, 700), "%s: %s, expected a 1200 × 700 PNG" % (path, dims))
    # axes, labels and colour bar alone compress to some 25 kB; a
    # spectrogram with structure in it is several times that
    check(size > 40000, "%s: only %d bytes" % (path, size))


def main():
    art = os.environ.get("RW_TEST_ARTIFACTS") or tempfile.mkdtemp(prefix="rw-art-")
    os.makedirs(art, exist_ok=True)
    # a previous run's images must not pass for this run's
    for name in ("demo-full-band-ir-spectrogram.png", "demo-full-band-auralised-spectrogram.png",
                 "demo-full-band-auralised.wav"):
        if os.path.exists(os.path.join(art, name)):
            os.unlink(os.path.join(art, name))
    tmp = tempfile.mkdtemp(prefix="rw-demo-full-band-")
    try:
        hybrid = os.path.join(tmp, "hybrid")
        if not simulate(hybrid, RECEIVERS):
            return
        with open(os.path.join(hybrid, "results.json")) as f:
            res = json.load(f)
        valid_to = res.get("valid_up_to_hz")
        check("hybrid" in res and isinstance(valid_to, (int, float)) and valid_to >= 20000,
              "results.json: hybrid %s, valid up to %s Hz (≥ 20000 expected)" % ("hybrid" in res, valid_to))
        if not isinstance(valid_to, (int, float)):
            return
        wavs = [os.path.join(hybrid, "receiver-%d.wav" % i) for i in (1, 2)]

        # EDT, T20, T30 in every band of both receivers
        rc, out, err = run_cli(["analyse", "--json", "--fmax", "%g" % valid_to] + wavs)
        check(rc == 0, "analyse: exit %d: %s" % (rc, err.strip()))
        if rc == 0:
            files = json.loads(out)["files"]
            check(len(files) == 2, "analyse: %d files" % len(files))
            for fa in files:
                name = os.path.basename(fa["file"])
                bands = {round(b["center_hz"]): b for b in fa["bands"] if b.get("center_hz")}
                for c in OCTAVES:
                    b = bands.get(c, {})
                    vals = [b.get(k) for k in ("EDT_s", "T20_s", "T30_s")]
                    ok = all(isinstance(v, (int, float)) and math.isfinite(v) and v > 0 for v in vals)
                    check(ok, "%s %d Hz: EDT, T20, T30 = %s (absent: %s)" % (name, c, vals, b.get("absent")))
                print("%s: T30 %s s" % (name, " ".join("%g Hz %.2f" % (c, bands[c]["T30_s"]) for c in OCTAVES
                                                    if isinstance(bands.get(c, {}).get("T30_s"), float))))

        # energy to 20 kHz, both receivers; receiver 1's image kept
        for i, wav in enumerate(wavs):
            png = (os.path.join(art, "demo-full-band-ir-spectrogram.png") if i == 0
                   else os.path.join(tmp, "receiver-2-spectrogram.png"))
            sg = spectrogram(wav, png)
            if sg is None:
                continue
            holds, what = energy_to_20k(sg)
            print("hybrid receiver-%d: %s" % (i + 1, what))
            check(holds, "hybrid receiver-%d: no energy to 20 kHz: %s" % (i + 1, what))
        check_png(os.path.join(art, "demo-full-band-ir-spectrogram.png"))

        # the auralisation and its spectrogram
        wet = os.path.join(art, "demo-full-band-auralised.wav")
        rc, out, err = run_cli(["auralise", wavs[0], DRY, "-o", wet])
        check(rc == 0, "auralise: exit %d: %s" % (rc, err.strip()))
        if rc == 0:
            png = os.path.join(art, "demo-full-band-auralised-spectrogram.png")
            sg = spectrogram(wet, png)
            check_png(png)
            if sg is not None:
                # the room adds its tail: the wet file is the dry one (5.5 s)
                # plus the IR (4 s) long
                check(abs(sg["duration_s"] - 9.5) < 0.05, "auralised: %.3f s, expected 9.5 s" % sg["duration_s"])

        # negative control: the wave part alone stops at fmax
        wave = os.path.join(tmp, "wave")
        if simulate(wave, ["--no-hybrid", "--receiver", "5,2,1.2"]):
            sg = spectrogram(os.path.join(wave, "receiver-1.wav"), os.path.join(tmp, "wave.png"))
            if sg is not None:
                holds, what = energy_to_20k(sg)
                print("wave only (negative control): %s" % what)
                check(not holds, "wave only: the energy-to-20-kHz check passed, so it cannot tell: %s" % what)
        print("artifacts in %s" % art)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(finish())
