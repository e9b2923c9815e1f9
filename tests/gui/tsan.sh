#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# tsan.sh — the GUI scenarios run-small, cancel and close-running under
# ThreadSanitizer, to show that the simulation and auralisation worker
# threads never race with the main (GTK) thread. See docs/GUI.md, "Thread
# safety, checked". Not a meson test: CI builds with ASan+UBSan, which
# cannot be combined with TSan.
#
#   meson setup build-tsan -Db_sanitize=thread -Dbuildtype=debug -Dcuda=disabled
#   meson compile -C build-tsan
#   tests/gui/tsan.sh build-tsan [scenario…]
#
# Reports go to <builddir>/tsan/<scenario>.<pid> (one file per process),
# each scenario's own output to <builddir>/tsan/<scenario>.log. The script
# prints how many reports there are and how many name a frame in Roomwave's
# code (ui/, engine/, app/, tests/). Exit status: 1 if any report names
# Roomwave code (or the canary shows the set-up blind), 3 if there is none
# but a scenario's own checks failed, 2 on bad usage or a build failure,
# 0 otherwise.
set -u
if [ $# -lt 1 ] || [ ! -x "$1/tests/test-gui" ]; then
  echo "usage: $0 BUILDDIR [run-small|cancel|close-running…]" >&2
  echo "(BUILDDIR configured with -Db_sanitize=thread, tests/test-gui built)" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
shift
src=$(cd "$(dirname "$0")/../.." && pwd)
scenarios=${*:-run-small cancel close-running}
out="$build/tsan"
rm -rf "$out"
mkdir -p "$out/home"

# The GUI tests' environment (tests/meson.build), minus the ASan options.
export ROOMWAVE_DATA_DIR="$src/data"
export G_DEBUG=fatal-criticals
export GSETTINGS_BACKEND=memory
export GSETTINGS_SCHEMA_DIR="$build/data"
export GTK_A11Y=none
export NO_AT_BRIDGE=1
export ROOMWAVE_TEST_ARTIFACTS="$out/artifacts"
export XDG_DATA_HOME="$out/home/data"
export XDG_CONFIG_HOME="$out/home/config"
export XDG_CACHE_HOME="$out/home/cache"
# libgomp is not built with TSan: its barriers are invisible to it and every
# OpenMP loop would be reported. One thread: what is checked is the worker
# against the main thread, not the solver's own parallel loops.
export OMP_NUM_THREADS=1
# GTK renders with GL on Mesa's llvmpipe, as in CI; llvmpipe's own
# rasteriser threads are uninstrumented: keep it single-threaded.
# (GSK_RENDERER=cairo in the environment renders without GL; both give the
# same result.)
export LIBGL_ALWAYS_SOFTWARE=1
export LP_NUM_THREADS=0
export GSK_RENDERER=${GSK_RENDERER:-gl}

# GLib's happens-before edges made visible to TSan (see the shim's comment).
cc=${CC:-cc}
if ! $cc -shared -fPIC -O1 -g -o "$out/tsan-glib-sync.so" "$src/tests/gui/tsan-glib-sync.c" \
     $(pkg-config --cflags --libs gio-2.0) -ldl; then
  echo "$0: could not build tests/gui/tsan-glib-sync.c" >&2
  exit 2
fi
libtsan=$($cc -print-file-name=libtsan.so)
# GSlice's per-thread magazines hand memory between threads under GLib's
# own (invisible) locks: plain malloc instead.
export G_SLICE=always-malloc

tsan_common="halt_on_error=0 exitcode=0 second_deadlock_stack=1 history_size=4 report_signal_unsafe=0"

# The canary: the worker/main-loop pattern of ui/rw-sim-job.c, clean and
# with a planted race. Clean must give 0 reports and racy at least one that
# names tsan-canary.c, or the shim and suppressions hide races.
if ! $cc -fsanitize=thread -g -O1 -o "$out/tsan-canary" "$src/tests/gui/tsan-canary.c" \
     $(pkg-config --cflags --libs gio-2.0); then
  echo "$0: could not build tests/gui/tsan-canary.c" >&2
  exit 2
fi
for m in clean racy; do
  TSAN_OPTIONS="$tsan_common suppressions=$src/tests/gui/tsan.supp" \
    LD_PRELOAD="$libtsan $out/tsan-glib-sync.so" "$out/tsan-canary" "$m" > "$out/canary-$m.log" 2>&1
done
n_clean=$(grep -c '^WARNING: ThreadSanitizer' "$out/canary-clean.log")
n_racy=$(grep -c '^SUMMARY: ThreadSanitizer: data race .*tsan-canary.c' "$out/canary-racy.log")
echo "canary: clean $n_clean report(s) (want 0), planted race $n_racy report(s) (want >= 1)"
if [ "$n_clean" -ne 0 ] || [ "$n_racy" -lt 1 ]; then
  echo "$0: the TSan set-up is not trustworthy (see $out/canary-*.log)" >&2
  exit 1
fi

total_ours=0
failed=""
for s in $scenarios; do
  case $s in
    close-while-running) s=close-running ;;
  esac
  # The preload goes to test-gui only, not to Xvfb and xauth.
  xvfb-run -a -s "-screen 0 1280x1024x24" \
    env TSAN_OPTIONS="$tsan_common suppressions=$src/tests/gui/tsan.supp log_path=$out/$s" \
        LD_PRELOAD="$libtsan $out/tsan-glib-sync.so" \
        "$build/tests/test-gui" "$s" > "$out/$s.log" 2>&1
  rc=$?
  n=$(cat "$out/$s".[0-9]* 2>/dev/null | grep -c '^WARNING: ThreadSanitizer')
  ours=0
  for f in "$out/$s".[0-9]*; do
    [ -f "$f" ] || continue
    # One report: from its WARNING line to the next "=====" line.
    ours=$((ours + $(awk '/^WARNING: ThreadSanitizer/ { inrep = 1; hit = 0 }
                          inrep && /\/(ui|engine|app|tests)\/[^ ]*\.c:/ { hit = 1 }
                          /^==================/ && inrep { if (hit) k++; inrep = 0 }
                          END { print k + 0 }' "$f")))
  done
  echo "$s: test exit $rc, $n TSan report(s), $ours in Roomwave code (logs: $out/$s.*)"
  total_ours=$((total_ours + ours))
  if [ "$rc" -ne 0 ]; then
    failed="$failed $s"
  fi
done
echo "TSan reports in Roomwave code: $total_ours; scenarios whose own checks failed:${failed:- none}"
if [ "$total_ours" -ne 0 ]; then
  exit 1
elif [ -n "$failed" ]; then
  exit 3
fi
exit 0
