#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/gpu/run.sh — everything the CUDA backend needs checked on a GPU
# machine, in one call: build (meson, -Dgui=disabled), the GPU tests,
# compute-sanitizer (memcheck, racecheck), the benchmarks, the end-to-end
# run, and a short table printed LAST.
#
#   tests/gpu/run.sh [quick]          (from the repository root)
#   tests/gpu/run.sh variants 11,12   (new production variants: tests, hall
#                                      table, sanitizers on the first)
#   tests/gpu/run.sh sass PATTERN     (machine code of matching kernels)
#   tests/gpu/run.sh long             (build and the long runs only)
#   tests/gpu/run.sh rays             (build, the ray tracer's speed on the
#                                      machine's cores)
#   tests/gpu/run.sh fullband         (build, the demo room's full-band IR
#                                      on CUDA at fmax 1 and 2 kHz, 4 s:
#                                      analysis, spectrograms, auralisation;
#                                      and the ray tracer's speed)
#   tests/gpu/run.sh bands            (build, the GPU tests, the decay per
#                                      band on CUDA, and the hall's surface
#                                      models)
#   tests/gpu/run.sh spatial          (build, the GPU tests, issue #13's
#                                      ambisonic proof on CUDA at 500 Hz
#                                      and 2 kHz on both schemes, the
#                                      demo room (AUTO: FCC) with a
#                                      binaural and an ambisonic receiver)
#   tests/gpu/run.sh fcc              (build, issue #14: the FCC path's
#                                      checks on the device (bench-fcc
#                                      --check, GPU tests), compute-sanitizer
#                                      on it, and the FCC vs 7-point table at
#                                      equal accuracy; RW_FCC_RUNS: lines of
#                                      "fmax volume" to bench,
#                                      RW_FCC_BENCH_ARGS: more bench-fcc
#                                      options for them)
#   tests/gpu/run.sh nccl             (build with NCCL and the sysroot's
#                                      Open MPI, issue #15: device halos
#                                      bit for bit with 1 and 2 ranks, and
#                                      their step time against the host
#                                      path and none; RW_SLAB_SITES;
#                                      RW_SLAB_HALL=SITES: strong scaling
#                                      on that hall alone; RW_SLAB_QUICK=1:
#                                      checks and halo-nccl bench only)
#   tests/gpu/run.sh fccprof          (build, issue #14: the FCC checks, ncu
#                                      on one step's kernels of the 30 m³
#                                      room and the hall, their step rates,
#                                      the 30 m³ end-to-end run twice
#                                      without and with the warm-up)
#   tests/gpu/run.sh fabric           (build, issue #14: copy-ceiling, the
#                                      SMs' copies, three-word streams and
#                                      the air kernels' march against
#                                      cudaMemcpy; ncu's
#                                      DRAM and L2-fabric throughput on them,
#                                      on one step's FCC kernels of the hall
#                                      in fp32 and fp16, and on the 7-point
#                                      air kernel; the 7-point scheme's
#                                      single steps and two-step passes in
#                                      the hall with face-counted walls,
#                                      ncu on the single steps)
#   tests/gpu/run.sh l2wave           (build, issue #14: copy-ceiling with
#                                      two steps a pass through the L2, and
#                                      ncu's DRAM bytes on them)
#   tests/gpu/run.sh hall8k           (build, issue #14: the 1000 m³ box at
#                                      8 kHz, 2 s, fp16, mesh to WAV on CUDA:
#                                      wall time, memory, timings)
#   tests/gpu/run.sh seam             (build, the seam proof of issue #12:
#                                      seam-check in the hall and the box on
#                                      CUDA at fmax 1 kHz, fc 500 Hz)
#   tests/gpu/run.sh mpi              (build with the sysroot's Open MPI,
#                                      issue #15: test-slab-mpi on the CPU
#                                      with 2 ranks, on CUDA in fp64 with 1
#                                      and 2 ranks (2 GPUs where there are,
#                                      else both on GPU 0), and 2 ranks
#                                      under compute-sanitizer memcheck;
#                                      test-slab-backend-ops on CUDA;
#                                      cli-mpi-spatial-cuda: spatial
#                                      receivers over 1–3 ranks on CUDA)
#
# The GPU machine has no Assimp, libsndfile, libsamplerate, json-c,
# cairo or Embree: when .carry/sysroot exists (Debian packages unpacked with dpkg -x,
# see docs/GPU.md) this script points pkg-config at rewritten copies of
# their .pc files and puts the carried libraries that the machine lacks on
# the library path; its Open MPI it relocates (OPAL_PREFIX, PMIX_PREFIX)
# and puts first on PATH (mpirun, mpicc) and PKG_CONFIG_PATH (ompi-c.pc,
# which meson's dependency('mpi') asks for first). Logs go to $OUT (or
# /tmp/rw-gpu-out).
# docs/GPU.md, "Running it", says how .carry/sysroot is made.
#
# Environment: RW_CELLS (hall inside cells, default 220e6), RW_STEPS
# (timed steps per kernel, default 50), RW_SKIP_SANITIZER=1, RW_SKIP_E2E=1,
# RW_SKIP_LONG=1 (no long runs), RW_LONG_RUN_SCALE (their fmax scale, 4),
# RW_LONG_RUN_VARIANTS (more variants for them),
# RW_ASAN=1 (also build with ASan + UBSan and run the GPU tests under them),
# RW_PROFILE=1 (ncu on production variants 1, 3 and 6; in the variants
# mode on the first variant's kernel, RW_PROFILE_KERNEL, on the hall, in
# the precisions RW_PROFILE_PRECISIONS, default "f32 f16"; with the DRAM
# bytes and the warp stall reasons), RW_BENCH_PRECISION (variants mode:
# the hall table's precision, default all), RW_BUILD_DIR.
# Logs: $OUT/logs.tar.gz; the benchmark tables also as $OUT/bench-*.txt.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
OUT=${OUT:-/tmp/rw-gpu-out}
mkdir -p "$OUT"
# everything but the summary goes to $LOGS, packed into $OUT/logs.tar.gz
# at the end (the GPU machine returns at most 8 files)
LOGS=$OUT/logs
mkdir -p "$LOGS"
B=${RW_BUILD_DIR:-/tmp/rw-build-gpu}
QUICK=${1:-}
CELLS=${RW_CELLS:-220000000}
STEPS=${RW_STEPS:-50}
SUMMARY=$LOGS/summary.txt
: > "$SUMMARY"
note () { echo "$*" | tee -a "$SUMMARY"; }
# simulate under mpirun end to end (modes mpi and nccl), MPIRUN set by the
# caller: sets E2E_RC
mpi_e2e () {
  E2E_RC=0
  # simulate under mpirun, end to end (RW_MPI_E2E, default "2000 0.5":
  # fmax and IR length; the demo room, FCC fp32, CUDA): 1 rank and 2 ranks
  # (one per GPU where there are two), their solve times, and the WAV
  # samples compared byte for byte
  read -r E2E_F E2E_D <<< "${RW_MPI_E2E:-2000 0.5}"
  CLI=$B/app/roomwave-cli
  for np in 1 2; do
    rm -rf "$OUT/e2e-np$np"
    timeout 300 "${MPIRUN[@]}" -np $np "$CLI" simulate --mesh data/rooms/demo-room.obj \
      --source 1.5,1.2,1.3 --receiver 3,2,1.5 --receiver 4.2,3.1,2.2 --fmax "$E2E_F" \
      --duration "$E2E_D" --backend cuda --scheme fcc --no-hybrid --out "$OUT/e2e-np$np" \
      > "$LOGS/mpi-e2e-np$np.txt" 2>&1
    note "e2e np $np (fmax $E2E_F, ${E2E_D} s): rc $? $(grep -hE '^Timings|^Grid|^Backend' "$LOGS/mpi-e2e-np$np.txt" | tr '\n' ' ')"
  done
  # the solver's receivers are bit for bit (test-slab-mpi above); the
  # WAVs also pass through the drift removal, whose uniform-mode readings
  # each rank sums over its own planes (one GPU or two add them in other
  # orders): equal to about their rounding
  for r in 1 2; do
    a=$OUT/e2e-np1/receiver-$r.wav b=$OUT/e2e-np2/receiver-$r.wav
    cmpw=$(python3 -c 'import sys
def d(p):
    b = open(p, "rb").read(); i = b.find(b"data"); n = int.from_bytes(b[i + 4:i + 8], "little")
    import array; a = array.array("f"); a.frombytes(b[i + 8:i + 8 + n]); return a
x, y = d(sys.argv[1]), d(sys.argv[2])
peak = max(abs(v) for v in x); diff = max(abs(u - v) for u, v in zip(x, y))
print("%d samples, %d differ, max |diff| %.3g of peak %.3g" % (len(x), sum(u != v for u, v in zip(x, y)), diff, peak))
sys.exit(0 if len(x) == len(y) > 1000 and diff <= 1e-6 * peak else 1)' "$a" "$b" 2>&1)
    rc=$?
    note "e2e receiver $r, np 2 against np 1: $cmpw"
    [ $rc != 0 ] && E2E_RC=1
  done
  rm -rf "$OUT"/e2e-np*
}


# a shoebox of one surface as an OBJ at $1, of $2 × $3 × $4 m (default
# 4 × 3 × 2.5: the 30 m³ room of issue #14's end-to-end figure)
box_obj () {
  python3 - "$@" <<'EOPY'
import sys
L = tuple(float(a) for a in sys.argv[2:5]) if len(sys.argv) >= 5 else (4.0, 3.0, 2.5)
v = [(x, y, z) for z in (0, L[2]) for y in (0, L[1]) for x in (0, L[0])]
f = [(1, 3, 4, 2), (5, 6, 8, 7), (1, 2, 6, 5), (3, 7, 8, 4), (1, 5, 7, 3), (2, 4, 8, 6)]
with open(sys.argv[1], "w") as o:
    for p in v:
        o.write("v %.6f %.6f %.6f\n" % p)
    for q in f:
        o.write("f %d %d %d\nf %d %d %d\n" % (q[0], q[1], q[2], q[0], q[2], q[3]))
EOPY
}

checked_run () {   # log prefix, name width, summary pattern, detail pattern, name, time limit, command
  # one line a run in the summary (rc, its checks' verdicts), the matching
  # details, the log's tail when it failed; 77 (skipped: no device) and 0
  # pass, anything else sets MODE_RC
  local prefix=$1 width=$2 verdicts=$3 details=$4 name=$5 limit=$6
  shift 6
  local log=$LOGS/$prefix-$name.txt
  timeout "$limit" "$@" > "$log" 2>&1
  local rc=$?
  [ $rc != 0 ] && [ $rc != 77 ] && MODE_RC=1
  note "$(printf "%-${width}s rc %-3s " "$name" "$rc")$(grep -hE "$verdicts" "$log" \
    | sed -E 's/^all [0-9]+ checks passed/all checks passed/' | sort | uniq -c | sed 's/^ *//' | tr '\n' ';')"
  grep -hE "$details" "$log" | sort | uniq -c | sort -rn | head -24
  [ $rc != 0 ] && [ $rc != 77 ] && tail -12 "$log"
}

e2e_box30 () {   # the schemes to run
  # end to end, mesh to WAV: a 30 m³ shoebox (4 × 3 × 2.5 m, every surface
  # R = 0.9), fmax 4 kHz, 1 s of IR, the wave part alone, each scheme at
  # its default accuracy, fp32 on CUDA; wall time and results.json's timings
  box_obj "$LOGS/box30.obj"
  for sch in "$@"; do
    /usr/bin/time -f "wall %e s, max RSS %M kB" "$B/app/roomwave-cli" simulate --mesh "$LOGS/box30.obj" \
      --source 1.1,0.9,1.2 --receiver 2.9,2.1,1.4 --fmax 4000 --duration 1 --reflection 0.9 \
      --no-hybrid --backend cuda --scheme $sch --out "$LOGS/e2e-$sch" --quiet > "$OUT/e2e-$sch.txt" 2>&1
    note "e2e 30 m³ 4 kHz 1 s $sch: rc $? $(tail -1 "$OUT/e2e-$sch.txt")"
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(' ', sys.argv[2], 'timings', d.get('timings'), 'cells', d.get('cells'), 'fs', d.get('fs_grid_hz'))" \
      "$LOGS/e2e-$sch/results.json" $sch 2>&1 | tee -a "$SUMMARY"
  done
}

mode_end () {   # the mode's name: the summary printed last, the logs packed, exit 0
  echo
  echo "================ GPU summary ($1) ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit 0
}

e2e_warm_rounds () {   # rounds, modes (ROOMWAVE_WARM_UP values, each with ,VAR=value … for more)
  # the FCC run of e2e_box30, $1 rounds of each mode in $2 (e.g. "1
  # 1,ROOMWAVE_RELEASE=0"), RW_E2E_VARS set (e.g. ROOMWAVE_FCC_ROWS=flat):
  # wall time, results.json's timings and what total_s holds beyond the
  # timed stages
  box_obj "$LOGS/box30.obj"
  for round in $(seq 1 "$1"); do
    for mode in $2; do
      warm=${mode%%,*}
      more=
      [ "$mode" != "$warm" ] && more=$(echo "${mode#*,}" | tr ',' ' ')
      tag=$(echo "$mode" | tr ',=' '__')
      d=$LOGS/e2e-warm$tag-$round
      ROOMWAVE_WARM_UP=$warm env ${RW_E2E_VARS:-} $more /usr/bin/time -f "wall %e s" "$B/app/roomwave-cli" simulate \
        --mesh "$LOGS/box30.obj" --source 1.1,0.9,1.2 --receiver 2.9,2.1,1.4 --fmax 4000 \
        --duration 1 --reflection 0.9 --no-hybrid --backend cuda --scheme fcc --out "$d" \
        > "$LOGS/e2e-warm$tag-$round.txt" 2>&1
      note "e2e round $round warm-up $warm $more ${RW_E2E_VARS:-}: rc $? $(grep -E '^wall' "$LOGS/e2e-warm$tag-$round.txt")"
      python3 -c "import json,sys; t=json.load(open(sys.argv[1]))['timings']; print('  timings', t, 'untimed %.3f s' % (t['total_s'] - sum(t[k] for k in ('import_s', 'voxelise_s', 'setup_s', 'solve_s', 'postprocess_s', 'geometrical_s', 'join_s'))))" \
        "$d/results.json" 2>&1 | tee -a "$SUMMARY"
    done
  done
}

# ---------------------------------------------------------------- sysroot
SYS=$ROOT/.carry/sysroot
if [ -d "$SYS" ]; then
  LIB=$SYS/usr/lib/x86_64-linux-gnu
  PC=/tmp/rw-pc
  ONLY=/tmp/rw-carried-libs     # the carried libraries this machine lacks
  rm -rf "$PC" "$ONLY"
  mkdir -p "$PC" "$ONLY"
  # libraries make-sysroot.sh compressed (Embree: 44 MB raw)
  for xzf in "$LIB"/*.so.*.xz; do
    [ -e "$xzf" ] && [ ! -e "${xzf%.xz}" ] && xz -dk "$xzf"
  done
  # Embree ships CMake files, no .pc: write one so meson finds it by
  # pkg-config (the GPU machine may have no cmake)
  for cm in "$LIB"/cmake/embree-*; do
    [ -d "$cm" ] || continue
    cat > "$PC/embree.pc" <<EOPC
Name: embree
Description: Embree ray tracing kernels (carried)
Version: ${cm##*/embree-}
Libs: -L$LIB -lembree3
Cflags: -I$SYS/usr/include
EOPC
  done
  for f in "$LIB"/pkgconfig/*.pc; do
    # absolute prefix, and no Requires.private: their .pc files are not
    # carried, and shared linking does not need them
    sed -e "s|^prefix=.*|prefix=$SYS/usr|" \
        -e "s|^libdir=/usr|libdir=$SYS/usr|" -e "s|^includedir=/usr|includedir=$SYS/usr|" \
        -e '/^Requires.private/d' "$f" > "$PC/$(basename "$f")"
  done
  # (some packages still put theirs in /lib: libnl-3, libexpat; libpsm1's
  # in a directory of its own)
  for so in "$LIB"/*.so.* "$SYS"/lib/x86_64-linux-gnu/*.so.* "$SYS"/usr/lib/libpsm1/*.so.*; do
    case $so in *.xz) continue ;; esac
    name=$(basename "$so")
    soname=$(echo "$name" | sed -E 's/(\.so\.[0-9]+).*/\1/')
    if ! ldconfig -p | grep -q " $soname "; then
      ln -sf "$so" "$ONLY/$soname"
    fi
  done
  export PKG_CONFIG_PATH=$PC${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
  export LD_LIBRARY_PATH=$ONLY${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LDFLAGS="-Wl,-rpath-link,$ONLY -Wl,-rpath-link,$LIB"
  echo "sysroot: carried libraries used: $(ls "$ONLY" | tr '\n' ' ')"
  # Open MPI (make-sysroot.sh; issue #15), built for /usr: OPAL_PREFIX
  # moves every directory of it but sysconfdir (/etc/openmpi, absent
  # here: its Debian settings follow as OMPI_MCA_*), PMIX_PREFIX moves
  # PMIx's, whose Debian params file names its plugins' /usr path. Debian
  # installs mpirun and mpicc as alternatives (links made at install, not
  # in the packages): links of our own, first on PATH. mpirun launches on
  # this host alone (plm isolated: the machine may have no ssh, without
  # which the default launcher stops), ranks talk through shared memory
  # (vader; tcp where /dev/shm fails) without the kernel's cross-memory
  # attach, which containers often forbid (ptrace).
  if [ -x "$SYS/usr/bin/orterun" ]; then
    export OPAL_PREFIX=$SYS/usr
    # Debian's PMIx finds no zlib component in the sysroot: say nothing of it
    export PMIX_MCA_pcompress_base_silence_warning=1
    export PMIX_PREFIX=$LIB/pmix2
    export PMIX_MCA_mca_base_component_path=$LIB/pmix2/lib/pmix
    export OMPI_MCA_btl_base_warn_component_unused=0 OMPI_MCA_mtl=^ofi OMPI_MCA_pml=^ucx \
      OMPI_MCA_osc=^ucx,pt2pt OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_vader_single_copy_mechanism=none \
      OMPI_MCA_plm=isolated
    MPIBIN=/tmp/rw-mpi-bin
    rm -rf "$MPIBIN"
    mkdir -p "$MPIBIN"
    ln -s "$SYS/usr/bin/orterun" "$MPIBIN/mpirun"
    ln -s "$SYS/usr/bin/orterun" "$MPIBIN/mpiexec"
    ln -s "$SYS/usr/bin/opal_wrapper" "$MPIBIN/mpicc"
    export PATH=$MPIBIN:$PATH
    echo "sysroot: Open MPI $(mpirun --version 2>&1 | head -1)"
  fi
fi
export PATH=/usr/local/cuda/bin:$PATH

# ------------------------------------------------------------------ build
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$LOGS/gpu.txt"
# a build made before the sysroot had Open MPI is made again with it
if { [ "$QUICK" = mpi ] || [ "$QUICK" = nccl ]; } && [ -f "$B/build.ninja" ] && ! grep -q "RW_HAVE_MPI 1" "$B/rw-config.h"; then
  rm -rf "$B"
fi
if [ ! -f "$B/build.ninja" ]; then
  meson setup "$B" -Dgui=disabled -Dcuda=enabled > "$LOGS/setup.log" 2>&1 \
    || { tail -30 "$LOGS/setup.log"; echo "meson setup failed"; exit 1; }
fi
# RW_JOBS: parallel build jobs (default: ninja's)
meson compile -C "$B" ${RW_JOBS:+-j "$RW_JOBS"} > "$LOGS/build.log" 2>&1 \
  || { grep -E "error|FAILED" "$LOGS/build.log" | head -30; echo "build failed"; exit 1; }
echo "build: ok"

export XDG_CACHE_HOME=$LOGS/cache
# the GPU tests (tests/meson.build, have_cuda)
GPU_TESTS="cuda-vs-cpu cuda-every-cell-written cuda-two-step-passes cuda-strategies-agree cuda-autotune-cache cuda-interp-source cuda-fcc"

# ------------------------------------ sass FUNC: the machine code of kernels
# whose mangled name matches FUNC (no device work), to $OUT/sass.txt
if [ "$QUICK" = sass ]; then
  # production kernels in rw-cuda-backend.o, the other variants in
  # rw-cuda-variants.o, the benchmark's strategies in rw-cuda-bench.o
  # one object at a time, an object it cannot read named and skipped:
  # with all of them in one cuobjdump this mode's output was empty on
  # 2026-11-28 for a pattern of the FCC kernels (cause not found), while
  # cuobjdump -sass on rw-cuda-fcc.o alone gave them
  for o in "$B"/kernels/rw-cuda-*.o; do
    cuobjdump -sass "$o" 2> "$LOGS/sass-err.txt" || echo "sass: $o: $(head -1 "$LOGS/sass-err.txt")" >&2
  done > "$LOGS/sass-all.txt"
  awk -v pat="${2:?sass: a function name pattern}" '/Function :/ { on = ($0 ~ pat) } on' \
    "$LOGS/sass-all.txt" > "$OUT/sass.txt"
  grep -c "^        /\*[0-9a-f]*\*/" "$OUT/sass.txt"
  rm -rf "$LOGS"
  exit 0
fi

# ------------------------------------------- mpi: issue #15 on the GPU
# test-slab-mpi (tests/test-slab-mpi.c): a run spread over N ranks gives
# one rank's receivers bit for bit in fp64, on both lattices. First on the
# CPU with 2 ranks (is MPI itself working here?), then on CUDA
# (RW_SLAB_BACKEND=cuda: each rank on device local rank % the GPUs, and
# against one rank on CUDA and one on the CPU) with 1 and 2 ranks, then 2
# ranks each under compute-sanitizer memcheck; before them
# test-slab-backend-ops, the operations alone on CUDA against the CPU's
# (RW_REQUIRE_CUDA=1: no device fails it), also under memcheck. The
# table comes last.
if [ "$QUICK" = mpi ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  T=$B/tests/test-slab-mpi
  MODE_RC=0
  if ! grep -q "RW_HAVE_MPI 1" "$B/rw-config.h" || [ ! -x "$T" ]; then
    grep -iE "mpi" "$LOGS/setup.log" | head -5
    echo "mpi: the build has no MPI (no .carry/sysroot with Open MPI? tests/gpu/make-sysroot.sh)"
    exit 1
  fi
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
  note "GPUs: $NGPU; $(mpirun --version 2>&1 | head -1)"
  mpi_run () {   # name, time limit, then the command
    checked_run mpi 18 '^all [0-9]+ checks passed|checks? failed|^SKIP|ERROR SUMMARY' \
      "^FAIL|bit for bit|device [0-9]|differs first|energy .* = |Invalid|Address|Leaked|MPI failed|mca_|PMIX|ORTE|Program hit" \
      "$@"
  }
  MPIRUN=(mpirun --oversubscribe --bind-to none -x RW_SLAB_BACKEND)
  # the backend operations alone (planes, owned-plane energy, checkpoints)
  # on CUDA against the CPU's, one process
  RW_REQUIRE_CUDA=1 mpi_run backend-ops 120 "$B/tests/test-slab-backend-ops"
  RW_SLAB_BACKEND=cpu mpi_run cpu-np2 300 "${MPIRUN[@]}" -np 2 "$T"
  RW_SLAB_BACKEND=cuda mpi_run cuda-np1 300 "${MPIRUN[@]}" -np 1 "$T"
  RW_SLAB_BACKEND=cuda mpi_run cuda-np2 300 "${MPIRUN[@]}" -np 2 "$T"
  if [ "${RW_SKIP_SANITIZER:-0}" != 1 ]; then
    RW_REQUIRE_CUDA=1 mpi_run memcheck-backend-ops 200 compute-sanitizer --tool memcheck \
      --leak-check full --error-exitcode 99 "$B/tests/test-slab-backend-ops"
    # Without the CUDA API errors: NCCL's set-up probes kernel images for
    # other GPUs and fails 16 calls a rank by design (measured on two
    # H200s, 2026-11-27: cudaErrorNoKernelImageForDevice in
    # ncclInitKernelsForDevice, nothing else); our kernels and copies are
    # what is checked
    RW_SLAB_BACKEND=cuda mpi_run memcheck-cuda-np2 300 "${MPIRUN[@]}" -np 2 \
      compute-sanitizer --tool memcheck --report-api-errors no --leak-check full \
      --error-exitcode 99 "$T"
    RW_SLAB_BACKEND=cuda mpi_run racecheck-cuda-np2 300 "${MPIRUN[@]}" -np 2 \
      compute-sanitizer --tool racecheck --report-api-errors no --error-exitcode 99 "$T"
  fi
  # binaural and ambisonic receivers over 1–3 ranks on CUDA (their probes
  # straddling the cuts; both schemes), one process on CUDA against the
  # CPU's files byte for byte (tests/test-cli-mpi-spatial.py)
  mpi_run cli-spatial-cuda 900 meson test -C "$B" --no-rebuild --print-errorlogs \
    --timeout-multiplier 1.5 cli-mpi-spatial-cuda
  grep -hE "^FAIL|checks (passed|failed)|SKIP" "$B/meson-logs/testlog.txt" | head -20 | tee -a "$SUMMARY"
  mpi_e2e
  [ $E2E_RC != 0 ] && MODE_RC=1
  echo
  echo "================ GPU summary (mpi) ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit $MODE_RC
fi

# ------------------------------------------- rays: the ray tracer's speed
# on the machine's CPU cores (no GPU work): bench-rays, 1 thread and all,
# and 2 threads (the CI machine's count), to $OUT/bench-rays.txt
if [ "$QUICK" = rays ]; then
  nproc | sed 's/^/cores: /' | tee "$OUT/bench-rays.txt"
  "$B/tests/bench-rays" 2>&1 | tee -a "$OUT/bench-rays.txt"
  OMP_NUM_THREADS=2 "$B/tests/bench-rays" 2>&1 | sed 's/^/OMP_NUM_THREADS=2: /' | tee -a "$OUT/bench-rays.txt"
  rm -rf "$LOGS"
  exit 0
fi

# ------------------------------------------- nccl: issue #15's device halos
# The CUDA backend exchanging a slab's halo planes itself, NCCL send/recv
# on a stream of its own overlapped with the interior
# (kernels/rw-cuda-halo.cuh). Needs a build with NCCL (meson finds it
# beside libcudart, under $NCCL_HOME or in python's nvidia.nccl: the GPU
# machines have it in PyTorch's site-packages) and, for the mpirun parts,
# Open MPI (the sysroot's, as the mpi mode sets it up: rw_mpi_env where
# run.sh defines it, else mpirun on PATH).
#  1. halo-nccl check (no MPI; forked ranks, one a GPU): 1 rank, then 2 on
#     both lattices where there are 2 GPUs — owned planes of p and p⁻ and
#     the receivers bit for bit in fp64 against one device;
#  2. test-slab-mpi on CUDA (RW_SLAB_BACKEND=cuda) under mpirun: -np 1 with
#     ROOMWAVE_SLABS=1 (the NCCL path with one rank), -np 2 (NCCL) and -np 2
#     with ROOMWAVE_HALO=host, each against one rank on CUDA and the CPU;
#  3. the step time per rank with the device exchange, through the host and
#     with none (bench-slab under mpirun, RW_SLAB_SITES sites a rank,
#     default 200e6: every rank voxelises its own slab alone), and the
#     weak-scaling figure; halo-nccl bench as well (device and none,
#     without MPI).
# Table: $OUT/bench-slab.txt; exit 1 when a check failed.
if [ "$QUICK" = nccl ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
  # never NVLink multicast on these machines (KINDS.md): NCCL's own
  # default stays off in every process we start
  export NCCL_NVLS_ENABLE=0
  type rw_mpi_env > /dev/null 2>&1 && rw_mpi_env
  MODE_RC=0
  NGPU=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU")
  SITES=${RW_SLAB_SITES:-200e6}
  if ! grep -q "RW_HAVE_NCCL 1" "$B/rw-config.h"; then
    grep -iE "nccl" "$LOGS/setup.log" | head -5
    note "nccl: the build has no NCCL (nccl.h and libnccl.so[.2] not found; NCCL_HOME=...)"
    MODE_RC=1
  fi
  note "GPUs: $NGPU; NCCL $(python3 -c 'import nvidia.nccl as m; print(list(m.__path__)[0])' 2>/dev/null)"
  # RW_SLAB_HALL=SITES: strong scaling on a hall of SITES sites alone
  # (no checks, no weak runs): the FCC GPU test, then bench-slab with one
  # rank on the whole hall and with NGPU ranks on a slab each, the
  # voxelisers on RW_SLAB_OMP threads a rank (default 16)
  if [ -n "${RW_SLAB_HALL:-}" ]; then
    meson test -C "$B" --no-rebuild --print-errorlogs cuda-fcc > "$LOGS/fcc-tests.txt" 2>&1
    note "cuda-fcc: rc $? $(grep -E 'fp64:.*differ' "$B/meson-logs/testlog.txt" | grep -vc ' 0 receiver samples and 0 cells differ') fp64 cases differ"
    for run in "4000 30" "4000 1000"; do
      read -r fm vol <<< "$run"
      timeout 120 "$B/tests/bench-fcc" --fmax "$fm" --volume "$vol" --seconds 0.5 --fcc-only \
        > "$OUT/bench-fcc-$fm-$vol.txt" 2>&1
      note "bench-fcc fmax $fm volume $vol: rc $?"
      grep -E "^device|^fcc" "$OUT/bench-fcc-$fm-$vol.txt" | tee -a "$SUMMARY"
    done
    e2e_box30 fcc
    MPIRUN=(mpirun --oversubscribe --bind-to none -x NCCL_NVLS_ENABLE -x OMP_NUM_THREADS)
    export OMP_NUM_THREADS=${RW_SLAB_OMP:-16}
    PART=$(python3 -c "print('%g' % (float('$RW_SLAB_HALL') / $NGPU))")
    for run in "1 $RW_SLAB_HALL" "$NGPU $PART"; do
      read -r np s <<< "$run"
      timeout 500 "${MPIRUN[@]}" -np "$np" "$B/tests/bench-slab" "$s" "${RW_SLAB_STEPS:-100}" \
        >> "$OUT/bench-slab.txt" 2>&1
      note "bench-slab -np $np, $s sites a rank: rc $?"
    done
    cat "$LOGS/gpu.txt" "$SUMMARY" "$OUT/bench-slab.txt"
    tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
    exit 0
  fi
  nccl_run () {   # name, time limit, then the command
    checked_run nccl 20 'PASS|FAIL|^all [0-9]+ checks passed|checks? failed|^SKIP' \
      "FAIL|differs first|bit for bit|NCCL error|halo" "$@"
  }
  nccl_run check-1 300 "$B/tests/halo-nccl" check 1
  if [ "$NGPU" -ge 2 ]; then
    nccl_run check-2-fcc 300 "$B/tests/halo-nccl" check 2 fcc
    nccl_run check-2-cubic 300 "$B/tests/halo-nccl" check 2 cubic
  fi
  T=$B/tests/test-slab-mpi
  if grep -q "RW_HAVE_MPI 1" "$B/rw-config.h" && [ -x "$T" ] && command -v mpirun > /dev/null; then
    MPIRUN=(mpirun --oversubscribe --bind-to none -x RW_SLAB_BACKEND -x ROOMWAVE_SLABS -x ROOMWAVE_HALO
            -x NCCL_NVLS_ENABLE)
    RW_SLAB_BACKEND=cuda ROOMWAVE_SLABS=1 nccl_run slab-cuda-np1 300 "${MPIRUN[@]}" -np 1 "$T"
    if [ "$NGPU" -ge 2 ]; then
      RW_SLAB_BACKEND=cuda nccl_run slab-cuda-np2 300 "${MPIRUN[@]}" -np 2 "$T"
      RW_SLAB_BACKEND=cuda ROOMWAVE_HALO=host nccl_run slab-cuda-np2-host 300 "${MPIRUN[@]}" -np 2 "$T"
    fi
    for np in $([ "${RW_SLAB_QUICK:-0}" = 1 ] || echo 1 $([ "$NGPU" -ge 2 ] && echo "$NGPU")); do
      timeout 560 "${MPIRUN[@]}" -np "$np" "$B/tests/bench-slab" "$SITES" 200 \
        >> "$OUT/bench-slab.txt" 2>&1
      note "bench-slab -np $np: rc $?"
    done
    # strong scaling (RW_SLAB_STRONG=1): the hall of -np 1 above cut
    # into NGPU slabs of SITES/NGPU sites each
    if [ "${RW_SLAB_STRONG:-0}" = 1 ] && [ "$NGPU" -ge 2 ]; then
      PART=$(python3 -c "print('%g' % (float('$SITES') / $NGPU))")
      timeout 560 "${MPIRUN[@]}" -np "$NGPU" "$B/tests/bench-slab" "$PART" 200 \
        >> "$OUT/bench-slab.txt" 2>&1
      note "bench-slab strong scaling: -np $NGPU, $PART sites a rank (the hall of -np 1): rc $?"
    fi
  else
    note "nccl: no MPI in the build or no mpirun: test-slab-mpi and bench-slab not run"
    MODE_RC=1
  fi
  # the same halls on both lattices (the 7-point one: SITES cells a rank)
  for lat in fcc cubic; do
    for np in 1 $([ "$NGPU" -ge 2 ] && echo "$NGPU"); do
      timeout 560 "$B/tests/halo-nccl" bench "$np" "$SITES" 200 $lat >> "$OUT/bench-slab.txt" 2>&1
      note "halo-nccl bench $np $lat: rc $?"
    done
  done
  # RW_SLAB_QUICK=1: no bench-slab and no end-to-end runs
  if [ -n "${MPIRUN+x}" ] && [ "${RW_SLAB_QUICK:-0}" != 1 ]; then
    RW_MPI_E2E=${RW_MPI_E2E:-4000 0.5} mpi_e2e
    [ $E2E_RC != 0 ] && MODE_RC=1
  fi
  echo
  echo "================ GPU summary (nccl) ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  [ -f "$OUT/bench-slab.txt" ] && cat "$OUT/bench-slab.txt"
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit $MODE_RC
fi

# ------------------------------------------- seam: the seam proof (#12)
# tests/seam-check (docs/GEOMETRICAL.md, "The seam in real rooms"): the
# wave-only and the geometrical-only IR at the same snapped points, in the
# octave around fc, and the hybrid's T30 per band. The hall-like room
# 24 × 16 × 10 m (≈ 2670 m³, ≈ 31 M cells at 1 kHz) and the 6 × 4 × 3 m box,
# wave part on CUDA (fp32, production kernels), geometrical part on the
# machine's cores; 12 receivers each. RW_SEAM_FMAX / RW_SEAM_FC /
# RW_SEAM_RECEIVERS change the hall's run. Output: $OUT/seam-hall.txt,
# $OUT/seam-box.txt; exit status 1 when a check failed.
if [ "$QUICK" = seam ]; then
  export ROOMWAVE_DATA_DIR=$ROOT/data
  SEAM_RC=0
  timeout 560 "$B/tests/seam-check" hall --backend cuda --fmax "${RW_SEAM_FMAX:-1000}" \
    --fc "${RW_SEAM_FC:-500}" --receivers "${RW_SEAM_RECEIVERS:-12}" > "$OUT/seam-hall.txt" 2>&1
  rc=$?
  [ $rc != 0 ] && SEAM_RC=1
  note "seam-check hall cuda: rc $rc $(grep -c FAIL "$OUT/seam-hall.txt") failed checks"
  # the box at the issue's 1 kHz (the CI test runs it at 707 Hz on the CPU;
  # on the CPU at 1 kHz its 50–100 ms window failed by −1.73 dB against
  # the 1.5 dB limit: docs/GEOMETRICAL.md, "A systematic difference")
  timeout 300 "$B/tests/seam-check" box --backend cuda --fmax 1000 --fc 500 --duration 1.2 \
    > "$OUT/seam-box.txt" 2>&1
  rc=$?
  [ $rc != 0 ] && SEAM_RC=1
  note "seam-check box cuda 1 kHz: rc $rc $(grep -c FAIL "$OUT/seam-box.txt") failed checks"
  echo
  echo "================ GPU summary ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  for f in "$OUT/seam-hall.txt" "$OUT/seam-box.txt"; do
    echo "--- $(basename "$f")"
    grep -E "^seam-check:|FAIL|volume|geometrical part|^window|T30 in|^ +[0-9]+ Hz|largest|checks" "$f"
  done
  rm -rf "$LOGS"
  exit $SEAM_RC
fi

# ------------------------------------------------ fcc: issue #14's kernels
if [ "$QUICK" = fcc ]; then
  "$B/tests/bench-fcc" --check --fmax 500 --volume 30 --seconds 0.3 --precision f64 \
    > "$OUT/fcc-check.txt" 2>&1
  note "bench-fcc --check: rc $? $(grep -c FAIL "$OUT/fcc-check.txt") failed"
  grep -E "^check" "$OUT/fcc-check.txt"
  meson test -C "$B" --no-rebuild --print-errorlogs $GPU_TESTS > "$LOGS/fcc-tests.txt" 2>&1
  note "GPU tests: rc $? $(grep -E '^(Ok|Fail|Skipped):' "$LOGS/fcc-tests.txt" | tr -s ' ' | tr '\n' ' ')"
  grep -E "^ *[0-9]+/[0-9]+ .*(OK|FAIL|SKIP|ERROR)" "$LOGS/fcc-tests.txt"
  grep -E "fp64:|relative L2|poisoned" "$B/meson-logs/testlog.txt" | grep -v "^ *$" | head -30
  if [ "${RW_SKIP_SANITIZER:-0}" != 1 ]; then
    for tool in memcheck racecheck; do
      timeout 400 compute-sanitizer --tool $tool --error-exitcode 9 "$B/tests/test-cuda-fcc" \
        > "$LOGS/fcc-$tool.txt" 2>&1
      note "compute-sanitizer $tool on cuda-fcc: rc $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/fcc-$tool.txt" | tail -1))"
    done
  fi
  printf '%s\n' "${RW_FCC_RUNS-1000 30
4000 30
2000 1000
4000 1000}" | while read -r fm vol; do
    [ -n "$fm" ] || continue
    # RW_FCC_BENCH_ARGS: more bench-fcc options for every line (e.g.
    # "--fcc-only --precision f16 --seconds 20" for a hall at 8 kHz)
    timeout 300 "$B/tests/bench-fcc" --fmax "$fm" --volume "$vol" --seconds 1 ${RW_FCC_BENCH_ARGS:-} \
      > "$OUT/bench-fcc-$fm-$vol.txt" 2>&1
    note "bench-fcc fmax $fm volume $vol: rc $?"
    cat "$OUT/bench-fcc-$fm-$vol.txt"
  done
  e2e_box30 fcc cartesian
  tar -czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit 0
fi

# ------------------------------------------- fccprof: issue #14, where a step goes
# The FCC path's checks (bench-fcc --check, cuda-fcc), then ncu on one
# step's kernels (air, boundary, io: durations, DRAM and L2 bytes,
# occupancy, warp stalls; caches not flushed between kernels) of the
# 30 m³ room in fp32 and the 1000 m³ hall in fp32 and fp16 at 4 kHz
# (RW_PROF_CASES: lines "fmax volume precision"), and bench-fcc's step
# rates of the same rooms without the profiler.
if [ "$QUICK" = fccprof ]; then
  # RW_FCC_SKIP_CHECKS=1: no checks (a call that only profiles or
  # times the code a call before checked)
  if [ "${RW_FCC_SKIP_CHECKS:-0}" != 1 ]; then
    "$B/tests/bench-fcc" --check --fmax 500 --volume 30 --seconds 0.3 --precision f64 \
      > "$LOGS/fcc-check.txt" 2>&1
    note "bench-fcc --check: rc $? $(grep -c FAIL "$LOGS/fcc-check.txt") failed"
    grep -E "^check" "$LOGS/fcc-check.txt"
    meson test -C "$B" --no-rebuild --print-errorlogs cuda-fcc > "$LOGS/fcc-tests.txt" 2>&1
    note "cuda-fcc: rc $?"
  else
    note "fccprof: checks skipped (RW_FCC_SKIP_CHECKS=1)"
  fi
  # RW_FCC_SANITIZE=1: compute-sanitizer memcheck and racecheck on cuda-fcc
  if [ "${RW_FCC_SANITIZE:-0}" = 1 ]; then
    # racecheck on the L-room's two-step passes alone (RW_TEST_QUICK=2:
    # their ring is in shared memory; their runs also take single steps,
    # with the boundary and fp16's means kernels, and read the energy, in
    # fp64, fp32 and fp16, with walls of branches; the L-room's whole
    # checks, =1, took over 300 s under racecheck on 2026-11-28)
    for tool in memcheck racecheck; do
      quick=; [ $tool = racecheck ] && quick=2
      RW_TEST_QUICK=$quick timeout 300 compute-sanitizer --tool $tool --error-exitcode 9 "$B/tests/test-cuda-fcc" \
        > "$LOGS/fcc-$tool.txt" 2>&1
      note "compute-sanitizer $tool on cuda-fcc: rc $? ($(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$LOGS/fcc-$tool.txt" | tail -1))"
    done
  fi
  # RW_SWEEP: lines "fmax volume precision [VAR=value …]": bench-fcc
  # (--fcc-only, RW_SWEEP_SECONDS of audio, default 1) with those
  # variables set, before the profiles
  printf '%s\n' "${RW_SWEEP-}" | while read -r fm vol prec vars; do
    [ -n "$fm" ] || continue
    env $vars "$B/tests/bench-fcc" --fmax "$fm" --volume "$vol" --fcc-only --precision "$prec" \
      --seconds "${RW_SWEEP_SECONDS:-1}" > "$LOGS/sweep.txt" 2>&1
    note "sweep $fm $vol $prec ${vars:-(defaults)}: rc $? $(grep -E '^fcc ' "$LOGS/sweep.txt" | tr -s ' ') $(grep -h 'L2 window' "$LOGS/sweep.txt" | head -1)"
  done
  printf '%s\n' "${RW_PROF_CASES-4000 30 f32
4000 1000 f32
4000 1000 f16}" | while read -r fm vol prec; do
    [ -n "$fm" ] || continue
    log=$LOGS/ncu-$fm-$vol-$prec.txt
    timeout 200 ncu --clock-control none --cache-control none \
      --kernel-name regex:"rw_kernel_(fcc_air|fcc_boundary|io)" --launch-skip 60 --launch-count 3 \
      ${RW_PROF_SECTIONS---section SpeedOfLight --section Occupancy --section LaunchStats --section WarpStateStats --section MemoryWorkloadAnalysis --section SchedulerStats} \
      --metrics gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_bytes.sum,l1tex__t_bytes.sum,smsp__inst_executed.sum \
      "$B/tests/bench-fcc" --fmax "$fm" --volume "$vol" --fcc-only --precision "$prec" --seconds 0.05 \
      > "$log" 2>&1
    note "ncu fmax $fm volume $vol $prec: rc $?"
    grep -E "^  rw_kernel|gpu__time_duration|dram__bytes|lts__t_bytes|l1tex__t_bytes|inst_executed.sum|Registers Per|Achieved Occupancy|Theoretical Occupancy|Block Limit Reg|Grid Size|L1/TEX Hit|L2 Hit|Issue Slots Busy|No Eligible|Warp Cycles Per Issued|Stall|DRAM Throughput|Compute \(SM\) Throughput" "$log" | head -90 | tee -a "$SUMMARY"
    grep -iE "Est. Speedup|stall" "$log" | head -20 >> "$SUMMARY"
    if [ -z "${RW_SWEEP-}" ]; then
      timeout 120 "$B/tests/bench-fcc" --fmax "$fm" --volume "$vol" --fcc-only --precision "$prec" --seconds 1 \
        > "$LOGS/bench-$fm-$vol-$prec.txt" 2>&1
      note "bench fmax $fm volume $vol $prec: rc $?"
      grep -vE "^ *$" "$LOGS/bench-$fm-$vol-$prec.txt" | tail -6 | tee -a "$SUMMARY"
    fi
  done
  e2e_warm_rounds "${RW_WARM_ROUNDS:-2}" "${RW_WARM_MODES:-0 1}"
  mode_end fccprof
fi

# ------------------------------------------- fabric: issue #14, the L2's fabric
# The H200's L2 is two halves; an SM reaches the far half's addresses
# through the fabric between them, which a plain copy already keeps 87–90 %
# busy, and streams of three words with rows read again 96–97 % at
# cudaMemcpy's rate (docs/PERFORMANCE.md, "…, eleventh" and "…, twelfth").
# copy-ceiling's rates, then ncu on its kernels (the fifth launch of each
# form), on one step's FCC kernels of the hall at 4 kHz and on the
# 7-point scheme's air kernel in bench-cuda's hall: time, DRAM bytes and
# throughput, the fabric's throughput, the bytes from the L2 to the L1s.
if [ "$QUICK" = fabric ]; then
  "$B/tests/copy-ceiling" > "$LOGS/copy-ceiling.txt" 2>&1
  note "copy-ceiling: rc $?"
  tee -a "$SUMMARY" < "$LOGS/copy-ceiling.txt"
  FM=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  FM=$FM,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__m_xbar2l1tex_read_bytes.sum
  FM=$FM,lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed
  fabric_ncu () {   # label, then ncu's options and the program
    local label=$1
    shift
    timeout 240 ncu --clock-control none --cache-control none --metrics "$FM" "$@" \
      > "$LOGS/ncu-$label.txt" 2>&1
    note "ncu $label: rc $?"
  }
  fabric_ncu copy --kernel-name regex:"copy_kernel|stream_kernel|march_kernel|march_async_kernel" "$B/tests/copy-ceiling"
  sed 's/  */ /g' "$LOGS/ncu-copy.txt" | awk '/ (copy|stream|march|march_async)_kernel[<(]/ { c++; k = $2 " " $9 }
    /gpu__time/ { t = $NF " " $(NF - 1) } /dram__bytes_read/ { r = $NF " " $(NF - 1) }
    /dram__bytes_write/ { w = $NF " " $(NF - 1) } /dram__throughput/ { d = $NF }
    /xbar2l1tex/ { l = $NF " " $(NF - 1) }
    /ltcfabric/ { if (c % 8 == 5) printf "%s %s: DRAM %s + %s (%s %%), L2 to L1 %s, fabric %s %%\n", k, t, r, w, d, l, $NF }' \
    | tee -a "$SUMMARY"
  for prec in f32 f16; do
    fabric_ncu fcc-$prec --kernel-name regex:"rw_kernel_fcc_(air|boundary|wall_means)" \
      --launch-skip 40 --launch-count 4 \
      "$B/tests/bench-fcc" --fmax 4000 --volume 1000 --fcc-only --precision $prec --seconds 0.03
    sed 's/  */ /g' "$LOGS/ncu-fcc-$prec.txt" | grep -E "^ void|__" | cut -c1-100 | tee -a "$SUMMARY"
  done
  fabric_ncu cartesian --kernel-name regex:"^rw_kernel_air" --launch-skip 4 --launch-count 1 \
    "$B/tests/bench-cuda" --room hall --cells "$CELLS" --kernel production --precision f32 --steps 6
  sed 's/  */ /g' "$LOGS/ncu-cartesian.txt" | grep -E "^ void|__" | cut -c1-100 | tee -a "$SUMMARY"
  # The 7-point scheme's two-step passes (variant 13, 92 % of the H100's
  # roofline) run only where no node is listed: the hall with walls by
  # their face counts. Their rate against single steps (variant 5) on
  # this machine, and ncu on one launch of the single steps at the block
  # bench-cuda's autotuning chose on this hall (H200, 2026-11-29). (With
  # --block given, bench-cuda's production row runs single steps, so
  # the passes are not profiled here.)
  for prec in f32 f16; do
    timeout 150 "$B/tests/bench-cuda" --room hall --cells "$CELLS" --kernel production \
      --surfaces faces --precision $prec --variants=5,13 --steps 50 > "$LOGS/faces-$prec.txt" 2>&1
    note "bench-cuda hall faces $prec: rc $?"
    grep -E "^(roofline|production)" "$LOGS/faces-$prec.txt" | tee -a "$SUMMARY"
  done
  ROOMWAVE_CUDA_VARIANT=5 fabric_ncu faces-v5 --kernel-name regex:"^rw_kernel_air" \
    --launch-skip 10 --launch-count 1 "$B/tests/bench-cuda" --room hall --cells "$CELLS" \
    --kernel production --surfaces faces --precision f32 --block 32x4 --steps 40
  sed 's/  */ /g' "$LOGS/ncu-faces-v5.txt" | grep -E "^ void|__" | cut -c1-100 | tee -a "$SUMMARY"
  mode_end fabric
fi

# ------------------------------------------- l2wave: issue #14, two steps through the L2
# copy-ceiling's rates (its last table: two steps a pass whose second
# step comes to a chunk while the L2 may still hold what the first moved
# there, wave_kernel), then ncu on the fifth launch of each wave form:
# time, DRAM bytes, the L2's hit rate (docs/PERFORMANCE.md, "…,
# sixteenth").
if [ "$QUICK" = l2wave ]; then
  "$B/tests/copy-ceiling" > "$LOGS/copy-ceiling.txt" 2>&1
  note "copy-ceiling: rc $?"
  tee -a "$SUMMARY" < "$LOGS/copy-ceiling.txt"
  WM=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
  WM=$WM,lts__t_sector_hit_rate.pct,dram__throughput.avg.pct_of_peak_sustained_elapsed
  timeout 300 ncu --clock-control none --cache-control none --metrics "$WM" \
    --kernel-name regex:"wave2?_kernel|march_kernel" "$B/tests/copy-ceiling" > "$LOGS/ncu-wave.txt" 2>&1
  note "ncu wave: rc $?"
  sed 's/  */ /g' "$LOGS/ncu-wave.txt" | awk '/(wave2?|march)_kernel[<(]/ { match($0, /(wave2?|march)_kernel/); k = substr($0, RSTART, RLENGTH); c[k]++ }
    /gpu__time/ { t = $NF " " $(NF - 1) } /dram__bytes_read/ { r = $NF " " $(NF - 1) }
    /dram__bytes_write/ { w = $NF " " $(NF - 1) } /dram__throughput/ { d = $NF }
    /lts__t_sector_hit_rate/ { n = c[k]; if ((k ~ /wave/ && n % 8 == 5) || (k == "march_kernel" && (n == 51 || n == 52 || n == 67 || n == 68)))
      printf "%s %d %s: DRAM %s + %s (%s %%), L2 hits %s %%\n", k, n, t, r, w, d, $NF }' \
    | tee -a "$SUMMARY"
  mode_end l2wave
fi

# ------------------------------------------- hall8k: issue #14's hall, whole
# A 1000 m³ box (12.6 × 9.95 × 7.94 m, proportions 1 : 0.79 : 0.63, as
# bench-fcc's), every surface R = 0.9, mesh to WAV on CUDA with the FCC
# scheme: RW_HALL_FMAX (8000) Hz, RW_HALL_DURATION (2) s of IR, storage
# RW_HALL_PRECISION (f16), the wave part alone; wall time, peak host
# memory and results.json's timings. RW_HALL_LIMIT: its time limit (570 s).
if [ "$QUICK" = hall8k ]; then
  box_obj "$LOGS/hall1000.obj" $(python3 -c 'a = (1000 / (0.79 * 0.63)) ** (1 / 3); print(a, 0.79 * a, 0.63 * a)')
  d=$LOGS/hall8k
  timeout "${RW_HALL_LIMIT:-570}" /usr/bin/time -v "$B/app/roomwave-cli" simulate --mesh "$LOGS/hall1000.obj" \
    --source 3.1,2.7,1.6 --receiver 9.4,6.2,1.5 --fmax "${RW_HALL_FMAX:-8000}" \
    --duration "${RW_HALL_DURATION:-2}" --reflection 0.9 --no-hybrid --backend cuda --scheme fcc \
    --precision "${RW_HALL_PRECISION:-f16}" --out "$d" > "$LOGS/hall8k.txt" 2>&1
  note "hall 1000 m³ ${RW_HALL_FMAX:-8000} Hz ${RW_HALL_DURATION:-2} s ${RW_HALL_PRECISION:-f16}: rc $?"
  grep -E "Elapsed|Maximum resident|^Grid|^Backend|^Timings|^Solve|sites|steps" "$LOGS/hall8k.txt" | tee -a "$SUMMARY"
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print('  timings', d.get('timings'), 'cells', d.get('cells'), 'fs', d.get('fs_grid_hz'), 'T30', d.get('t30_s', '')); " \
    "$d/results.json" 2>&1 | tee -a "$SUMMARY"
  ls -la "$d" | tee -a "$SUMMARY"
  rm -f "$d"/*.wav
  mode_end hall8k
fi

# ------------------------------------------- spatial: issue #13's proof
if [ "$QUICK" = spatial ]; then
  # Issue #13 on CUDA: the GPU tests; sim-spatial (26 ambisonic receivers
  # of order 3 round a source, wave part and full band) at fmax 500 Hz and
  # 2 kHz on both schemes; the demo room with a binaural and an order-3 ambisonic receiver
  # at fmax 1 kHz, 3 s: IACC, the direct sound's cues, a speech
  # auralisation, spectrograms, timings.
  export ROOMWAVE_DATA_DIR=$ROOT/data
  CLI=$B/app/roomwave-cli
  meson test -C "$B" --print-errorlogs $GPU_TESTS > "$LOGS/tests.log" 2>&1
  TEST_RC=$?
  grep -E "^ *[0-9]+/[0-9]+ " "$LOGS/tests.log"
  # both schemes: AUTO (the FCC scheme, which takes spatial receivers
  # since issue #14) and the 7-point one
  for fm in 500 2000; do
    for scheme in fcc cartesian; do
      RW_SIM_SPATIAL_BACKEND=cuda RW_SIM_SPATIAL_FMAX=$fm timeout 300 "$B/tests/test-sim-spatial" $scheme \
        > "$OUT/sim-spatial-$fm-$scheme.txt" 2>&1
      note "sim-spatial cuda fmax $fm $scheme: rc $? $(grep -c FAIL "$OUT/sim-spatial-$fm-$scheme.txt") failed checks"
      grep -E "wave part|full band|FAIL" "$OUT/sim-spatial-$fm-$scheme.txt" | head -6
    done
  done
  d=$LOGS/demo
  { /usr/bin/time -v "$CLI" simulate --mesh data/rooms/demo-room.obj --source 1.5,2.5,1.5 \
      --receiver 5,2,1.2:binaural,yaw=90 --receiver 5,2.3,1.2:ambisonic=3 --fmax 1000 --duration 3 \
      --backend cuda --out "$d"
    echo "simulate rc $?"
    "$CLI" iacc "$d/receiver-1-binaural.wav"
    "$CLI" auralise "$d/receiver-1-binaural.wav" data/audio/speech-harvard.flac -o "$LOGS/speech.wav"
    "$CLI" spectrogram "$d/receiver-1-binaural.wav" --channel 0 -o "$OUT/demo-binaural-ir-left.png"
    "$CLI" spectrogram "$LOGS/speech.wav" --channel 0 -o "$OUT/demo-binaural-speech-left.png"
    grep -E '"(solve|postprocess|geometrical|join|total)_s"' "$d/results.json"
  } > "$OUT/spatial-demo.txt" 2>&1
  note "demo room binaural + ambisonic, cuda fmax 1 kHz: $(grep 'simulate rc' "$OUT/spatial-demo.txt")"
  echo
  echo "================ GPU summary ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  grep -E "IACC|Elapsed|Maximum resident|_s\"" "$OUT/spatial-demo.txt" | head -20
  rm -rf "$LOGS"
  exit $TEST_RC
fi

# ------------------------------------------- fullband: issue #12's proof
if [ "$QUICK" = fullband ]; then
  # Issue #12's full-band proof at the demo's own settings: the demo room
  # (.ci/demo's source and receivers) on CUDA at fmax 1 and 2 kHz
  # (crossovers 500 Hz and 1 kHz), 4 s, with both parts written; the
  # analysis of the two IRs (every band's method), the IR's and a speech
  # auralisation's spectrograms; then bench-rays on this machine's cores.
  export ROOMWAVE_DATA_DIR=$ROOT/data
  CLI=$B/app/roomwave-cli
  for fm in 1000 2000; do
    d=$LOGS/demo-$fm
    { "$CLI" simulate --mesh data/rooms/demo-room.obj --source 1.5,2.5,1.5 --receiver 5,2,1.2 \
        --receiver 5,2.3,1.2 --fmax $fm --duration 4 --backend cuda --parts --out "$d"
      echo "simulate rc $?"
      "$CLI" analyse "$d/receiver-1.wav" "$d/receiver-2.wav"
      for part in wave geometrical; do
        echo "== $part part, receiver 1 (--fmax 24000: every band shown)"
        "$CLI" analyse "$d/$part-1.wav" --fmax 24000 | sed -n '1,16p'
      done
      "$CLI" spectrogram "$d/receiver-1.wav" -o "$OUT/demo-$fm-ir-spectrogram.png"
      grep -E '"(solve|geometrical|join|total)_s"' "$d/results.json"
    } > "$OUT/fullband-$fm.txt" 2>&1
    note "fullband fmax $fm: $(grep -c . "$OUT/fullband-$fm.txt") lines"
  done
  "$CLI" auralise "$LOGS/demo-1000/receiver-1.wav" data/audio/speech-harvard.flac -o "$LOGS/speech.wav" \
    >> "$OUT/fullband-1000.txt" 2>&1
  "$CLI" spectrogram "$LOGS/speech.wav" -o "$OUT/demo-1000-speech-spectrogram.png" >> "$OUT/fullband-1000.txt" 2>&1
  nproc | sed 's/^/cores: /' > "$OUT/bench-rays.txt"
  "$B/tests/bench-rays" >> "$OUT/bench-rays.txt" 2>&1
  OMP_NUM_THREADS=2 "$B/tests/bench-rays" 2>&1 | sed 's/^/OMP_NUM_THREADS=2: /' >> "$OUT/bench-rays.txt"
  cat "$OUT/bench-rays.txt"
  rm -rf "$LOGS"
  exit 0
fi

# ------------------------------------------- variants LIST: a short call
# for new production variants: correctness of each, the sanitizers on the
# first, and the hall table of the production kernel beside them. Every
# command under a time limit: a kernel that hangs costs seconds, not the
# session's device time.
if [ "$QUICK" = variants ]; then
  LIST=${2:?variants: which, e.g. 11,12}
  for v in ${LIST//,/ }; do
    RW_TEST_VARIANT=$v timeout 60 "$B/tests/test-cuda-every-cell-written" > "$LOGS/every-v$v.txt" 2>&1
    note "every-cell-written v$v: rc $? $(grep -c FAIL "$LOGS/every-v$v.txt") failed checks"
    grep -E "FAIL|variant $v form" "$LOGS/every-v$v.txt" | head -8
    ROOMWAVE_CUDA_VARIANT=$v timeout 60 "$B/tests/test-cuda-vs-cpu" > "$LOGS/vs-cpu-v$v.txt" 2>&1
    note "cuda-vs-cpu v$v: rc $? $(grep -c FAIL "$LOGS/vs-cpu-v$v.txt") failed checks"
    grep -E "FAIL|fp64|fp32|fp16" "$LOGS/vs-cpu-v$v.txt" | head -8
  done
  timeout 150 "$B/tests/bench-cuda" --room hall --cells "$CELLS" --kernel production \
    --precision "${RW_BENCH_PRECISION:-all}" --variants="$LIST" --steps "$STEPS" > "$LOGS/bench-hall.txt" 2>&1
  note "hall bench: rc $?"
  first=${LIST%%,*}
  # RW_PROFILE=1: ncu on the first variant's two-step or production kernel,
  # on the hall, with the bytes from DRAM and where warps wait (per cent of
  # active cycles)
  NCU_METRICS=dram__bytes_read.sum,dram__bytes_write.sum,smsp__inst_executed.sum
  for s in long_scoreboard short_scoreboard barrier mio_throttle lg_throttle wait \
           not_selected math_pipe_throttle drain no_instruction; do
    NCU_METRICS=$NCU_METRICS,smsp__warp_issue_stalled_${s}_per_warp_active.pct
  done
  if [ "${RW_PROFILE:-0}" = 1 ] && command -v ncu > /dev/null; then
    for prec in ${RW_PROFILE_PRECISIONS:-f32 f16}; do
      ROOMWAVE_CUDA_VARIANT=$first timeout 240 ncu --kernel-name regex:"${RW_PROFILE_KERNEL:-rw_kernel_tb}" \
        --launch-skip 2 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
        --section Occupancy --section WarpStateStats --section SchedulerStats --section LaunchStats \
        --metrics "$NCU_METRICS" \
        "$B/tests/bench-cuda" --room hall --cells "$CELLS" --kernel production --precision $prec \
        --steps 6 > "$LOGS/ncu-v$first-$prec.txt" 2>&1
      note "ncu v$first $prec: rc $?"
      grep -E "DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|L2 Hit|L1/TEX Hit|Duration|Warp Cycles Per Issued|Issued Warp|No Eligible|One or More|dram__bytes|stalled|inst_executed" "$LOGS/ncu-v$first-$prec.txt" | head -40
    done
  fi
  if [ "${RW_SKIP_SANITIZER:-0}" != 1 ]; then
    for tool in memcheck racecheck; do
      RW_TEST_VARIANT=$first timeout 60 compute-sanitizer --tool $tool --error-exitcode 99 \
        "$B/tests/test-cuda-every-cell-written" > "$LOGS/sanitizer-$tool-v$first.log" 2>&1
      note "compute-sanitizer $tool every-cell-written v$first: rc $? $(grep -E "ERROR SUMMARY|RACECHECK SUMMARY" "$LOGS/sanitizer-$tool-v$first.log" | tr '\n' ' ')"
    done
  fi
  echo
  echo "================ GPU summary ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  grep -E "^(device|room|roofline)|^production" "$LOGS/bench-hall.txt"
  cp "$LOGS"/bench-hall.txt "$OUT"/ 2>/dev/null
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit 0
fi

# ------------------------------------------- bands: frequency-dependent
# surfaces (issue #11): the GPU tests that cover them, the 6 × 4 × 3 m box
# decaying per band on CUDA at fmax 1 kHz (fp32), and the hall in its
# three surface models — faces (one R, face counts: the kernels of before),
# area (one R, each node by its absorbing area), bands (six library
# materials per band) — each in fp32 and fp16, production kernels.
bands_bench () {
  for sm in faces area bands; do
    timeout 300 "$B/tests/bench-cuda" --room hall --cells "$CELLS" --surfaces $sm --kernel production \
      --precision all --steps "$STEPS" > "$LOGS/bench-hall-$sm.txt" 2>&1
    note "hall bench, surfaces $sm: rc $?"
  done
  for prec in f32 f16 f64; do
    line="surfaces ($prec):"
    for sm in faces area bands; do
      # the last production row of the precision: the autotuned shape
      g=$(awk -v p="$prec" '/^room/ { on = ($0 ~ ", " p "$") } on && /^production/ { g = $4 }
                           END { print g }' "$LOGS/bench-hall-$sm.txt")
      line="$line $sm $g Gvox/s;"
    done
    note "$line"
  done
  grep -h "^# surface\|^surfaces" "$LOGS/bench-hall-bands.txt" | sort -u | head -10
}
if [ "$QUICK" = bands ]; then
  TEST_RC=0
  # RW_PROFILE_ONLY=1: the profile below alone
  if [ "${RW_PROFILE_ONLY:-0}" != 1 ]; then
    meson test -C "$B" --print-errorlogs $GPU_TESTS > "$LOGS/tests.log" 2>&1
    TEST_RC=$?
    grep -E "^ *[0-9]+/[0-9]+ " "$LOGS/tests.log"
    "$B/tests/test-cuda-vs-cpu" 2>&1 | grep -E "FAIL|frequency-dependent|fp64" | head -20
    # the branch kernel's reads and writes (cuda-vs-cpu runs it on the
    # L-room and the hall in every precision)
    if [ "${RW_SKIP_SANITIZER:-0}" != 1 ]; then
      timeout 300 compute-sanitizer --tool memcheck --error-exitcode 99 "$B/tests/test-cuda-vs-cpu" \
        > "$LOGS/sanitizer-memcheck-vs-cpu.log" 2>&1
      note "compute-sanitizer memcheck cuda-vs-cpu: rc $? $(grep -E "ERROR SUMMARY" "$LOGS/sanitizer-memcheck-vs-cpu.log" | tr '\n' ' ')"
    fi
    RW_DECAY_BACKEND=cuda RW_DECAY_FMAX=1000 timeout 300 "$B/tests/test-sim-decay-bands" > "$LOGS/decay-bands.txt" 2>&1
    note "sim-decay-bands cuda 1 kHz: rc $? $(grep -c FAIL "$LOGS/decay-bands.txt") failed checks"
    grep -E "FAIL|Hz:|box|T30 125" "$LOGS/decay-bands.txt" | head -12
    bands_bench
  fi
  # RW_PROFILE=1: ncu on the branch kernel and the main kernel of the hall
  # with six library materials (fp16 storage and fp32): time, DRAM bytes
  if [ "${RW_PROFILE:-0}" = 1 -o "${RW_PROFILE_ONLY:-0}" = 1 ] && command -v ncu > /dev/null; then
    for prec in f16 f32; do
      timeout 240 ncu --kernel-name regex:"rw_kernel_(branches|air|async)" --launch-skip 4 --launch-count 4 \
        --section SpeedOfLight --section MemoryWorkloadAnalysis --section Occupancy \
        --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum \
        "$B/tests/bench-cuda" --room hall --cells "$CELLS" --surfaces bands --kernel production \
        --precision $prec --steps 6 > "$LOGS/ncu-bands-$prec.txt" 2>&1
      note "ncu bands $prec: rc $?"
      grep -E "^  rw_kernel|Duration|DRAM Throughput|L2 Hit|L1/TEX Hit|dram__bytes|gpu__time|Achieved Occupancy" \
        "$LOGS/ncu-bands-$prec.txt" | head -40
    done
  fi
  echo
  echo "================ GPU summary ================"
  cat "$LOGS/gpu.txt" "$SUMMARY"
  cp "$LOGS"/bench-hall-*.txt "$LOGS/decay-bands.txt" "$OUT"/ 2>/dev/null
  tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
  exit $TEST_RC
fi

# ------------------------------------------------------------------ tests
if [ "$QUICK" != long ]; then
meson test -C "$B" --print-errorlogs $GPU_TESTS solver-energy-lossless-f64 \
  solver-energy-lossless-f32 > "$LOGS/tests.log" 2>&1
TEST_RC=$?
grep -E "^ *[0-9]+/[0-9]+ " "$LOGS/tests.log"
cp "$B/meson-logs/testlog.txt" "$LOGS/testlog.txt" 2>/dev/null
for t in $GPU_TESTS; do
  note "test $t: $(grep -E "^ *[0-9]+/[0-9]+ .*$t " "$LOGS/tests.log" | awk '{print $3}' | head -1)"
  # what each test measured, and any failed check
  "$B/tests/test-$t" 2>&1 | grep -vE "^  variant [1-7]" | grep -E "FAIL|fp64|fp32|fp16|variant|NaN|huge|grid|SKIP" | head -20
done
fi

# ------------------------------------------------- long: only the long runs
[ "$QUICK" = long ] && RW_SKIP_SANITIZER=1

# ------------------------------------------- long runs stay bounded (#10)
# sim-long-run-bounded on the CUDA backend: the plaster box and the
# hall-like room, fmax × RW_LONG_RUN_SCALE (default 4: the box at 1.2 kHz
# for 12 s and 2 kHz for 5 s, the hall at 600 Hz for 5 s), each against
# fp64 on the GPU; in fp32 (production: two-step passes), fp32 single
# steps (variant 5) and fp16 storage (production: variant 9).
# RW_LONG_RUN_VARIANTS="0 1 … 13" adds fp32 and fp16 runs of those
# variants.
if [ "${RW_SKIP_LONG:-0}" != 1 ]; then
  runs="f32:prod f32:5 f16:prod"
  for v in ${RW_LONG_RUN_VARIANTS:-}; do runs="$runs f32:$v f16:$v"; done
  for run in $runs; do
    prec=${run%%:*} v=${run##*:}
    venv=()
    [ "$v" != prod ] && venv=(ROOMWAVE_CUDA_VARIANT=$v)
    env "${venv[@]}" RW_LONG_RUN_BACKEND=cuda RW_LONG_RUN_PRECISION=$prec \
      RW_LONG_RUN_FMAX_SCALE=${RW_LONG_RUN_SCALE:-4} RW_LONG_RUN_MAX_DB=1 timeout 300 \
      "$B/tests/test-sim-long-run-bounded" > "$LOGS/long-$prec-$v.txt" 2>&1
    note "sim-long-run-bounded cuda $prec variant $v: rc $? $(grep -c FAIL "$LOGS/long-$prec-$v.txt") failed checks"
    grep -E "FAIL|window energy" "$LOGS/long-$prec-$v.txt" | head -12
  done
fi

# -------------------------------------------------------- compute-sanitizer
if [ "${RW_SKIP_SANITIZER:-0}" != 1 ]; then
  for tool in memcheck racecheck; do
    tests="test-cuda-every-cell-written test-cuda-two-step-passes test-cuda-strategies-agree"
    # the kernels with shared memory
    [ $tool = racecheck ] && tests="test-cuda-two-step-passes test-cuda-strategies-agree"
    for t in $tests; do
      extra=""
      [ $tool = memcheck ] && extra="--leak-check full"
      RW_TEST_QUICK=1 timeout 240 compute-sanitizer --tool $tool --error-exitcode 99 $extra "$B/tests/$t" > "$LOGS/sanitizer-$tool-$t.log" 2>&1
      rc=$?
      summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|LEAK SUMMARY" "$LOGS/sanitizer-$tool-$t.log" | tr '\n' ' ')
      note "compute-sanitizer $tool $t: rc $rc $summary"
    done
  done
fi

# ------------------------------------------- ASan + UBSan on the GPU paths
# CI runs the suite under the sanitizers but has no GPU: here the host code
# of the CUDA paths (cell packing, launch lists, conversions) runs under
# them too. protect_shadow_gap=0: the CUDA driver maps memory where ASan
# keeps its shadow gap.
if [ "${RW_ASAN:-0}" = 1 ]; then
  BA=${B}-asan
  if [ ! -f "$BA/build.ninja" ]; then
    meson setup "$BA" -Dgui=disabled -Dcuda=enabled -Dsanitize=true > "$LOGS/setup-asan.log" 2>&1
  fi
  if meson compile -C "$BA" > "$LOGS/build-asan.log" 2>&1; then
    for t in $GPU_TESTS; do
      ASAN_OPTIONS=protect_shadow_gap=0:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
        "$BA/tests/test-$t" > "$LOGS/asan-$t.log" 2>&1
      note "ASan+UBSan $t: rc $? $(grep -cE "ERROR: (Address|Leak)Sanitizer|runtime error" "$LOGS/asan-$t.log") sanitizer reports"
    done
  else
    note "ASan build failed: $(grep -E "error" "$LOGS/build-asan.log" | head -3)"
  fi
fi

# ------------------------------------------------------------- benchmarks
BENCH=$B/tests/bench-cuda
if [ "$QUICK" = long ]; then
  :
elif [ "$QUICK" != quick ]; then
  # faces: the hall as the kernels' tables have always measured it (one R
  # per surface, no branch kernel); bands_bench adds the surface models
  "$BENCH" --room hall --cells "$CELLS" --surfaces faces --kernel production --precision all --variants \
    --steps "$STEPS" > "$LOGS/bench-hall.txt" 2>&1
  cat "$LOGS/bench-hall.txt"
  bands_bench
  "$BENCH" --size 512,512,512 --kernel all --steps "$STEPS" > "$LOGS/bench-strategies.txt" 2>&1
  cat "$LOGS/bench-strategies.txt"
  if [ "${RW_SKIP_E2E:-0}" != 1 ]; then
    "$B/tests/e2e-cuda" "$LOGS/e2e" f32 > "$LOGS/e2e.txt" 2>&1
    cat "$LOGS/e2e.txt"
  fi
else
  "$BENCH" --size 128,128,128 --kernel all --steps 10 > "$LOGS/bench-strategies.txt" 2>&1
  cat "$LOGS/bench-strategies.txt"
fi

# ---------------------------------------------------------------- profile
if [ "${RW_PROFILE:-0}" = 1 ] && command -v ncu > /dev/null; then
  for v in 1 3 6; do
    ROOMWAVE_CUDA_VARIANT=$v ncu --kernel-name regex:"rw_kernel_wide|rw_kernel_production" \
      --launch-skip 3 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section Occupancy --section WarpStateStats --section LaunchStats \
      "$BENCH" --size 512,512,512 --kernel production --block 32x4 --steps 3 \
      > "$LOGS/ncu-v$v.txt" 2>&1
    grep -E "DRAM Throughput|Memory Throughput|Achieved Occupancy|Registers Per|L2 Hit|L1/TEX Hit|Stall|Duration|Warp Cycles Per Issued" "$LOGS/ncu-v$v.txt" | head -20
  done
fi

# ------------------------------------------------------------------ table
echo
echo "================ GPU summary ================"
cat "$LOGS/gpu.txt"
cat "$SUMMARY"
for f in "$LOGS/bench-hall.txt" "$LOGS/bench-strategies.txt"; do
  [ -f "$f" ] && grep -E "^(device|room|roofline)|^production|^tiled|^naive|^shared|^pure" "$f"
done
[ -f "$LOGS/e2e.txt" ] && grep "^e2e" "$LOGS/e2e.txt"
# the machine returns at most 8 files: the benchmark tables, and the rest packed
cp "$LOGS"/bench-*.txt "$LOGS"/e2e.txt "$OUT"/ 2>/dev/null
rm -f "$LOGS"/e2e/*.wav
tar czf "$OUT/logs.tar.gz" -C "$OUT" logs && rm -rf "$LOGS"
exit $TEST_RC
