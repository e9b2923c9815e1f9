#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/fuzz/run.sh [SECONDS] — builds the engine with clang for libFuzzer
# (ASan + UBSan, GUI and CUDA off) and runs each target for SECONDS
# (default 300) from the seed corpus made here. Crashes land in
# $OUT (default /tmp/rw-fuzz). Needs clang and the packages of
# .ci/install-deps. Not run by CI: fuzzing is open-ended.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${1:-300}
OUT=${OUT:-/tmp/rw-fuzz}
B=$OUT/build
mkdir -p "$OUT"
if [ ! -f "$B/build.ninja" ]; then
  CC=clang CXX=clang++ CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -g -O1" \
    LDFLAGS="-fsanitize=address,undefined" \
    meson setup "$B" "$ROOT" -Dgui=disabled -Dcuda=disabled > "$OUT/setup.log"
fi
ninja -C "$B" libroomwave.a > "$OUT/build.log"
LIBS="$B/libroomwave.a $(pkg-config --libs assimp sndfile fftw3 fftw3f samplerate cairo json-c) -lembree3 -lm -fopenmp"  # Embree: no .pc in Debian
for t in files analysis; do
  clang -fsanitize=fuzzer,address,undefined -g -O1 -I"$ROOT/engine" -I"$B" \
    "$ROOT/tests/fuzz/fuzz-$t.c" -o "$OUT/fuzz-$t" $LIBS
done

# seeds: the bundled library, a map, an audio file, a decaying IR
mkdir -p "$OUT/seeds-files" "$OUT/seeds-analysis"
{ printf '\000'; cat "$ROOT/data/materials.json"; } > "$OUT/seeds-files/library"
printf '\001{"floor":"carpet on concrete","ceiling":{"R":0.5},"wall":{"alpha":0.3}}' > "$OUT/seeds-files/map"
{ printf '\002'; head -c 4000 "$ROOT/data/audio/clap.flac"; } > "$OUT/seeds-files/audio"
python3 -c "
import math, random, struct
random.seed(1)
d = struct.pack('<HB', 15667, 50) + b''.join(
    struct.pack('<h', int(30000 * math.exp(-i / 2000) * random.uniform(-1, 1))) for i in range(12000))
open('$OUT/seeds-analysis/ir', 'wb').write(d)"

export ROOMWAVE_DATA_DIR=$ROOT/data
status=0
for t in files analysis; do
  mkdir -p "$OUT/corpus-$t"
  (cd "$OUT" && "./fuzz-$t" -max_total_time="$SECS" -max_len=65536 -rss_limit_mb=2048 \
     "corpus-$t" "seeds-$t" > "log-$t.txt" 2>&1) || status=1
  echo "fuzz-$t: $(grep -a -E '^#[0-9]+' "$OUT/log-$t.txt" | tail -1 | cut -c1-80)"
  grep -a -E "ERROR: |SUMMARY: " "$OUT/log-$t.txt" | head -5 || true
done
exit $status
