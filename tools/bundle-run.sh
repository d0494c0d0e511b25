#!/usr/bin/env bash
# Runs a StarTRD program from a relocatable bundle (see tools/bundle.sh).
#   run [--ngpu K] PROGRAM [ARGS...]   a program from bin/ or tests/
#   run [--ngpu K] check               every test program; exit 0 iff all pass
# --ngpu sets STARTRD_NGPU for the tests (default: every GPU); STARTRD_TEST_TIMEOUT
# bounds each test program in seconds (default 900).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
cuda_lib=${CUDA_HOME:-/usr/local/cuda}/lib64
export LD_LIBRARY_PATH=$here/lib:$cuda_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export STARPU_HOME=${STARPU_HOME:-$here}
export STARPU_SILENT=${STARPU_SILENT:-1}
export PATH=$here/bin:$PATH
# OpenBLAS names its kernels by CPU model and falls back to its SSE3
# (Prescott) ones on models it does not know, which virtual machines often
# report: choose by the instruction sets instead.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
    if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell
    fi
fi

if [ "${1:-}" = --ngpu ]; then
    export STARTRD_NGPU=$2
    shift 2
fi
[ $# -ge 1 ] || { echo "usage: $0 [--ngpu K] PROGRAM [ARGS...] | check" >&2; exit 2; }

if [ "$1" = check ]; then
    # A program that hangs fails alone, and its output so far stays visible.
    limit=${STARTRD_TEST_TIMEOUT:-900}
    failed=0 passed=0 skipped=0
    for t in "$here"/tests/*; do
        # test_trace leaves its trace directory beside the programs.
        [ -f "$t" ] && [ -x "$t" ] || continue
        timeout "$limit" "$t" 2>&1; rc=$?
        if [ $rc -eq 0 ]; then passed=$((passed + 1)); echo "PASS: $(basename "$t")"
        elif [ $rc -eq 77 ]; then skipped=$((skipped + 1)); echo "SKIP: $(basename "$t")"
        elif [ $rc -eq 124 ]; then failed=$((failed + 1)); echo "FAIL: $(basename "$t") (no end after ${limit} s)"
        else failed=$((failed + 1)); echo "FAIL: $(basename "$t") (exit $rc)"; fi
    done
    echo "programs: $passed passed, $failed failed, $skipped skipped"
    [ $failed -eq 0 ]
    exit
fi
prog=$1; shift
for d in "$here/bin" "$here/tests"; do
    [ -x "$d/$prog" ] && exec "$d/$prog" "$@"
done
exec "$prog" "$@"
