#!/usr/bin/env bash
# Plots the CSV of startrd-bench: total time against n, one line per method,
# GPU count, (for StarTRD) allreduce scheme and, in a CSV of several
# --precision, precision, both axes logarithmic.  A
# CSV of --vectors, --subset or --generalized runs also gives
# PLOT-phases.png: the same totals, and StarTRD's reduction, tridiagonal
# vectors and back-transformation (with --generalized also its reduction to
# the standard problem and back-substitution) as dashed lines.
#   tools/plot-bench.sh RESULTS.csv [PLOT.png]     default: RESULTS.png
# Needs gnuplot (apt-get install gnuplot-nox).
set -euo pipefail

usage() { echo "usage: $0 RESULTS.csv [PLOT.png]" >&2; exit 2; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
csv=$1
png=${2:-${csv%.csv}.png}
phases_png=${png%.png}-phases.png

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "$0: gnuplot not found; install it (e.g. apt-get install gnuplot-nox)" >&2
    exit 1
fi
[ -r "$csv" ] || { echo "$0: cannot read $csv" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# One data file per (precision, method, GPUs, scheme) with "n total_s" lines; the
# columns are found by name in the header (a CSV older than the precision column
# is all z).  series.txt: file and title of each series, the precision in
# the title when the CSV holds several;
# phases.txt: the same for StarTRD's phases, where the CSV has them;
# generalized.txt: present when the rows are of --generalized (methods named
# startrd-zhegvd and so on);
# range.txt: the smallest and largest n; xtics.txt: gnuplot's xtics list.
awk -F, -v dir="$work" '
    NR == 1 {
        for (i = 1; i <= NF; i++) col[$i] = i
        if (!("n" in col) || !("method" in col) || !("gpus" in col) || !("total_s" in col)) {
            print "header lacks one of n, method, gpus, total_s: not a startrd-bench CSV" > "/dev/stderr"
            bad = 1
            exit 1
        }
        next
    }
    $col["total_s"] != "" && $col["total_s"] + 0 > 0 {
        n = $col["n"] + 0; m = $col["method"]; g = $col["gpus"] + 0
        a = ("allreduce" in col) ? $col["allreduce"] : ""
        pr = ("precision" in col) ? $col["precision"] : "z"
        gsub(/[^A-Za-z0-9_.-]/, "", m)
        gsub(/[^A-Za-z0-9_.-]/, "", a)
        gsub(/[^A-Za-z0-9_.-]/, "", pr)
        if (!(pr in precs)) { precs[pr] = 1; nprecs++ }
        if (pr == "s" || pr == "d") real = 1
        if (m ~ /-zhegvd$/) generalized = 1
        key = pr "/" m "/" g "/" a
        if (!(key in file)) {
            file[key] = dir "/s" ++count ".dat"
            if (g > 0) title = m ", " g (g == 1 ? " GPU" : " GPUs")
            else title = m (m ~ /^lapack/ ? ", host cores" : ", CPU workers")
            if (a != "") title = title ", " a
            title_of[key] = title
            prec_of[key] = pr
            series[++nseries] = key
        }
        print n, $col["total_s"] > file[key]
        if (("tridiag_s" in col) && ("backtransform_s" in col) && $col["tridiag_s"] != "") {
            split("reduction,tridiagonal vectors,back-transformation,standard form,back-substitution", phase_name, ",")
            phase[1] = $col["stage1_s"] + $col["stage2_s"]
            phase[2] = $col["tridiag_s"]
            phase[3] = $col["backtransform_s"]
            nphase = 3
            # --generalized rows: the two phases before and after the standard problem
            if (("standard_form_s" in col) && ("backsubstitution_s" in col) && $col["standard_form_s"] != "") {
                phase[4] = $col["standard_form_s"]
                phase[5] = $col["backsubstitution_s"]
                nphase = 5
            }
            for (p = 1; p <= nphase; p++) {
                pkey = key "/" p
                if (!(pkey in file)) {
                    file[pkey] = dir "/s" ++count ".dat"
                    phase_of[++nphases] = pkey
                    phase_key[pkey] = key
                    phase_title[pkey] = phase_name[p]
                }
                print n, phase[p] > file[pkey]
            }
        }
        if (!(n in seen)) { seen[n] = 1; ns[++nn] = n }
        if (lo == "" || n < lo) lo = n
        if (hi == "" || n > hi) hi = n
    }
    END {
        if (bad) exit 1
        if (count == 0) { print "no results in the CSV" > "/dev/stderr"; exit 1 }
        # Written here, once the precisions are known: "z: startrd, 1 GPU" only
        # where a plot mixes precisions, the titles of before otherwise.
        for (i = 1; i <= nseries; i++) {
            k = series[i]
            print file[k] "\t" (nprecs > 1 ? prec_of[k] ": " : "") title_of[k] > (dir "/series.txt")
        }
        for (i = 1; i <= nphases; i++) {
            k = phase_of[i]; base = phase_key[k]
            print file[k] "\t" (nprecs > 1 ? prec_of[base] ": " : "") title_of[base] ": " phase_title[k] > (dir "/phases.txt")
        }
        print (real ? "real" : "complex") > (dir "/kind.txt")
        if (generalized) print "" > (dir "/generalized.txt")
        print lo, hi > (dir "/range.txt")
        tics = ""
        for (i = 1; i <= nn; i++) tics = tics (i > 1 ? ", " : "") "\"" ns[i] "\" " ns[i]
        print tics > (dir "/xtics.txt")
    }' "$csv" || { echo "$0: cannot plot $csv" >&2; exit 1; }

read -r lo hi < "$work/range.txt"
plot=""
while IFS=$'\t' read -r f title; do
    sort -n -o "$f" "$f"
    plot+="${plot:+, }'$f' using 1:2 with linespoints lw 2 pt 7 title '$title'"
done < "$work/series.txt"

terminal="pngcairo size 1000,650 font ',11'"
gnuplot -e "set terminal pngcairo" >/dev/null 2>&1 || terminal="png size 1000,650"

what='Complex Hermitian matrix to real tridiagonal form'
[ "$(cat "$work/kind.txt")" = complex ] || what='Hermitian or real symmetric matrix to real tridiagonal form'
phases=""
if [ -s "$work/phases.txt" ]; then
    what='Eigenpairs of a complex Hermitian matrix'
    while IFS=$'\t' read -r f title; do
        sort -n -o "$f" "$f"
        phases+=", '$f' using 1:2 with linespoints lw 1 dt 2 pt 6 title '$title'"
    done < "$work/phases.txt"
fi
# The generalized title with or without phases (a CSV without StarTRD rows has none).
[ ! -e "$work/generalized.txt" ] || what='Eigenpairs of A x = lambda B x, A Hermitian, B Hermitian positive definite'

# Draws the series $2 into the file $1, the key placed as $3 says.
draw() {
    gnuplot <<EOF
set terminal $terminal
set output '$1'
set title '$what: wall time, host memory to host memory'
set xlabel 'n'
set ylabel 'seconds'
set logscale xy
set xrange [$lo / 1.15 : $hi * 1.15]
set xtics ($(cat "$work/xtics.txt"))
set format y '%g'
set grid xtics ytics mytics
set key $3 box opaque
plot $2
EOF
    echo "$1"
}

draw "$png" "$plot" "top left"
[ -z "$phases" ] || draw "$phases_png" "$plot$phases" "below"
