#!/usr/bin/env bash
# Installs everything StarTRD needs to build on Debian: the distribution's
# packages; StarPU 1.4 with FxT (and CUDA when nvcc is present), which
# Debian only ships as 1.3 without either; and OpenBLAS 0.3.29 with LAPACK
# 3.12.1 and LAPACKE in one library, since the OpenBLAS 0.3.21 of Debian 12
# reads past its arrays in ZGEMV (OpenBLAS issues 4013 and 5000).  Both are
# built from Debian 13's source packages, pinned, into a fixed prefix
# outside the source tree so that every clone and CI run reuses them; a
# second run only checks and costs seconds.
#
#   tools/setup.sh            install what is missing
#   STARTRD_DEPS=/some/dir    choose the prefix (default /opt/startrd-deps)
#
# Prints the StarPU prefix and the OpenBLAS prefix on its last line.
set -euo pipefail

prefix=${STARTRD_DEPS:-/opt/startrd-deps}
starpu_version=1.4.10
starpu_prefix=$prefix/starpu-$starpu_version
openblas_version=0.3.29
openblas_source=0.3.29+ds-3
lapack_source=3.12.1-6
openblas_prefix=$prefix/openblas-$openblas_version
cuda_dir=${CUDA_HOME:-/usr/local/cuda}
# cmake: make check builds the README's example with find_package(StarTRD).
# OpenMPI: StarPU-MPI, which the distributed entry points build on.
# ScaLAPACK: its BLACS tells those entry points the caller's process grid,
# and its PZHEEVD is their peer in the tests; its BLAS calls resolve to the
# OpenBLAS built here, which the programs link first.
packages=(build-essential gfortran autoconf automake libtool pkgconf dpkg-dev
          libhwloc-dev hwloc libfxt-dev libnuma-dev xz-utils python3 cmake
          libopenmpi-dev openmpi-bin libscalapack-openmpi-dev)

say() { printf 'setup: %s\n' "$*" >&2; }
die() { say "error: $*"; exit 1; }

as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"
    elif command -v sudo >/dev/null; then sudo "$@"
    else die "need root (or sudo) to run: $*"; fi
}

have_cuda() { [ -x "$cuda_dir/bin/nvcc" ] || command -v nvcc >/dev/null; }

install_packages() {
    local missing=() p
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    say "installing Debian packages: ${missing[*]}"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        "${missing[@]}" > /tmp/startrd-apt.log 2>&1 || { tail -n 30 /tmp/startrd-apt.log >&2; die "apt-get install failed"; }
}

# The fixes below that the installed StarPU carries, one per line.
# blas-none: StarPU's own link line names no BLAS, so that the programs
# linked through it get the OpenBLAS built here and no other.
patches_file=$starpu_prefix/startrd-patches
patches_wanted=(fxt-tool-bounds blas-none)

# A StarPU is suitable when it is 1.4, built with FxT, StarPU-MPI and the
# fixes below, and with CUDA whenever this machine can compile CUDA code.
starpu_ok() {
    local cfg=$starpu_prefix/include/starpu/1.4/starpu_config.h
    [ -f "$cfg" ] && [ -f "$starpu_prefix/lib/pkgconfig/starpu-1.4.pc" ] || return 1
    [ -f "$starpu_prefix/lib/pkgconfig/starpumpi-1.4.pc" ] || return 1
    local patch
    for patch in "${patches_wanted[@]}"; do
        grep -qx "$patch" "$patches_file" 2>/dev/null || return 1
    done
    grep -q '#define STARPU_USE_FXT 1' "$cfg" || return 1
    grep -q '#define STARPU_USE_MPI 1' "$cfg" || return 1
    if have_cuda; then grep -q '#define STARPU_USE_CUDA 1' "$cfg" || return 1; fi
    return 0
}

# deb-src entries are derived from this machine's own apt sources: the URI of
# its Debian archive, with the suite that carries the wanted version.  They
# live in a private apt directory and never touch the system's configuration.
#   fetch_source DEST SUITE PACKAGE=VERSION [apt-get source options]
fetch_source() {
    local dest=$1 suite=$2 what=$3 aptdir uri
    shift 3
    aptdir=$(mktemp -d)
    uri=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2}';
             cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
                 awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}'; } |
           grep -v -e security -e '^$' | grep -m1 '/debian/\?$' || true)
    [ -n "$uri" ] || die "no Debian archive found in /etc/apt sources"
    mkdir -p "$aptdir/lists/partial"
    printf 'Types: deb-src\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" "$suite" > "$aptdir/src.sources"
    local opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptdir"
                -o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache"
                -o APT::Sandbox::User=root)
    say "fetching the source package $what"
    apt-get "${opts[@]}" update -qq
    (cd "$dest" && apt-get "${opts[@]}" source -qq "$@" "$what") || die "apt-get source $what failed"
    rm -rf "$aptdir"
}

# CUDA 13 removed cudaDeviceProp::computeMode; the drivers read it in one
# comparison each, which now asks the driver attribute instead.
patch_for_cuda13() {
    local f
    for f in src/drivers/cuda/driver_cuda.c src/drivers/cuda/driver_cuda1.c; do
        [ -f "$f" ] || continue
        perl -0pi -e 's/props\[(\w+)\]\.computeMode/startrd_compute_mode($1)/g;
                      s/(#include <starpu_cuda.h>\n)/$1static inline int startrd_compute_mode(int dev) { int m = 0; cudaDeviceGetAttribute(&m, cudaDevAttrComputeMode, dev); return m; }\n/' "$f"
        ! grep -q 'computeMode' "$f" || die "could not patch $f for CUDA 13"
    done
}

# starpu_fxt_tool lists a task's buffers into fixed strings (200 and 256
# bytes) with `eaten += snprintf(...)`, and snprintf returns what it would
# have written: past the end, the size left wraps around and the next call
# writes beyond the string.  A task over a hundred or so block columns (one
# GPU's update from n = 8192 on) overran the stack and killed the converter.
patch_fxt_tool() {
    local f=src/debug/traces/starpu_fxt.c
    perl -pi -e 's/^(\s*)eaten \+= snprintf\((\w+) \+ eaten, sizeof\((\w+)\) - eaten - 1, (.*)\);$/$1if (eaten < sizeof($3) - 1)\n$1\teaten += snprintf($2 + eaten, sizeof($3) - eaten - 1, $4);\n$1if (eaten > sizeof($3) - 1)\n$1\teaten = sizeof($3) - 1;/' "$f"
    [ "$(grep -c 'if (eaten > sizeof' "$f")" -eq 2 ] || die "could not patch $f"
}

build_starpu() {
    local work src cuda_flags=(--disable-cuda)
    work=$(mktemp -d)
    fetch_source "$work" sid "starpu=$starpu_version+dfsg-2"
    src=$(find "$work" -maxdepth 1 -type d -name 'starpu-*' | head -n1)
    [ -n "$src" ] || die "StarPU source not unpacked"
    if have_cuda; then
        cuda_flags=(--enable-cuda "--with-cuda-dir=$cuda_dir")
        (cd "$src" && patch_for_cuda13)
    fi
    (cd "$src" && patch_fxt_tool)
    say "building StarPU $starpu_version into $starpu_prefix (a few minutes)"
    (cd "$src" &&
     ./configure -q --prefix="$starpu_prefix" "${cuda_flags[@]}" --with-fxt \
        --enable-maxcpus=256 --enable-maxcudadev=16 --disable-opencl --enable-mpi --with-mpicc=mpicc \
        --disable-socl --disable-starpupy --disable-build-doc --disable-build-examples \
        --disable-build-tests --disable-starpufft --disable-hip --disable-mlr \
        --disable-fortran --enable-blas-lib=none > "$work/configure.log" 2>&1 ||
        { tail -n 40 "$work/configure.log" >&2; exit 1; }
     make -j"$(nproc)" > "$work/make.log" 2>&1 || { tail -n 60 "$work/make.log" >&2; exit 1; }
     as_root make install > "$work/install.log" 2>&1 || { tail -n 40 "$work/install.log" >&2; exit 1; }) ||
        die "StarPU build failed (logs in $work)"
    printf '%s\n' "${patches_wanted[@]}" | as_root tee "$patches_file" > /dev/null
    rm -rf "$work"
}

# OpenBLAS with LAPACK and LAPACKE in the one library libopenblas.so.0, so
# that the library, its tests and the programs built against it resolve
# every BLAS and LAPACK symbol to one copy.  Debian strips LAPACK from
# OpenBLAS's source and links in its own LAPACK's objects; LAPACK 3.12.1
# (the version Debian 13 builds OpenBLAS with) is compiled here for that,
# with LAPACKE and the test-matrix generators (TMGLIB) beside it.  OpenMP
# threading: each thread has its own thread count (omp_set_num_threads),
# so StarPU's workers run serial BLAS while the application's threads keep
# theirs.  Kernels for every x86-64 generation from Haswell on (plus the
# generic SSE3 ones), chosen at load time.
openblas_config="openmp lapack-$lapack_source rwork-dble dynamic:HASWELL ZEN SKYLAKEX COOPERLAKE SAPPHIRERAPIDS"
openblas_ok() {
    [ -f "$openblas_prefix/lib/libopenblas.so.0" ] && [ -f "$openblas_prefix/include/lapacke.h" ] &&
        grep -qxF "$openblas_config" "$openblas_prefix/startrd-build" 2>/dev/null
}

build_openblas() {
    local work lapack src jobs
    work=$(mktemp -d)
    jobs=$(nproc)
    # The .dsc of this LAPACK is not always on the mirrors; its upstream
    # tarball is all that is built.
    fetch_source "$work" trixie "lapack=$lapack_source" --tar-only
    fetch_source "$work" trixie "openblas=$openblas_source"
    tar -C "$work" -xzf "$work"/lapack_*.orig.tar.gz
    lapack=$(find "$work" -maxdepth 1 -type d -name 'lapack-*' | head -n1)
    src=$(find "$work" -maxdepth 1 -type d -name 'openblas-*' | head -n1)
    [ -n "$lapack" ] && [ -n "$src" ] || die "LAPACK or OpenBLAS source not unpacked"
    # LAPACK 3.12.1's complex drivers return their RWORK size through single
    # precision (RWORK(1) = REAL(LRWMIN)): above 2^24 it is rounded, often
    # down, and LAPACKE_zheevd with vectors then fails with -10 from
    # n = 2897 on (Reference-LAPACK issue 1194, fixed after 3.12.1).  Stored
    # in double precision it is exact.
    sed -i 's/RWORK( 1 ) = REAL( \(L[A-Z]*\) )/RWORK( 1 ) = DBLE( \1 )/' "$lapack"/SRC/z*.f
    ! grep -q 'RWORK( 1 ) = REAL(' "$lapack"/SRC/z*.f || die "could not patch LAPACK's RWORK sizes"
    say "building LAPACK ${lapack_source%-*} for OpenBLAS $openblas_version (several minutes)"
    sed -e 's/^CFLAGS = .*/CFLAGS = -O2 -fPIC/' \
        -e 's/^FFLAGS = .*/FFLAGS = -O2 -frecursive -fPIC/' \
        -e 's/^FFLAGS_NOOPT = .*/FFLAGS_NOOPT = -O0 -frecursive -fPIC/' \
        "$lapack/make.inc.example" > "$lapack/make.inc"
    # OpenBLAS exports LAPACK's deprecated routines too, as Debian's LAPACK
    # has them; LAPACKE gets its matrix generators' wrappers (LAPACKE_zlatms).
    printf 'BUILD_DEPRECATED = Yes\nLAPACKE_WITH_TMG = Yes\n' >> "$lapack/make.inc"
    (cd "$lapack" && make -j"$jobs" lapacklib tmglib lapackelib > "$work/lapack.log" 2>&1) ||
        { tail -n 40 "$work/lapack.log" >&2; die "LAPACK build failed (logs in $work)"; }
    # One archive of LAPACK, TMGLIB and LAPACKE, in place of Debian's
    # liblapack_pic.a that the source package's build extracts.
    mkdir "$work/objects"
    (cd "$work/objects" && for a in liblapack.a libtmglib.a liblapacke.a; do ar -x "$lapack/$a"; done &&
     ar -rc "$work/liblapack_pic.a" ./*.o) || die "could not merge the LAPACK archives"
    perl -pi -e "s{/usr/lib/\\\$\\\$\\(dpkg-architecture -q DEB_HOST_MULTIARCH\\)/liblapack_pic.a}{$work/liblapack_pic.a}" \
        "$src/Makefile"
    grep -qF "$work/liblapack_pic.a" "$src/Makefile" || die "could not point OpenBLAS at the LAPACK archive"
    say "building OpenBLAS $openblas_version into $openblas_prefix (ten minutes or more)"
    local opts=(USE_THREAD=1 USE_OPENMP=1 NUM_THREADS=256 NO_AFFINITY=1 NO_WARMUP=1 NO_LAPACKE=1
                DYNAMIC_ARCH=1 "DYNAMIC_LIST=${openblas_config#*dynamic:}" TARGET=GENERIC
                MAKE_NB_JOBS="$jobs" FCOMMON_OPT='-frecursive -fopenmp' PREFIX="$openblas_prefix")
    (cd "$src" && make "${opts[@]}" libs netlib shared > "$work/openblas.log" 2>&1) ||
        { tail -n 40 "$work/openblas.log" >&2; die "OpenBLAS build failed (logs in $work)"; }
    as_root mkdir -p "$openblas_prefix/include"
    (cd "$src" && as_root make "${opts[@]}" install > "$work/install.log" 2>&1) ||
        { tail -n 40 "$work/install.log" >&2; die "OpenBLAS install failed (logs in $work)"; }
    # The static archive lacks what the shared library links in: only the latter is kept.
    as_root rm -f "$openblas_prefix/lib/libopenblas.a" "$openblas_prefix"/lib/libopenblas*-r*.a
    as_root cp "$lapack"/LAPACKE/include/{lapack.h,lapacke.h,lapacke_config.h,lapacke_utils.h} \
        "$openblas_prefix/include/"
    as_root cp "$lapack/LAPACKE/include/lapacke_mangling_with_flags.h.in" "$openblas_prefix/include/lapacke_mangling.h"
    printf '%s\n' "$openblas_config" | as_root tee "$openblas_prefix/startrd-build" > /dev/null
    rm -rf "$work"
}

install_packages
if starpu_ok; then
    say "StarPU $starpu_version found in $starpu_prefix"
else
    as_root mkdir -p "$prefix"
    build_starpu
    starpu_ok || die "StarPU in $starpu_prefix lacks FxT or CUDA"
fi
if openblas_ok; then
    say "OpenBLAS $openblas_version found in $openblas_prefix"
else
    as_root mkdir -p "$prefix"
    build_openblas
    openblas_ok || die "OpenBLAS in $openblas_prefix is incomplete"
fi
echo "$starpu_prefix $openblas_prefix"
