#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""demo-binaural: the end-to-end proof of issue #13 (spatial receivers) on
the demo room, through `roomwave-cli` as a user runs it.

- `simulate` the demo room (data/rooms/demo-room.obj) with the demo's
  source (1.5, 2.5, 1.5) and a binaural receiver at (5, 2, 1.2) looking
  along +y (yaw 90°), so that the source lies 82° to its left, slightly
  above; --fmax 250 --duration 2, hybrid (the default): the wave part
  decoded to the ears below the 125 Hz crossover, the geometrical part
  through the HRIRs above it;
- results.json says the receiver is binaural and names its files; the
  binaural IR has 2 channels and the AmbiX IR 16, whose W is the
  omnidirectional IR (receiver-1.wav) to 1e-5 of its peak;
- the direct sound (−1 … +2.5 ms about its arrival) is lateralised to the
  source's side: the left ear leads by 0.5 … 0.75 ms (the lag of the
  interaural cross-correlation's peak) and is louder by more than 3 dB;
- the late part is diffuse: `roomwave-cli iacc` (ISO 3382-1 Annex A)
  gives IACC_L3 (the mean late IACC, 80 ms after the direct sound to the
  end, of the 500 Hz, 1 kHz and 2 kHz bands; Hidaka et al. 1995) below
  0.5, every band's early and late IACC printed; and the two ears' mean
  energy over 0.1 … 1 s is the omnidirectional IR's within 1.5 dB (the
  HRTF set is diffuse-field equalised: docs/BINAURAL.md);
- `auralise` the bundled speech (data/audio/speech-harvard.flac) through
  the binaural IR: a stereo file that never clips (every sample below
  full scale; its peak at −1 dBFS);
- the spectrograms of the binaural IR's left ear and of the auralisation
  are written to $RW_TEST_ARTIFACTS/demo-binaural-ir-spectrogram.png and
  demo-binaural-auralised-spectrogram.png (with the wet WAV) for a person
  to look at before resolving the issue.

Environment: ROOMWAVE_CLI, ROOMWAVE_DATA_DIR, RW_TEST_ARTIFACTS."""
import json
import math
import os
import shutil
import sys
import tempfile

from rwcheck import check, finish, run_cli, read_float_wav

DATA = os.environ.get("ROOMWAVE_DATA_DIR") or os.path.join(os.path.dirname(__file__), "..", "data")
ROOM = os.path.join(DATA, "rooms", "demo-room.obj")
DRY = os.path.join(DATA, "audio", "speech-harvard.flac")
SOURCE = (1.5, 2.5, 1.5)
RECEIVER = (5.0, 2.0, 1.2)
C = 343.2


def xcorr(a, b, lo, hi, max_lag):
    """(lag, normalised peak): the lag (samples, > 0: a later) of the largest
    |Σ a[i] b[i − lag]| over [lo, hi), |lag| ≤ max_lag."""
    ea = sum(x * x for x in a[lo:hi])
    eb = sum(x * x for x in b[lo:hi])
    best, best_lag = -1.0, 0
    for lag in range(-max_lag, max_lag + 1):
        s = sum(a[i] * b[i - lag] for i in range(max(lo, lag), min(hi, len(b) + lag)))
        if abs(s) > best:
            best, best_lag = abs(s), lag
    return best_lag, best / math.sqrt(ea * eb)


def energy(x, lo, hi):
    return sum(v * v for v in x[lo:hi])


def main():
    art = os.environ.get("RW_TEST_ARTIFACTS") or tempfile.mkdtemp(prefix="rw-art-")
    os.makedirs(art, exist_ok=True)
    names = ("demo-binaural-ir-spectrogram.png", "demo-binaural-auralised-spectrogram.png",
             "demo-binaural-auralised.wav")
    for name in names:
        if os.path.exists(os.path.join(art, name)):
            os.unlink(os.path.join(art, name))
    tmp = tempfile.mkdtemp(prefix="rw-demo-binaural-")
    try:
        out = os.path.join(tmp, "run")
        rc, _, err = run_cli(["simulate", "--mesh", ROOM, "--source", "%g,%g,%g" % SOURCE,
                          "--receiver", "%g,%g,%g:binaural,yaw=90" % RECEIVER, "--fmax", "250",
                          "--duration", "2", "--out", out, "--quiet"])
        check(rc == 0, "simulate: exit %d: %s" % (rc, err.strip()))
        if rc != 0:
            return
        with open(os.path.join(out, "results.json")) as f:
            rcv = json.load(f)["settings"]["receivers"][0]
        check(rcv.get("type") == "binaural" and rcv.get("yaw_deg") == 90
              and rcv.get("binaural_file") == "receiver-1-binaural.wav"
              and rcv.get("ambix_file") == "receiver-1-ambix.wav", "results.json: %r" % rcv)
        rate, nch, lr = read_float_wav(os.path.join(out, "receiver-1-binaural.wav"))
        _, _, omni = read_float_wav(os.path.join(out, "receiver-1.wav"))
        arate, anch, ambi = read_float_wav(os.path.join(out, "receiver-1-ambix.wav"))
        check(nch == 2 and rate == 48000, "binaural IR: %d channels at %d Hz" % (nch, rate))
        check(anch == 16 and arate == 48000, "AmbiX IR: %d channels at %d Hz" % (anch, arate))
        if nch != 2 or anch != 16:
            return
        omni = omni[0]
        peak = max(abs(v) for v in omni)
        wdiff = max(abs(a - b) for a, b in zip(ambi[0], omni))
        print("W − omni: %.3g of the peak" % (wdiff / peak))
        check(wdiff <= 1e-5 * peak, "W differs from the omni IR by %.3g of its peak" % (wdiff / peak))

        # the direct sound: the left ear first and louder
        d = math.dist(SOURCE, RECEIVER)
        i0, i1 = int((d / C - 0.001) * rate), int((d / C + 0.0025) * rate)
        lag, _ = xcorr(lr[1], lr[0], i0, i1, int(0.001 * rate))   # > 0: the right ear later
        ild = 10 * math.log10(energy(lr[0], i0, i1) / energy(lr[1], i0, i1))
        print("direct sound: left ear leads by %.0f µs, louder by %.1f dB" % (lag / rate * 1e6, ild))
        check(0.5e-3 <= lag / rate <= 0.75e-3, "direct sound: left ear leads by %.0f µs" % (lag / rate * 1e6))
        check(ild > 3.0, "direct sound: left ear louder by only %.1f dB" % ild)

        # the late part: diffuse (ISO 3382-1 Annex A IACC through `roomwave-cli
        # iacc`), and calibrated as the omni IR
        rc, out_iacc, err = run_cli(["iacc", os.path.join(out, "receiver-1-binaural.wav"), "--json"])
        check(rc == 0, "iacc: exit %d: %s" % (rc, err.strip()))
        if rc == 0:
            ia = json.loads(out_iacc)
            def fig(v):
                return "—" if v is None else "%.3f" % v
            for b in ia["bands"] + [ia["broadband"]]:
                label = "%g Hz" % b["centre_hz"] if b["centre_hz"] else "broadband"
                print("IACC %-9s early %s late %s" % (label, fig(b["iacc_early"]), fig(b["iacc_late"])))
            print("IACC_E3 %.3f, IACC_L3 %.3f" % (ia["iacc_e3"], ia["iacc_l3"]))
            check(ia["iacc_l3"] < 0.5, "late part: IACC_L3 %.3f, not below 0.5" % ia["iacc_l3"])
        l0, l1 = int(0.1 * rate), int(1.0 * rate)
        ratio = 10 * math.log10(0.5 * (energy(lr[0], l0, l1) + energy(lr[1], l0, l1)) / energy(omni, l0, l1))
        print("late part: binaural / omni energy %.2f dB" % ratio)
        check(abs(ratio) < 1.5, "late part: binaural / omni energy %.2f dB" % ratio)

        # the auralisation: stereo, never clipping
        wet = os.path.join(art, "demo-binaural-auralised.wav")
        rc, _, err = run_cli(["auralise", os.path.join(out, "receiver-1-binaural.wav"), DRY, "-o", wet])
        check(rc == 0, "auralise: exit %d: %s" % (rc, err.strip()))
        if rc == 0:
            wrate, wch, w = read_float_wav(wet)
            wpeak = max(max(abs(v) for v in ch) for ch in w)
            print("auralised: %d channels, peak %.2f dBFS" % (wch, 20 * math.log10(wpeak)))
            check(wch == 2, "auralised: %d channels" % wch)
            check(wpeak < 1.0, "auralised: clips (peak %.4f)" % wpeak)
        for src, png in ((os.path.join(out, "receiver-1-binaural.wav"), names[0]), (wet, names[1])):
            rc, _, err = run_cli(["spectrogram", src, "-o", os.path.join(art, png), "--channel", "0"])
            check(rc == 0 and os.path.getsize(os.path.join(art, png)) > 40000,
                  "spectrogram %s: exit %d: %s" % (png, rc, err.strip()))
        print("artifacts in %s" % art)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
    sys.exit(finish())
