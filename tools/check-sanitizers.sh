#!/usr/bin/env bash
# Builds the library for CPU workers with AddressSanitizer, UndefinedBehavior-
# Sanitizer and LeakSanitizer in build-sanitize/ and runs the test suite
# there: memory errors, undefined behaviour and leaks of the library fail it.
#   tools/check-sanitizers.sh STARPU_PREFIX OPENBLAS_PREFIX
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build-sanitize
flags="-O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"

mkdir -p "$build"
# Without the MPI entry points: OpenMPI keeps allocations until exit that
# LeakSanitizer would report; the plain build runs their tests.
if [ ! -f "$build/Makefile" ]; then
    (cd "$build" && "$top/configure" -q --with-starpu="$1" --with-openblas="$2" --without-cuda --without-mpi --disable-shared \
        CFLAGS="$flags" LDFLAGS="-fsanitize=address,undefined") > /dev/null
fi
make -C "$build" -j"$(nproc)" > /dev/null
# StarPU, hwloc and OpenBLAS are not built with the sanitizers: their own
# allocations kept until exit are theirs to answer for (tests/lsan.supp).
# hwloc's PCI plugin (Debian's libhwloc-plugins, which OpenMPI's packages
# bring) keeps libpciaccess's allocations and is unloaded before
# LeakSanitizer reports them, so no suppression can name them; this round
# runs on CPU workers and needs no PCI topology.
HWLOC_PLUGINS_BLACKLIST=hwloc_pci \
ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 \
LSAN_OPTIONS=suppressions=$top/tests/lsan.supp:print_suppressions=0 \
UBSAN_OPTIONS=print_stacktrace=1 \
    make -C "$build" -j"$(nproc)" check
