#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-spectrogram: `roomwave-cli spectrogram` end to end on synthetic
files whose band levels are known, and on bad input.

- a 1 kHz sine (16-bit WAV, 1 s): --json says 48 kHz, window 2048, hop 512,
  94 frames, 1025 bins, the 1 kHz octave holds the energy (≥ −0.05 dB re
  the total), every octave but 500 Hz … 2 kHz below −40 dB; the PNG is
  1200 × 700 (--size 640x400 gives 640 × 400); .svg writes SVG; the text
  output lists the ten octaves (--third-octave: 30 thirds, 25 Hz …
  20 kHz); channel 1 of a stereo file whose right channel holds the sine;
- bad input exits 1 naming the file and writes no image: a missing file,
  a text file, a silent file, the output equal to the input (a hard link
  too);
- bad usage exits 2: no file, two files, no -o, --range 5, --window 8,
  --size 10x10, --channel 2 of a stereo file is input (exit 1);
- --help exits 0 and names every option.

Environment: ROOMWAVE_CLI (the roomwave-cli to run)."""
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import wave

from rwcheck import check, finish

CLI = os.environ.get("ROOMWAVE_CLI")


def run(args):
    p = subprocess.run([CLI, "spectrogram"] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def write_wav(path, channels, rate=48000):
    n = len(channels[0])
    with wave.open(path, "wb") as w:
        w.setnchannels(len(channels))
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(ch[i] * 30000)) for i in range(n) for ch in channels))


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    return struct.unpack(">II", head[16:24])


def main():
    tmp = tempfile.mkdtemp(prefix="rw-cli-spectrogram-")
    try:
        sine = [0.5 * math.sin(2 * math.pi * 1000 * i / 48000) for i in range(48000)]
        mono = os.path.join(tmp, "sine.wav")
        write_wav(mono, [sine])
        stereo = os.path.join(tmp, "stereo.wav")
        write_wav(stereo, [[0.0] * 48000, sine])
        silent = os.path.join(tmp, "silent.wav")
        write_wav(silent, [[0.0] * 4800])
        text = os.path.join(tmp, "notes.wav")
        with open(text, "w") as f:
            f.write("not audio\n")

        png = os.path.join(tmp, "s.png")
        rc, out, err = run([mono, "-o", png, "--json"])
        check(rc == 0, "sine --json: exit %d: %s" % (rc, err))
        if rc == 0:
            d = json.loads(out)
            check((d["rate_hz"], d["window"], d["hop"], d["frames"], d["bins"]) == (48000, 2048, 512, 94, 1025),
                  "sine: rate, window, hop, frames, bins = %s" % [d[k] for k in ("rate_hz", "window", "hop", "frames", "bins")])
            octv = {b["center_hz"]: b["level_db"] for b in d["octave_bands"]}
            check(len(d["octave_bands"]) == 10 and len(d["third_octave_bands"]) == 30,
                  "sine: %d octaves, %d thirds" % (len(d["octave_bands"]), len(d["third_octave_bands"])))
            check(octv.get(1000, -99) > -0.05, "sine: 1 kHz octave at %s dB" % octv.get(1000))
            far = {c: v for c, v in octv.items() if c not in (500, 1000, 2000)}
            check(all(v is not None and v < -40 for v in far.values()), "sine: far octaves %s" % far)
            print("sine: 1 kHz octave %.4f dB, the others ≤ %.1f dB" % (octv[1000], max(far.values())))
        check(png_size(png) == (1200, 700), "sine: PNG %s, expected 1200 × 700" % (png_size(png),))

        rc, out, err = run([mono, "-o", png, "--size", "640x400"])
        check(rc == 0 and png_size(png) == (640, 400), "--size 640x400: exit %d, %s" % (rc, png_size(png)))
        lines = [l for l in out.splitlines() if l.startswith("  ")]
        check(len(lines) == 10 and "31.5 Hz" in lines[0] and "16 kHz" in lines[-1],
              "text output: %d octave lines" % len(lines))
        rc, out, err = run([mono, "-o", png, "--third-octave"])
        lines = [l for l in out.splitlines() if l.startswith("  ")]
        check(rc == 0 and len(lines) == 30 and "25 Hz" in lines[0] and "20 kHz" in lines[-1],
              "--third-octave: exit %d, %d lines" % (rc, len(lines)))
        svg = os.path.join(tmp, "s.svg")
        rc, out, err = run([mono, "-o", svg, "--range", "60", "--window", "1024", "--title", "Sine"])
        with open(svg, "rb") as f:
            head = f.read(400)
        check(rc == 0 and b"<svg" in head, "SVG: exit %d: %s" % (rc, err))
        rc, out, err = run([stereo, "--channel", "1", "-o", png, "--json"])
        check(rc == 0 and json.loads(out)["octave_bands"][5]["level_db"] > -0.05,
              "stereo channel 1: exit %d: %s" % (rc, err))

        # bad input: exit 1, the file named, no image
        fresh = os.path.join(tmp, "fresh.png")
        link = os.path.join(tmp, "link.wav")
        os.link(mono, link)
        for args, name, what in (([os.path.join(tmp, "missing.wav"), "-o", fresh], "missing.wav", "missing file"),
                                 ([text, "-o", fresh], "notes.wav", "text file"),
                                 ([silent, "-o", fresh], "silent.wav", "silent file"),
                                 ([stereo, "--channel", "2", "-o", fresh], "stereo.wav", "channel 2 of 2"),
                                 ([stereo, "-o", fresh], "stereo.wav", "stereo without --channel")):
            rc, out, err = run(args)
            check(rc == 1 and name in err and not os.path.exists(fresh),
                  "%s: exit %d, message %r, image written %s" % (what, rc, err.strip(), os.path.exists(fresh)))
        size = os.path.getsize(mono)
        for out_path, what in ((mono, "output = input"), (link, "output a hard link of the input")):
            rc, out, err = run([mono, "-o", out_path])
            check(rc == 1 and os.path.getsize(mono) == size, "%s: exit %d: %s" % (what, rc, err.strip()))

        # bad usage: exit 2
        for args, what in (([], "no file"), ([mono, mono, "-o", fresh], "two files"), ([mono], "no -o"),
                           ([mono, "-o", fresh, "--range", "5"], "--range 5"),
                           ([mono, "-o", fresh, "--window", "8"], "--window 8"),
                           ([mono, "-o", fresh, "--size", "10x10"], "--size 10x10"),
                           ([mono, "-o", fresh, "--size", "800x600x2"], "--size 800x600x2"),
                           ([mono, "-o", fresh, "--bogus"], "unknown option")):
            rc, out, err = run(args)
            check(rc == 2 and not os.path.exists(fresh), "%s: exit %d: %s" % (what, rc, err.strip()))

        rc, out, err = run(["--help"])
        check(rc == 0 and all(o in out for o in ("--output", "--channel", "--range", "--window", "--size",
                                                  "--title", "--third-octave", "--json")),
              "--help: exit %d" % rc)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    if not CLI:
        print("ROOMWAVE_CLI not set", file=sys.stderr)
        sys.exit(1)
    main()
    sys.exit(finish())
