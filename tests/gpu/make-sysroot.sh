#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/gpu/make-sysroot.sh — run HERE (the Debian development machine),
# not on the GPU machine: downloads the Debian packages of the engine's
# libraries that the GPU machine lacks and unpacks them into .carry/sysroot
# (git-ignored, ~36 MB), which tests/gpu/run.sh uses when it is carried
# along (device tool: carry [".carry"]). See docs/GPU.md, "Running it".
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SYS=$ROOT/.carry/sysroot
DEBS=$(mktemp -d)
trap 'rm -rf "$DEBS"' EXIT

packages=(
  libassimp5 libassimp-dev libdraco7 libminizip1
  libsndfile1 libsndfile1-dev libflac12 libogg0 libopus0 libvorbis0a libvorbisenc2
  libmpg123-0 libmp3lame0
  libsamplerate0 libsamplerate0-dev
  libjson-c5 libjson-c-dev
  libcairo2 libcairo2-dev libpixman-1-0 libpng16-16 libfontconfig1 libfreetype6
  libx11-6 libxcb-render0 libxcb-shm0 libxcb1 libxext6 libxrender1 libxau6 libxdmcp6
  libbsd0 libmd0 libexpat1 libbrotli1
  libembree3-3 libembree-dev libtbb12 libtbbmalloc2 libtbbbind-2-5 libhwloc15
  libmysofa1 libmysofa-dev
)
(cd "$DEBS" && apt-get download "${packages[@]}")
rm -rf "$SYS"
mkdir -p "$SYS"
for f in "$DEBS"/*.deb; do
  dpkg -x "$f" "$SYS"
done
# (libmysofa1 brings its own copy of the MIT KEMAR set; Roomwave bundles one)
rm -rf "$SYS"/usr/share/{doc,man,libmysofa}
find "$SYS" -name '*.a' -delete
# Embree's library is 44 MB (every ISA from SSE2 to AVX-512 in one file):
# the sysroot would pass the device tool's 64 MiB carry limit. Kept
# xz-compressed (≈ 9 MB); run.sh unpacks it on the GPU machine.
for so in "$SYS"/usr/lib/x86_64-linux-gnu/libembree3.so.*; do
  [ -L "$so" ] || xz -T0 -6 "$so"
done
du -sh "$SYS"
