#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/fuzz/run.sh [SECONDS] — builds the engine and the GUI's library
# with clang for libFuzzer (ASan + UBSan, CUDA off) and runs each target
# for SECONDS (default 300) from the seed corpus made here: fuzz-files
# (the files a user hands the engine), fuzz-analysis (an IR's analysis),
# fuzz-checkpoint (a checkpoint file, also with its checksums made right
# after each change), fuzz-project (a .roomwave project file, through the
# import helper), fuzz-sofa (an HRTF set; with RW_FUZZ_MYSOFA_SRC naming a
# libmysofa source tree of the installed version, 1.3.1 on Debian 12, that
# library built from it with the same instrumentation; else the system's,
# where only crashes show; e.g. `git archive v1.3.1 src | tar x -C DIR`
# in a clone of github.com/hoene/libmysofa). Crashes land in $OUT
# (default /tmp/rw-fuzz).
# Needs clang and the packages of .ci/install-deps. Not run by CI: fuzzing
# is open-ended.
set -eu
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SECS=${1:-300}
OUT=${OUT:-/tmp/rw-fuzz}
B=$OUT/build-ui
mkdir -p "$OUT"
if [ ! -f "$B/build.ninja" ]; then
  CC=clang CXX=clang++ CFLAGS="-fsanitize=fuzzer-no-link,address,undefined -g -O1" \
    LDFLAGS="-fsanitize=address,undefined" \
    meson setup "$B" "$ROOT" -Dgui=enabled -Dcuda=disabled -Dmpi=disabled -Dnccl=disabled > "$OUT/setup.log"
fi
ninja -C "$B" libroomwave.a ui/libroomwave-ui.a app/roomwave-cli app/roomwave-import-helper \
  data/gschemas.compiled > "$OUT/build.log"
LIBS="$B/libroomwave.a $(pkg-config --libs assimp sndfile fftw3 fftw3f samplerate cairo json-c libmysofa) -lembree3 -lm -fopenmp"  # Embree: no .pc in Debian
for t in files analysis checkpoint; do
  clang -fsanitize=fuzzer,address,undefined -g -O1 -I"$ROOT/engine" -I"$B" \
    "$ROOT/tests/fuzz/fuzz-$t.c" -o "$OUT/fuzz-$t" $LIBS
done
# fuzz-sofa: libmysofa from its sources (its C files, a config.h and an
# export header of our own: the sources' CMake is not needed), or the
# system's
MYSOFA="$(pkg-config --libs libmysofa)"
if [ -n "${RW_FUZZ_MYSOFA_SRC:-}" ]; then
  M=$OUT/mysofa-build
  mkdir -p "$M/obj" "$M/inc"
  # reader.c includes "../config.h": found as $M/inc/../config.h
  printf '#define CMAKE_INSTALL_PREFIX "/usr"\n#define CPACK_PACKAGE_VERSION_MAJOR 1\n#define CPACK_PACKAGE_VERSION_MINOR 3\n#define CPACK_PACKAGE_VERSION_PATCH 1\n' > "$M/config.h"
  printf '#define MYSOFA_EXPORT\n' > "$M/inc/mysofa_export.h"
  for f in "$RW_FUZZ_MYSOFA_SRC"/src/hdf/*.c "$RW_FUZZ_MYSOFA_SRC"/src/hrtf/*.c \
           "$RW_FUZZ_MYSOFA_SRC"/src/resampler/*.c; do
    clang -fsanitize=fuzzer-no-link,address,undefined -g -O1 -I"$M/inc" -I"$RW_FUZZ_MYSOFA_SRC/src/hrtf" \
      -c "$f" -o "$M/obj/$(basename "$(dirname "$f")")-$(basename "$f" .c).o"
  done
  ar rcs "$M/libmysofa-fuzz.a" "$M"/obj/*.o
  MYSOFA="$M/libmysofa-fuzz.a -lz"
fi
clang -fsanitize=fuzzer,address,undefined -g -O1 -I"$ROOT/engine" -I"$B" "$ROOT/tests/fuzz/fuzz-sofa.c" \
  -o "$OUT/fuzz-sofa" "$B/libroomwave.a" $(pkg-config --libs assimp sndfile fftw3 fftw3f samplerate cairo json-c) \
  $MYSOFA -lembree3 -lm -fopenmp
clang -fsanitize=fuzzer,address,undefined -g -O1 -I"$ROOT/engine" -I"$ROOT/ui" -I"$B" -I"$B/ui" \
  $(pkg-config --cflags gtk4) "$ROOT/tests/fuzz/fuzz-project.c" -o "$OUT/fuzz-project" \
  "$B/ui/libroomwave-ui.a" $LIBS $(pkg-config --libs gtk4 epoxy)

# seeds: the bundled library, a map, an audio file, the admittance CSVs
# of tests/data, a results.json, receivers' texts, a decaying IR, a
# checkpoint
mkdir -p "$OUT/seeds-files" "$OUT/seeds-analysis" "$OUT/seeds-checkpoint"
{ printf '\000'; cat "$ROOT/data/materials.json"; } > "$OUT/seeds-files/library"
printf '\001{"floor":"carpet on concrete","ceiling":{"R":0.5},"wall":{"alpha":0.3}}' > "$OUT/seeds-files/map"
{ printf '\002'; head -c 4000 "$ROOT/data/audio/clap.flac"; } > "$OUT/seeds-files/audio"
for f in "$ROOT"/tests/data/admittance/*.csv; do
  { printf '\003'; cat "$f"; } > "$OUT/seeds-files/csv-$(basename "$f" .csv)"
done
# a results folder of a real run (its WAVs stay, each input its results.json)
ROOMWAVE_DATA_DIR=$ROOT/data ASAN_OPTIONS=detect_leaks=0 "$B/app/roomwave-cli" simulate \
  --mesh "$ROOT/tests/data/meshes/box.obj" --source 1,1,1 --receiver 2,1.5,1.2 \
  --receiver 3,2,1.5:ambisonic=1 --fmax 250 --duration 0.05 --threads 2 \
  --out "$OUT/results" --quiet > "$OUT/simulate.log" 2>&1
export RW_FUZZ_RESULTS=$OUT/results
{ printf '\004'; cat "$OUT/results/results.json"; } > "$OUT/seeds-files/results"
{ printf '\005'; cat "$OUT/results/results.json"; } > "$OUT/seeds-files/validity"
for r in "1,2,3" "1.5,-2e-3,4:binaural,yaw=30" "0,0,0:ambisonic=3,yaw=-90,pitch=45" \
         "2,2,2:omni"; do
  { printf '\006'; printf '%s' "$r"; } > "$OUT/seeds-files/receiver-${#r}"
done
python3 -c "
import math, random, struct
random.seed(1)
d = struct.pack('<HB', 15667, 50) + b''.join(
    struct.pack('<h', int(30000 * math.exp(-i / 2000) * random.uniform(-1, 1))) for i in range(12000))
open('$OUT/seeds-analysis/ir', 'wb').write(d)"

# a checkpoint of fuzz-checkpoint's room, as it is and with its checksums
# made right after each mutation; the project the saver makes of a box
mkdir -p "$OUT/seeds-project"
RW_FUZZ_SEEDS=$OUT/seeds-checkpoint "$OUT/fuzz-checkpoint" -runs=0 > "$OUT/seeds-checkpoint.log" 2>&1
export ROOMWAVE_IMPORT_HELPER=$B/app/roomwave-import-helper GSETTINGS_BACKEND=memory \
  GSETTINGS_SCHEMA_DIR=$B/data
RW_FUZZ_SEEDS=$OUT/seeds-project "$OUT/fuzz-project" -runs=0 > "$OUT/seeds-project.log" 2>&1

# the bundled set, at its own rate and at 48 kHz (the first byte)
mkdir -p "$OUT/seeds-sofa"
{ printf '\000'; cat "$ROOT/data/hrtf/MIT_KEMAR_normal_pinna.sofa"; } > "$OUT/seeds-sofa/kemar"
{ printf '\001'; cat "$ROOT/data/hrtf/MIT_KEMAR_normal_pinna.sofa"; } > "$OUT/seeds-sofa/kemar-48k"

export ROOMWAVE_DATA_DIR=$ROOT/data
status=0
for t in files analysis checkpoint project sofa; do
  mkdir -p "$OUT/corpus-$t"
  # a SOFA file is about 1.2 MB; libmysofa's leaks on damaged files stay
  # in the helper process in a run (fuzz-sofa.c)
  opts="-max_len=65536 -rss_limit_mb=2048"
  leaks=1
  [ $t = sofa ] && opts="-max_len=1300000 -rss_limit_mb=4096 -detect_leaks=0 -timeout=30" && leaks=0
  (cd "$OUT" && ASAN_OPTIONS=detect_leaks=$leaks "./fuzz-$t" -max_total_time="$SECS" $opts \
     "corpus-$t" "seeds-$t" > "log-$t.txt" 2>&1) || status=1
  echo "fuzz-$t: $(grep -a -E '^#[0-9]+' "$OUT/log-$t.txt" | tail -1 | cut -c1-80)"
  grep -a -E "ERROR: |SUMMARY: " "$OUT/log-$t.txt" | head -5 || true
done
exit $status
