#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""cli-auralise-compare-errors: `roomwave-cli auralise` and `compare` on bad
input exit 1 with a message that names the offending file, and leave no
output (nor a temporary) behind; bad usage exits 2; --help exits 0; a good
run exits 0 and writes its output. Scenes and N-channel IRs (issue #13):
two `--source IR DRY` pairs give the sum of the two convolutions (a direct
sum in Python) at one gain; a 4-channel IR a 4-channel file; `--decode
binaural` of a first-order plane wave from the left a stereo file with the
left ear louder, the right with `--yaw 180`; sources of different channel
counts or dry rates, a 3-channel IR to decode and an HRTF file that is not
SOFA refused naming the files; their usage errors exit 2.

Environment: ROOMWAVE_CLI (the roomwave-cli to run), ROOMWAVE_DATA_DIR
(the bundled dry signals in audio/).
"""
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
    p = subprocess.run([CLI] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def write_wav(path, channels, rate=48000):
    n = len(channels[0])
    with wave.open(path, "wb") as w:
        w.setnchannels(len(channels))
        w.setsampwidth(2)
        w.setframerate(rate)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, ch[i] * 0.7)) * 32000)) for i in range(n) for ch in channels))


def decay(n, rate=48000, t60=0.5, seed=1):
    import random
    r = random.Random(seed)
    return [(1.0 if i == 100 else 0.0) + 0.3 * r.uniform(-1, 1) * 10 ** (-3 * i / (rate * t60)) for i in range(n)]


def read_float_wav(path):
    """(channels, frames as lists of floats) of a 32-bit float WAV (plain or
    WAVE_FORMAT_EXTENSIBLE), as `auralise` writes it."""
    with open(path, "rb") as f:
        b = f.read()
    assert b[:4] == b"RIFF" and b[8:12] == b"WAVE"
    pos, channels, data = 12, None, None
    while pos + 8 <= len(b):
        cid, size = b[pos:pos + 4], struct.unpack("<I", b[pos + 4:pos + 8])[0]
        body = b[pos + 8:pos + 8 + size]
        if cid == b"fmt ":
            fmt, channels = struct.unpack("<HH", body[:4])
            bits = struct.unpack("<H", body[14:16])[0]
            if fmt == 0xFFFE:
                fmt = struct.unpack("<H", body[24:26])[0]
            assert fmt == 3 and bits == 32, (fmt, bits)
        elif cid == b"data":
            data = body
        pos += 8 + size + (size & 1)
    n = len(data) // 4
    v = struct.unpack("<%df" % n, data)
    return channels, [list(v[c::channels]) for c in range(channels)]


def read_pcm16(path):
    with wave.open(path, "rb") as w:
        ch, n = w.getnchannels(), w.getnframes()
        v = struct.unpack("<%dh" % (ch * n), w.readframes(n))
    return [[x / 32768.0 for x in v[c::ch]] for c in range(ch)]


def convolve(x, h):
    y = [0.0] * (len(x) + len(h) - 1)
    for i, xi in enumerate(x):
        if xi:
            for k, hk in enumerate(h):
                y[i + k] += xi * hk
    return y


def listing(d):
    return sorted(os.listdir(d))


def main():
    if not CLI:
        print("ROOMWAVE_CLI not set", file=sys.stderr)
        return 1
    tmp = tempfile.mkdtemp(prefix="rw-cli-errors-")
    try:
        good_ir = os.path.join(tmp, "ir.wav")
        write_wav(good_ir, [decay(24000)])
        stereo_ir = os.path.join(tmp, "ir-stereo.wav")
        write_wav(stereo_ir, [decay(24000, seed=1), decay(24000, seed=2)])
        silent = os.path.join(tmp, "silent.wav")
        write_wav(silent, [[0.0] * 4800])
        dry = os.path.join(tmp, "dry.wav")
        write_wav(dry, [decay(9600, t60=0.05, seed=3)])
        empty = os.path.join(tmp, "empty.wav")
        open(empty, "wb").close()
        garbage = os.path.join(tmp, "garbage.wav")
        with open(garbage, "wb") as f:
            f.write(b"RIFF\x10\x00\x00\x00WAVEfmt definitely not audio" * 8)
        header_only = os.path.join(tmp, "header-only.wav")
        write_wav(header_only, [[]])
        missing = os.path.join(tmp, "no-such-file.wav")
        folder = os.path.join(tmp, "a-folder.wav")
        os.mkdir(folder)
        outdir = os.path.join(tmp, "out")
        os.mkdir(outdir)

        # a WAV header with a sample rate of 0 (bytes 24-27), and a device
        rate0 = os.path.join(tmp, "rate0.wav")
        with open(dry, "rb") as f:
            b = bytearray(f.read())
        b[24:28] = b"\0\0\0\0"
        with open(rate0, "wb") as f:
            f.write(b)

        bad_files = [empty, garbage, header_only, missing, folder, rate0, "/dev/zero"]
        # auralise: each bad file as the IR, the right IR and the dry signal
        for bad in bad_files:
            for args in ([bad, dry], [good_ir, bad], [good_ir, dry, "--ir-right", bad]):
                for ext in ("wav", "flac"):
                    out = os.path.join(outdir, "wet." + ext)
                    rc, o, e = run(["auralise"] + args + ["-o", out])
                    check(rc == 1, f"auralise {args}: exit {rc}, expected 1 ({e.strip()})")
                    check(os.path.basename(bad) in e, f"auralise {args}: message does not name {bad}: {e.strip()}")
                    check(listing(outdir) == [], f"auralise {args}: left {listing(outdir)}")
        # silent result, 2-channel IR plus --ir-right, unknown output type
        for args, name in (([silent, dry], "silent.wav"),
                           ([stereo_ir, dry, "--ir-right", good_ir], "ir-stereo.wav"),
                           ([good_ir, dry], "wet.ogg")):
            out = os.path.join(outdir, "wet.ogg" if name == "wet.ogg" else "wet.wav")
            rc, o, e = run(["auralise"] + args + ["-o", out])
            check(rc == 1 and name in e, f"auralise {args}: exit {rc}: {e.strip()}")
            check(listing(outdir) == [], f"auralise {args}: left {listing(outdir)}")
        # the messages for a rate of 0 and a device say so
        rc, o, e = run(["auralise", good_ir, rate0, "-o", os.path.join(outdir, "wet.wav")])
        check(rc == 1 and "sample rate of 0 Hz" in e, f"auralise with a rate-0 dry: exit {rc}: {e.strip()}")
        rc, o, e = run(["auralise", "/dev/zero", dry, "-o", os.path.join(outdir, "wet.wav")])
        check(rc == 1 and "not a regular file" in e, f"auralise /dev/zero: exit {rc}: {e.strip()}")
        check(listing(outdir) == [], f"auralise rate 0 or /dev/zero: left {listing(outdir)}")
        # a dry WAV shorter than its header says: used, with a warning
        # naming the file and both frame counts
        short = os.path.join(tmp, "short.wav")
        with open(dry, "rb") as f:
            b = f.read()
        with open(short, "wb") as f:
            f.write(b[:len(b) - 2 * 4800])
        rc, o, e = run(["auralise", good_ir, short, "-o", os.path.join(outdir, "wet.wav")])
        check(rc == 0 and "warning" in e and "short.wav" in e and "promises 9600 frames" in e
              and "holds 4800" in e, f"auralise a short dry: exit {rc}: {e.strip()}")
        os.remove(os.path.join(outdir, "wet.wav"))
        # an output folder that does not exist
        rc, o, e = run(["auralise", good_ir, dry, "-o", os.path.join(tmp, "nowhere", "wet.wav")])
        check(rc == 1 and "nowhere" in e, f"auralise into a missing folder: exit {rc}: {e.strip()}")

        # compare: each bad file as SIM and as MEASURED
        meas = os.path.join(tmp, "measured.wav")
        write_wav(meas, [decay(48000, t60=0.6, seed=4)])
        stereo_meas = os.path.join(tmp, "measured-stereo.wav")
        write_wav(stereo_meas, [decay(48000, seed=5), decay(48000, seed=6)])
        for bad in bad_files:
            for args in ([bad, meas], [good_ir, bad]):
                pdf = os.path.join(outdir, "r.pdf")
                csv = os.path.join(outdir, "r.csv")
                rc, o, e = run(["compare"] + args + ["--report", pdf, "--csv", csv, "--json-out", os.path.join(outdir, "r.json")])
                check(rc == 1, f"compare {args}: exit {rc}, expected 1 ({e.strip()})")
                check(os.path.basename(bad) in e, f"compare {args}: message does not name {bad}: {e.strip()}")
                check(listing(outdir) == [], f"compare {args}: left {listing(outdir)}")
        for args, name in (([good_ir, stereo_meas], "measured-stereo.wav"),
                           ([good_ir, stereo_meas, "--channel", "2"], "measured-stereo.wav"),
                           ([silent, meas], "silent.wav"),
                           ([stereo_ir, meas], "ir-stereo.wav")):
            rc, o, e = run(["compare"] + args + ["--report", os.path.join(outdir, "r.pdf")])
            check(rc == 1 and name in e, f"compare {args}: exit {rc}: {e.strip()}")
            check(listing(outdir) == [], f"compare {args}: left {listing(outdir)}")
        # a broken results.json beside the simulation
        simdir = os.path.join(tmp, "sim")
        os.mkdir(simdir)
        shutil.copy(good_ir, os.path.join(simdir, "receiver-0.wav"))
        with open(os.path.join(simdir, "results.json"), "w") as f:
            f.write("{ \"fmax_hz\": ")
        rc, o, e = run(["compare", os.path.join(simdir, "receiver-0.wav"), meas])
        check(rc == 1 and "results.json" in e and "ends in the middle" in e and "json_tokener" not in e,
              f"compare with a broken results.json: exit {rc}: {e.strip()}")

        # scenes, N-channel IRs, binaural decoding
        ir_a = os.path.join(tmp, "scene-ir-a.wav")
        write_wav(ir_a, [decay(300, t60=0.01, seed=4)])
        ir_b = os.path.join(tmp, "scene-ir-b.wav")
        write_wav(ir_b, [decay(200, t60=0.01, seed=5)])
        dry_a = os.path.join(tmp, "scene-dry-a.wav")
        write_wav(dry_a, [decay(700, t60=1.0, seed=6)])
        dry_b = os.path.join(tmp, "scene-dry-b.wav")
        write_wav(dry_b, [decay(900, t60=1.0, seed=7)])
        mix = os.path.join(outdir, "mix.wav")
        rc, o, e = run(["auralise", "--source", ir_a, dry_a, "--source", ir_b, dry_b, "-o", mix])
        check(rc == 0 and "2 sources mixed" in o, f"auralise two sources: exit {rc}: {e.strip()}")
        if rc == 0:
            ch, got = read_float_wav(mix)
            ya = convolve(read_pcm16(dry_a)[0], read_pcm16(ir_a)[0])
            yb = convolve(read_pcm16(dry_b)[0], read_pcm16(ir_b)[0])
            ref = [(ya[i] if i < len(ya) else 0.0) + (yb[i] if i < len(yb) else 0.0)
                   for i in range(max(len(ya), len(yb)))]
            g = 10 ** (-1 / 20) / max(abs(v) for v in ref)
            check(ch == 1 and len(got[0]) == len(ref), f"two sources: {ch} channels, {len(got[0])} frames, expected 1, {len(ref)}")
            if ch == 1 and len(got[0]) == len(ref):
                err = max(abs(a - g * r) for a, r in zip(got[0], ref))
                check(err < 1e-5, f"two sources: the mix is {err:.3g} off the sum of the convolutions")
            os.remove(mix)
        ir4 = os.path.join(tmp, "ambix-ir.wav")
        imp = [0.0] * 2400
        plane = [list(imp) for _ in range(4)]
        for c, v in enumerate((1.0, 1.0, 0.0, 0.0)):   # W, Y, Z, X of a plane wave from the left
            plane[c][100] = v
        write_wav(ir4, plane)
        click = os.path.join(tmp, "click.wav")
        write_wav(click, [[1.0] + [0.0] * 63])
        out4 = os.path.join(outdir, "ambix-wet.wav")
        rc, o, e = run(["auralise", ir4, click, "-o", out4])
        check(rc == 0 and read_float_wav(out4)[0] == 4, f"auralise a 4-channel IR: exit {rc}: {e.strip()}")
        if rc == 0:
            os.remove(out4)
        for yaw, left_louder in (("0", True), ("180", False)):
            outb = os.path.join(outdir, "binaural.wav")
            rc, o, e = run(["auralise", ir4, click, "-o", outb, "--decode", "binaural", "--yaw", yaw])
            check(rc == 0 and "binaural" in o, f"auralise --decode binaural --yaw {yaw}: exit {rc}: {e.strip()}")
            if rc == 0:
                ch, (l, r) = read_float_wav(outb)
                el = sum((l[i] - l[i - 1]) ** 2 for i in range(1, len(l)))
                er = sum((r[i] - r[i - 1]) ** 2 for i in range(1, len(r)))
                check(ch == 2 and (el > 4 * er if left_louder else er > 4 * el),
                      f"--decode binaural --yaw {yaw}: left {el:.3g}, right {er:.3g} (high-passed energies)")
                os.remove(outb)
        three = os.path.join(tmp, "three-ch.wav")
        write_wav(three, plane[:3])
        dry44 = os.path.join(tmp, "dry-44k.wav")
        write_wav(dry44, [decay(900, t60=1.0, seed=8)], rate=44100)
        notsofa = os.path.join(tmp, "not-hdf5.sofa")
        with open(notsofa, "w") as f:
            f.write("no HDF5 here\n")
        for args, names in ((["--source", good_ir, dry, "--source", stereo_ir, dry], ["ir.wav", "ir-stereo.wav"]),
                            (["--source", good_ir, dry, "--source", good_ir, dry44], ["dry.wav", "dry-44k.wav"]),
                            ([three, dry, "--decode", "binaural"], ["three-ch.wav", "4, 9 or 16"]),
                            ([good_ir, dry, "--decode", "binaural"], ["ir.wav", "4, 9 or 16"]),
                            ([ir4, dry, "--decode", "binaural", "--hrtf", notsofa], ["not-hdf5.sofa"])):
            rc, o, e = run(["auralise"] + args + ["-o", os.path.join(outdir, "wet.wav")])
            check(rc == 1 and all(n in e for n in names), f"auralise {args}: exit {rc}, expected 1 naming {names}: {e.strip()}")
            check(listing(outdir) == [], f"auralise {args}: left {listing(outdir)}")

        # usage errors: exit 2
        usage = [
            ["auralise", "-o", "x.wav", "--source", good_ir],
            ["auralise", "-o", "x.wav", "--source", good_ir, dry, good_ir, dry],
            ["auralise", "-o", "x.wav", "--source", good_ir, dry, "--ir-right", good_ir],
            ["auralise", good_ir, dry, "-o", "x.wav", "--yaw", "10"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--hrtf", "x.sofa"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--decode", "stereo"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--decode", "binaural", "--pitch", "100"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--decode", "binaural", "--ir-right", good_ir],
            ["auralise"],
            ["auralise", good_ir],
            ["auralise", good_ir, dry],                        # no -o
            ["auralise", good_ir, dry, dry, "-o", "x.wav"],    # extra file
            ["auralise", good_ir, dry, "-o"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--peak", "3"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--peak", "nan"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--block", "abc"],
            ["auralise", good_ir, dry, "-o", "x.wav", "--frobnicate"],
            ["compare"],
            ["compare", good_ir],
            ["compare", good_ir, meas, meas],
            ["compare", good_ir, meas, "--channel", "-1"],
            ["compare", good_ir, meas, "--channel", "one"],
            ["compare", good_ir, meas, "--fmax", "1e999"],
            ["compare", good_ir, meas, "--fmax", "nan"],
            ["compare", good_ir, meas, "--report"],
            ["compare", good_ir, meas, "--bogus"],
        ]
        for args in usage:
            rc, o, e = run(args)
            check(rc == 2, f"{args}: exit {rc}, expected 2 ({e.strip()})")
            check("roomwave-cli" in e, f"{args}: no usage message on stderr")
        for sub in ("auralise", "compare"):
            rc, o, e = run([sub, "--help"])
            check(rc == 0 and "Usage: roomwave-cli " + sub in o, f"{sub} --help: exit {rc}")
        rc, o, e = run(["auralise", "--help"])
        check("--source IR DRY" in o and "--decode binaural" in o and "--yaw" in o, "auralise --help: no --source, --decode, --yaw")

        # good runs
        out = os.path.join(outdir, "wet.flac")
        rc, o, e = run(["auralise", good_ir, dry, "-o", out])
        check(rc == 0 and os.path.getsize(out) > 0, f"auralise: exit {rc}: {e.strip()}")
        data = os.environ.get("ROOMWAVE_DATA_DIR")
        if data:
            clap = os.path.join(data, "audio", "clap.flac")
            rc, o, e = run(["auralise", stereo_ir, clap, "-o", os.path.join(outdir, "clap-wet.wav")])
            check(rc == 0, f"auralise the bundled clap: exit {rc}: {e.strip()}")
        rc, o, e = run(["compare", good_ir, stereo_meas, "--channel", "1"])
        check(rc == 0 and "T30" in o, f"compare --channel 1: exit {rc}: {e.strip()}")
        check(sorted(f for f in listing(outdir) if f.startswith(".") or ".wav." in f or ".flac." in f) == [],
              f"temporaries left: {listing(outdir)}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return finish()


if __name__ == "__main__":
    sys.exit(main())
