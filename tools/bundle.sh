#!/usr/bin/env bash
# Builds a relocatable bundle for compute nodes that have a GPU driver and the
# CUDA runtime but none of the development packages: the library, headers,
# test and benchmark programs, and every shared library they need beyond the C
# runtime and CUDA (StarPU, hwloc, FxT, OpenBLAS, LAPACKE, gfortran runtime).
#
#   tools/bundle.sh [OUTPUT.tar.xz]     default: ./startrd-bundle.tar.xz
#
# On the node:  tar xJf startrd-bundle.tar.xz && startrd-bundle/run check
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
out=$(realpath -m "${1:-$top/startrd-bundle.tar.xz}")
build=$top/build-bundle
stage=$(mktemp -d)
dest=$stage/startrd-bundle

read -r starpu_prefix openblas_prefix < <(bash "$top/tools/setup.sh" | tail -n 1)
if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
    (cd "$top" && autoreconf -fi)
fi
mkdir -p "$build"
# Static libstartrd: the programs are then plain binaries, not libtool wrappers.
# No MPI entry points: the bundle does not carry MPI's runtime and mpirun.
[ -f "$build/Makefile" ] ||
    (cd "$build" && "$top/configure" -q --with-starpu="$starpu_prefix" --with-openblas="$openblas_prefix" --disable-shared --enable-static \
        --without-mpi)
make -C "$build" -j"$(nproc)" >/dev/null
make -C "$build" -j"$(nproc)" check TESTS= >/dev/null
make -C "$build" install DESTDIR="$stage/root" prefix=/ >/dev/null

mkdir -p "$dest/bin" "$dest/tests" "$dest/lib"
cp -a "$stage/root/include" "$dest/"
cp -a "$stage/root/lib/libstartrd.a" "$dest/lib/"
cp -a "$stage/root/bin/." "$dest/bin/" 2>/dev/null || true
for t in $(make -s -C "$build" print-tests); do
    cp "$build/$t" "$dest/tests/"
done
cp "$starpu_prefix/bin/starpu_fxt_tool" "$dest/bin/"

# Copy what the dynamic loader resolves, minus the C runtime and CUDA, which
# every GPU node has and which must match its kernel and driver.
system_lib='^(linux-vdso|ld-linux|libc|libm|libdl|libpthread|librt|libgcc_s|libcuda|libcudart|libcublas|libcublasLt|libcusparse|libcusolver|libcusolverMg|libnvidia|libnvJitLink)[.-]'
for f in "$dest"/bin/* "$dest"/tests/*; do
    # Scripts (the trace renderer) have no libraries to bring.
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' || true
done | sort -u | while read -r lib; do
    base=$(basename "$lib")
    [[ $base =~ $system_lib ]] || cp -L "$lib" "$dest/lib/$base"
done
cp "$top/tools/bundle-run.sh" "$dest/run"
chmod +x "$dest/run"

# Every program links the library statically, CUDA kernels of four
# precisions included: xz with a dictionary larger than one program finds
# the copies, where gzip's 32 KiB window cannot (about 15 MB against 100).
tar -C "$stage" -cf - startrd-bundle | xz -T0 -6e --lzma2=dict=192MiB > "$out"
rm -rf "$stage"
echo "$out ($(du -h "$out" | cut -f1))"
