#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Regenerates Roomwave's bundled dry (anechoic) signals in this folder:
#   speech-harvard.flac  two Harvard sentences spoken by espeak-ng
#   clap.flac            a synthesised hand-clap-like click
#   phrase.flac          a short musical phrase (additive synthesis)
# All mono, 48 kHz, 24-bit FLAC, peak at -1 dBFS. Needs espeak-ng, sox and
# python3 (standard library only). The output is deterministic except for
# the speech, whose exact samples depend on the espeak-ng version.
# See README.md for what each signal is for and the licence.
set -euo pipefail
cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Speech: Harvard sentences (IEEE 1969 recommended practice, list 1).
# espeak-ng writes 22.05 kHz 16-bit; sox resamples with its very-high-quality
# linear-phase filter, trims the leading silence to 50 ms, pads 0.3 s of
# silence at the end so that a reverberant tail is not cut short, and
# normalises the peak to -1 dBFS.
espeak-ng -v en-us -s 150 -w "$tmp/speech.wav" \
  "The birch canoe slid on the smooth planks. Glue the sheet to the dark blue background."
sox "$tmp/speech.wav" -r 48000 -b 24 -c 1 speech-harvard.flac \
  silence 1 0.01 0.1% reverse silence 1 0.01 0.1% reverse \
  pad 0.05 0.3 rate -v 48000 gain -n -1

# Clap and phrase: synthesised in python3 (fixed random seed → identical
# files on every run), written as 24-bit WAV, converted to FLAC by sox.
python3 - "$tmp" <<'PY'
import math, random, struct, sys, wave

RATE = 48000
tmp = sys.argv[1]

def write(path, x):
    peak = max(abs(v) for v in x) or 1.0
    scale = 10 ** (-1 / 20) / peak
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(3)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<i", int(round(v * scale * 8388607)))[:3] for v in x))

# Clap: a real hand clap is a few noise bursts within ~10 ms (the palms
# meeting at several points), band-limited around 1-2 kHz by the air
# pocket, each decaying in a few ms. Three bursts, exponential decay
# (time constant 2.5 ms for the first two, 8 ms for the main one),
# noise through a two-pole resonator at 1.4 kHz (Q ~ 1) plus some direct
# noise for the high end.
random.seed(20261122)
n = int(0.25 * RATE)
noise = [random.uniform(-1, 1) for _ in range(n)]
f0, q = 1400.0, 1.0
w0 = 2 * math.pi * f0 / RATE
r = 1 - w0 / (2 * q)
a1, a2 = 2 * r * math.cos(w0), -r * r
band = [0.0] * n
y1 = y2 = 0.0
for i in range(n):
    y = noise[i] + a1 * y1 + a2 * y2
    band[i] = y
    y2, y1 = y1, y
bpk = max(abs(v) for v in band)
src = [0.7 * b / bpk + 0.3 * x for b, x in zip(band, noise)]
clap = [0.0] * n
lead = int(0.02 * RATE)  # 20 ms of silence before the clap
for t0_ms, amp, tau_ms in ((0.0, 0.5, 2.5), (3.5, 0.7, 2.5), (7.5, 1.0, 8.0)):
    t0 = lead + int(t0_ms * 1e-3 * RATE)
    for i in range(t0, n):
        clap[i] += amp * src[i] * math.exp(-(i - t0) / (tau_ms * 1e-3 * RATE))
write(f"{tmp}/clap.wav", clap)

# Phrase: eight notes of a C-major arpeggio and back (equal temperament,
# A4 = 440 Hz), each six harmonics with amplitude 1/k and a slight
# inharmonic stretch, a 5 ms attack and an exponential decay faster for
# higher partials (as a plucked or struck string), notes 0.3 s apart and
# ringing over each other; 0.8 s of release at the end.
notes = [60, 64, 67, 72, 76, 72, 67, 60]
step = 0.3
n = int((len(notes) * step + 0.8) * RATE)
x = [0.0] * n
for j, m in enumerate(notes):
    f = 440.0 * 2 ** ((m - 69) / 12)
    t0 = int(j * step * RATE)
    length = min(n - t0, int(1.2 * RATE))
    for k in range(1, 7):
        fk = k * f * math.sqrt(1 + 0.0004 * k * k)
        if fk > 0.45 * RATE:
            break
        ak = 1.0 / k
        tau = 0.6 / k ** 0.7
        dw = 2 * math.pi * fk / RATE
        for i in range(length):
            t = i / RATE
            env = min(1.0, t / 0.005) * math.exp(-t / tau)
            x[t0 + i] += ak * env * math.sin(dw * i)
write(f"{tmp}/phrase.wav", x)
PY

for s in clap phrase; do
  sox "$tmp/$s.wav" "$s.flac"
done
ls -l ./*.flac
