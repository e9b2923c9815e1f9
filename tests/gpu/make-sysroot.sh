#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# tests/gpu/make-sysroot.sh — run HERE (the Debian development machine),
# not on the GPU machine: downloads the Debian packages of the engine's
# libraries that the GPU machine lacks and unpacks them into .carry/sysroot
# (git-ignored, ~55 MB), which tests/gpu/run.sh uses when it is carried
# along (device tool: carry [".carry"]). See docs/GPU.md, "Running it".
# Open MPI (issue #15, `tests/gpu/run.sh mpi`) is among them: its runtime,
# wrappers, headers and the libraries its components load; run.sh
# relocates it (OPAL_PREFIX, PMIX_PREFIX) to where the sysroot lies.
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
  # Open MPI 4.1 and the runtime closure of its libraries and components
  # (readelf NEEDED over libopenmpi3, openmpi-bin, libpmix2, libucx0,
  # libfabric1; libc, libstdc++, libgcc, zlib, libudev the machine has)
  openmpi-bin openmpi-common libopenmpi3 libopenmpi-dev libpmix2 libmunge2
  libevent-core-2.1-7 libevent-pthreads-2.1-7 libucx0 libfabric1 libibverbs1
  ibverbs-providers librdmacm1 libpsm2-2 libpsm-infinipath1 libnuma1 libnl-3-200
  libnl-route-3-200 libatomic1
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
# Open MPI: C only. Its Fortran, Java and C++ bindings and its internal
# headers (opal/, orte/, …: for building Open MPI components) go; mpi.h
# needs mpi_portable_platform.h and mpi-ext.h beside it, and the C++
# header only under __cplusplus (no C++ file of Roomwave includes mpi.h).
LIB=$SYS/usr/lib/x86_64-linux-gnu
rm -rf "$LIB"/fortran "$LIB"/libmpi_mpifh* "$LIB"/libmpi_usempi* "$LIB"/libmpi_java* \
  "$LIB"/openmpi/lib/libmpi_mpifh* "$LIB"/openmpi/lib/libmpi_usempi* "$LIB"/openmpi/lib/libmpi_java* \
  "$LIB"/openmpi/lib/*.mod "$LIB"/openmpi/lib/mpi.jar
INC=$LIB/openmpi/include
rm -rf "$INC"/openmpi/{opal,orte,oshmem,mpiext} "$INC"/{mpif*,shmem*,pshmem*,openshmem,mpp}
find "$INC"/openmpi/ompi -mindepth 1 -maxdepth 1 ! -name mpi -exec rm -rf {} +
find "$INC"/openmpi/ompi/mpi -mindepth 1 -maxdepth 1 ! -name cxx -exec rm -rf {} +
# Embree's library is 44 MB (every ISA from SSE2 to AVX-512 in one file):
# the sysroot would pass the device tool's 64 MiB carry limit. Kept
# xz-compressed (≈ 9 MB); run.sh unpacks it on the GPU machine.
for so in "$SYS"/usr/lib/x86_64-linux-gnu/libembree3.so.*; do
  [ -L "$so" ] || xz -T0 -6 "$so"
done
du -sh "$SYS"
