#!/usr/bin/env bash
# The installed library as an application sees it: `make install` into a
# temporary prefix, then the README's example program (tests/readme_example.c,
# extracted from README.md) built
#   - with the README's line, cc example.c $(pkg-config --cflags --libs startrd) -lm,
#     PKG_CONFIG_PATH naming only the prefix's pkgconfig directory;
#   - statically, with pkg-config --static against libstartrd.a alone;
#   - with CMake, find_package(StarTRD <version>) and StarTRD::startrd,
#     shared and static (StarTRD_USE_STATIC_LIBS);
# each run once, without LD_LIBRARY_PATH pointing at the prefix; then
# `make uninstall` must leave no file behind.
# Runs from the build directory (make check sets CC, CFLAGS, LDFLAGS,
# PKG_CONFIG and CMAKE to what configure found).  A missing cc, pkg-config or cmake is a failure:
# tools/setup.sh installs them.  The prefix is kept when the test fails.
set -euo pipefail

say() { printf 'test_install: %s\n' "$*"; }
die() { printf 'test_install: FAIL: %s\n' "$*" >&2; exit 1; }

cc=${CC:-cc}
pkg_config=${PKG_CONFIG:-pkg-config}
cmake=${CMAKE:-cmake}
make=${MAKE:-make}
# configure's CFLAGS and LDFLAGS (a sanitizers' build needs its runtime at
# link time); CMake reads them from the environment too.
cflags=${CFLAGS:-}
ldflags=${LDFLAGS:-}
for tool in "$cc" "$pkg_config" "$cmake" "$make"; do
    command -v "${tool%% *}" > /dev/null ||
        die "'$tool' not found (configure found none): tools/setup.sh installs cmake and pkgconf"
done
{ [ -f Makefile ] && [ -f libstartrd.la ]; } || die "run from the build directory, after make (make check does both)"
example=$PWD/tests/readme_example.c
[ -f "$example" ] || die "$example missing: make check extracts it from README.md"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/startrd-install.XXXXXX")
finish() {
    local rc=$?
    if [ "$rc" -eq 0 ]; then rm -rf "$tmp"; else say "the prefix, builds and logs are kept in $tmp"; fi
}
trap finish EXIT
prefix=$tmp/prefix
# Every installation directory under the prefix, even one configure was told.
dirs=(prefix="$prefix" exec_prefix="$prefix" bindir="$prefix/bin" libdir="$prefix/lib"
      includedir="$prefix/include" datarootdir="$prefix/share" DESTDIR=)
# The inner make is not part of make check's: no jobserver, no TESTS=.
run_make() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL "$make" "$@"; }

say "make install prefix=$prefix"
run_make install "${dirs[@]}" > "$tmp/install.log" 2>&1 ||
    { tail -n 30 "$tmp/install.log" >&2; die "make install failed (log: $tmp/install.log)"; }
for f in lib/pkgconfig/startrd.pc lib/cmake/StarTRD/StarTRDConfig.cmake \
         lib/cmake/StarTRD/StarTRDConfigVersion.cmake include/startrd.h; do
    [ -f "$prefix/$f" ] || die "make install did not install $f"
done
[ -f "$prefix/lib/libstartrd.so" ] || [ -f "$prefix/lib/libstartrd.a" ] || die "make install installed no libstartrd"

# pkg-config with the prefix's directory alone: no StarPU or hwloc .pc.
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
export STARPU_HOME=$tmp/starpu-home STARPU_SILENT=1
mkdir -p "$STARPU_HOME"
version=$("$pkg_config" --modversion startrd) || die "pkg-config does not find startrd in $PKG_CONFIG_PATH"
"$pkg_config" --cflags --libs startrd > /dev/null || die "pkg-config --cflags --libs startrd fails"
"$pkg_config" --static --cflags --libs startrd > /dev/null || die "pkg-config --static --cflags --libs startrd fails"
[ -z "$("$pkg_config" --print-requires --print-requires-private startrd)" ] ||
    die "startrd.pc requires other .pc files: $("$pkg_config" --print-requires --print-requires-private startrd | tr '\n' ' ')"
case " $("$pkg_config" --variable=prefix startrd) " in
    " $prefix ") ;;
    *) die "startrd.pc names prefix=$("$pkg_config" --variable=prefix startrd), not $prefix" ;;
esac

# run NAME PROGRAM: runs it, the output in $tmp/NAME.log.
run() {
    "$2" > "$tmp/$1.log" 2>&1 || { cat "$tmp/$1.log" >&2; die "$1: the example failed"; }
    grep -q 'eigenvalues of A' "$tmp/$1.log" || { cat "$tmp/$1.log" >&2; die "$1: the example printed no eigenvalues"; }
    say "$1: $(tail -n 1 "$tmp/$1.log")"
}
# uses_installed NAME PROGRAM: its libstartrd is the prefix's shared one.
uses_installed() {
    # grep reads ldd's whole output: with -q it could stop early, and ldd,
    # killed by SIGPIPE, would fail the pipeline under pipefail.
    ldd "$2" | grep "=> $prefix/lib/libstartrd\.so" > /dev/null ||
        { ldd "$2" >&2; die "$1 does not load $prefix/lib/libstartrd.so"; }
}

# The README's build line, word for word but the compiler and flags
# configure found.
# shellcheck disable=SC2046,SC2086
"$cc" $cflags "$example" $("$pkg_config" --cflags --libs startrd) $ldflags -lm -o "$tmp/example-pkgconfig" 2> "$tmp/pkgconfig.err" ||
    { cat "$tmp/pkgconfig.err" >&2; die "the README's line, cc example.c \$(pkg-config --cflags --libs startrd) -lm, does not build"; }
[ -f "$prefix/lib/libstartrd.so" ] && uses_installed pkg-config "$tmp/example-pkgconfig"
run pkg-config "$tmp/example-pkgconfig"

# The README's MPI example and its build line, where the distributed entry
# points are installed, on two processes.
if [ -f "$prefix/include/startrd_mpi.h" ]; then
    mpi_example=tests/readme_mpi_example.c
    [ -f "$mpi_example" ] || die "$mpi_example missing: make check extracts it from README.md"
    command -v mpicc > /dev/null || die "startrd_mpi.h is installed, but there is no mpicc to build against it"
    # shellcheck disable=SC2046,SC2086
    mpicc $cflags "$mpi_example" -lstartrd_mpi $("$pkg_config" --cflags --libs startrd) -lscalapack-openmpi $ldflags \
        -lm -o "$tmp/mpi-example" 2> "$tmp/mpi.err" ||
        { cat "$tmp/mpi.err" >&2; die "the README's MPI line does not build"; }
    ldd "$tmp/mpi-example" | grep "=> $prefix/lib/libstartrd_mpi\.so" > /dev/null ||
        { ldd "$tmp/mpi-example" >&2; die "the MPI example does not load $prefix/lib/libstartrd_mpi.so"; }
    mpirun=("${MPIRUN:-mpirun}" --oversubscribe --mca btl self,vader -np 2)
    [ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
    "${mpirun[@]}" "$tmp/mpi-example" > "$tmp/mpi.log" 2>&1 && grep -q '^info 0,' "$tmp/mpi.log" ||
        { cat "$tmp/mpi.log" >&2; die "the MPI example failed on two processes"; }
    say "mpi: $(tail -n 1 "$tmp/mpi.log")"
fi

# Static: libstartrd.a alone in libdir, so -lstartrd cannot take the .so.
if [ -f "$prefix/lib/libstartrd.a" ]; then
    mkdir "$tmp/static-lib"
    ln -s "$prefix/lib/libstartrd.a" "$tmp/static-lib/"
    # shellcheck disable=SC2046,SC2086
    "$cc" $cflags "$example" $("$pkg_config" --static --define-variable=libdir="$tmp/static-lib" --cflags --libs startrd) $ldflags -lm \
        -o "$tmp/example-static" 2> "$tmp/static.err" ||
        { cat "$tmp/static.err" >&2; die "pkg-config --static gives an incomplete link line for libstartrd.a"; }
    ! ldd "$tmp/example-static" | grep libstartrd > /dev/null || die "the static example loads a shared libstartrd"
    run pkg-config-static "$tmp/example-static"
else
    say "no libstartrd.a (configure --disable-static): the static link is not tried"
fi

# CMake: find_package with this version must find it, with version 99 not.
mkdir "$tmp/cmake-src"
cp "$example" "$tmp/cmake-src/example.c"
cat > "$tmp/cmake-src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.13)
project(startrd_example C)
find_package(StarTRD 99 QUIET)
if(StarTRD_FOUND)
  message(FATAL_ERROR "find_package(StarTRD 99) accepted StarTRD \${StarTRD_VERSION}")
endif()
find_package(StarTRD $version REQUIRED)
if(NOT TARGET StarTRD::startrd)
  message(FATAL_ERROR "find_package(StarTRD) gave no StarTRD::startrd")
endif()
add_executable(example example.c)
target_link_libraries(example PRIVATE StarTRD::startrd m)
EOF
cmake_build() { # NAME [cmake options]
    local name=$1 dir=$tmp/$1
    shift
    { CC=$cc "$cmake" -S "$tmp/cmake-src" -B "$dir" -DCMAKE_PREFIX_PATH="$prefix" "$@" &&
      "$cmake" --build "$dir" --verbose; } > "$tmp/$name-build.log" 2>&1 ||
        { tail -n 40 "$tmp/$name-build.log" >&2; die "$name: the example does not build with find_package(StarTRD) (log: $tmp/$name-build.log)"; }
}
if [ -f "$prefix/lib/libstartrd.so" ]; then
    cmake_build cmake
    uses_installed cmake "$tmp/cmake/example"
    run cmake "$tmp/cmake/example"
fi
if [ -f "$prefix/lib/libstartrd.a" ]; then
    cmake_build cmake-static -DStarTRD_USE_STATIC_LIBS=ON
    ! ldd "$tmp/cmake-static/example" | grep libstartrd > /dev/null || die "cmake-static: the example loads a shared libstartrd"
    run cmake-static "$tmp/cmake-static/example"
fi

say "make uninstall"
run_make uninstall "${dirs[@]}" > "$tmp/uninstall.log" 2>&1 ||
    { tail -n 30 "$tmp/uninstall.log" >&2; die "make uninstall failed (log: $tmp/uninstall.log)"; }
left=$(find "$prefix" -type f -o -type l)
[ -z "$left" ] || die "make uninstall left: $left"
# The build tree's copies name the temporary prefix now: back to configure's.
run_make startrd.pc StarTRDConfig.cmake StarTRDConfigVersion.cmake > /dev/null
say "PASS"
