#!/usr/bin/env bash
# The README's two commands, each self-contained and safe to re-run:
#   tools/quickstart.sh reduce   set up, build, and reduce a generated 4096x4096
#                                Hermitian matrix on every GPU present (CPU
#                                workers when there is none), checked against LAPACK
#   tools/quickstart.sh check    set up, build, and run the test suite, then
#                                again under the sanitizers (CPU path)
# The build lives in ./build; dependencies come from tools/setup.sh.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
build=$top/build

usage() { echo "usage: $0 reduce|check" >&2; exit 2; }
[ $# -eq 1 ] || usage

read -r starpu_prefix openblas_prefix < <(bash "$top/tools/setup.sh" | tail -n 1)

if [ ! -x "$top/configure" ] || [ "$top/configure.ac" -nt "$top/configure" ]; then
    (cd "$top" && autoreconf -fi)
fi
mkdir -p "$build"
if [ ! -f "$build/Makefile" ]; then
    (cd "$build" && "$top/configure" --with-starpu="$starpu_prefix" --with-openblas="$openblas_prefix")
fi
make -C "$build" -j"$(nproc)" >/dev/null

case $1 in
reduce)
    # StarPU reports its performance models' first calibrations: not news here.
    STARPU_SILENT=${STARPU_SILENT:-1} exec "$build/perf/startrd-reduce" --n 4096 --check
    ;;
check)
    status=0
    make -C "$build" -j"$(nproc)" check || status=$?
    # The same suite once more, the CPU path built with ASan, UBSan and LSan.
    bash "$top/tools/check-sanitizers.sh" "$starpu_prefix" "$openblas_prefix" || status=$?
    # Each test program ends with "N passed, M failed"; add them up.  A
    # program that died before that line counts among the failed programs.
    checks=$(cat "$build"/tests/*.log "$top"/build-sanitize/tests/*.log 2>/dev/null |
        awk '/^[0-9]+ passed, [0-9]+ failed$/ {p += $1; f += $3} END {printf "%d passed, %d failed", p, f}')
    programs=$(cat "$build"/test-suite.log "$top"/build-sanitize/test-suite.log 2>/dev/null |
        awk '/^# (FAIL|ERROR):/ {f += $3} END {print f + 0}')
    echo "check: $checks; test programs failed: $programs"
    exit $status
    ;;
*)
    usage
    ;;
esac
