#!/usr/bin/env bash
# Installs everything StarTRD needs to build on Debian: the distribution's
# packages, and StarPU 1.4 with FxT (and CUDA when nvcc is present), which
# Debian only ships as 1.3 without either.  StarPU goes into a fixed prefix
# outside the source tree so that every clone and CI run reuses it; a second
# run only checks and costs seconds.
#
#   tools/setup.sh            install what is missing
#   STARTRD_DEPS=/some/dir    choose the prefix (default /opt/startrd-deps)
#
# Prints the StarPU prefix on its last line.
set -euo pipefail

prefix=${STARTRD_DEPS:-/opt/startrd-deps}
starpu_version=1.4.10
starpu_prefix=$prefix/starpu-$starpu_version
cuda_dir=${CUDA_HOME:-/usr/local/cuda}
packages=(build-essential gfortran autoconf automake libtool pkgconf dpkg-dev
          libhwloc-dev hwloc libfxt-dev libopenblas-dev liblapacke-dev
          libnuma-dev xz-utils python3)

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
patches_file=$starpu_prefix/startrd-patches
patches_wanted=fxt-tool-bounds

# A StarPU is suitable when it is 1.4, built with FxT and the fixes below,
# and with CUDA whenever this machine can compile CUDA code.
starpu_ok() {
    local cfg=$starpu_prefix/include/starpu/1.4/starpu_config.h
    [ -f "$cfg" ] && [ -f "$starpu_prefix/lib/pkgconfig/starpu-1.4.pc" ] || return 1
    grep -qx "$patches_wanted" "$patches_file" 2>/dev/null || return 1
    grep -q '#define STARPU_USE_FXT 1' "$cfg" || return 1
    if have_cuda; then grep -q '#define STARPU_USE_CUDA 1' "$cfg" || return 1; fi
    return 0
}

# deb-src entries are derived from this machine's own apt sources: the URI of
# its Debian archive, with the suite that carries the wanted StarPU.  They live
# in a private apt directory and never touch the system's configuration.
fetch_starpu_source() {
    local dest=$1 aptdir uri
    aptdir=$(mktemp -d)
    uri=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '/^URIs:/ {print $2}';
             cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
                 awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) {print $i; break}}'; } |
           grep -v -e security -e '^$' | grep -m1 '/debian/\?$' || true)
    [ -n "$uri" ] || die "no Debian archive found in /etc/apt sources"
    mkdir -p "$aptdir/lists/partial"
    printf 'Types: deb-src\nURIs: %s\nSuites: sid\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$uri" > "$aptdir/src.sources"
    local opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$aptdir"
                -o Dir::State::Lists="$aptdir/lists" -o Dir::Cache="$aptdir/cache"
                -o APT::Sandbox::User=root)
    say "fetching the source package starpu $starpu_version"
    apt-get "${opts[@]}" update -qq
    (cd "$dest" && apt-get "${opts[@]}" source -qq "starpu=$starpu_version+dfsg-2") ||
        die "apt-get source starpu=$starpu_version failed"
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
    fetch_starpu_source "$work"
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
        --enable-maxcpus=256 --enable-maxcudadev=16 --disable-opencl --disable-mpi \
        --disable-socl --disable-starpupy --disable-build-doc --disable-build-examples \
        --disable-build-tests --disable-starpufft --disable-hip --disable-mlr \
        --disable-fortran > "$work/configure.log" 2>&1 ||
        { tail -n 40 "$work/configure.log" >&2; exit 1; }
     make -j"$(nproc)" > "$work/make.log" 2>&1 || { tail -n 60 "$work/make.log" >&2; exit 1; }
     as_root make install > "$work/install.log" 2>&1 || { tail -n 40 "$work/install.log" >&2; exit 1; }) ||
        die "StarPU build failed (logs in $work)"
    printf '%s\n' "$patches_wanted" | as_root tee "$patches_file" > /dev/null
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
echo "$starpu_prefix"
