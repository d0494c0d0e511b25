#!/usr/bin/env bash
# The distributed entry points' programs on 2 and 4 processes (the test
# harness runs each alone too), on however many cores there are: waiting
# processes yield their core rather than spin.  Run by make check.
set -uo pipefail
[ -n "${MPIRUN:-}" ] || { echo "MPIRUN is not set (make check sets it)"; exit 1; }
mpirun=("$MPIRUN" --oversubscribe --mca mpi_yield_when_idle 1 --mca btl self,vader)
# OpenMPI refuses to start as root unless told.
[ "$(id -u)" -eq 0 ] && mpirun+=(--allow-run-as-root)
status=0
for program in tests/test_pzhetrd tests/test_pzheevd tests/test_pfortran tests/readme_mpi_example; do
    for np in 2 4; do
        echo "== $program on $np processes"
        "${mpirun[@]}" -np "$np" "$program" || { echo "FAIL $program on $np processes"; status=1; }
    done
done
exit $status
