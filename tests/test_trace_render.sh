#!/bin/sh
# tools/startrd-trace-render on a trace made here: the chart has one lane per
# worker and one rectangle per task, its legend names every kernel, and the
# tables agree with a count of tasks.rec made independently of the tool.
# Runs from the build directory; $srcdir (set by make check) locates the tool.
dir=tests/trace-render-test
tool=${srcdir:-.}/tools/startrd-trace-render

rm -rf "$dir"
mkdir -p "$dir"
# STARTRD_NGPU selects the GPUs as for the other tests; unset, every GPU.
./perf/startrd-reduce --n 300 --nb 16 ${STARTRD_NGPU:+--ngpu "$STARTRD_NGPU"} \
    --trace "$dir/trace" > "$dir/reduce.log" 2>&1
reduce_rc=$?
"$tool" "$dir/trace" -o "$dir/out" > "$dir/render.log" 2>&1
render_rc=$?

exec python3 - "$dir" "$reduce_rc" "$render_rc" <<'EOF'
import os
import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter, defaultdict

d, reduce_rc, render_rc = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
trace, out = os.path.join(d, "trace"), os.path.join(d, "out")
passed = failed = 0


def check(ok, what):
    global passed, failed
    print(("PASS " if ok else "FAIL ") + what)
    passed, failed = passed + bool(ok), failed + (not ok)


def finish():
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


check(reduce_rc == 0, f"startrd-reduce --trace {trace} (exit {reduce_rc})")
check(render_rc == 0, f"startrd-trace-render {trace} -o {out} (exit {render_rc})")
for name in ("gantt.svg", "kernels.txt"):
    check(os.path.isfile(os.path.join(out, name)), f"{out}/{name} written")
if failed:
    finish()

# The reference: the tasks that ran, recounted straight from tasks.rec.
tasks = []
for block in read(os.path.join(trace, "tasks.rec")).split("\n\n"):
    r = dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
    if {"WorkerId", "StartTime", "EndTime"} <= r.keys():
        tasks.append((r["Name"], int(r["WorkerId"]), float(r["StartTime"]), float(r["EndTime"])))
names = dict((int(w), n) for w, n in re.findall(r"^name\t(\d+)\t(.*)$",
                                                  read(os.path.join(trace, "activity.data")), re.M))
kernels = {t[0] for t in tasks}
workers = {t[1] for t in tasks}
stage2_kernels = {"startrd_zhb2st_sweeps", "startrd_zhb2st_chase"}
check(len(tasks) > 0 and kernels & stage2_kernels and "startrd_zpanel_qr" in kernels,
      f"tasks.rec lists {len(tasks)} tasks of both stages")

# The chart.
try:
    svg = ET.parse(os.path.join(out, "gantt.svg")).getroot()
    check(True, "gantt.svg parses as XML")
except ET.ParseError as e:
    check(False, f"gantt.svg parses as XML: {e}")
    finish()
ns = "{http://www.w3.org/2000/svg}"
lanes = [g for g in svg.iter(ns + "g") if g.get("class") == "lane"]
lane_workers = [int(g.get("data-worker")) for g in lanes]
check(sorted(lane_workers) == sorted(workers),
      f"one lane per worker of tasks.rec: lanes {sorted(lane_workers)}, workers {sorted(workers)}")
labels = {int(g.get("data-worker")): [t.text for t in g.iter(ns + "text")] for g in lanes}
check(all(labels[w] == [names[w]] for w in labels),
      f"lanes labelled with the worker names of activity.data: {sorted(labels.values())}")
drawn = Counter()
for g in lanes:
    for k in g.findall(ns + "g"):
        drawn[(int(g.get("data-worker")), k.get("data-kernel"))] += len(k.findall(ns + "rect"))
ran = Counter((t[1], t[0]) for t in tasks)
check(drawn == ran, f"one rectangle per task, in its worker's lane and kernel's colour group "
                    f"({sum(drawn.values())} drawn, {len(tasks)} ran)")
legend = [g for g in svg.iter(ns + "g") if g.get("class") == "legend"]
legend_names = {t.text for g in legend for t in g.iter(ns + "text")}
check(legend_names == kernels,
      f"the legend names every kernel of tasks.rec and no other: {sorted(legend_names)}")
boundary = [g for g in svg.iter(ns + "g") if g.get("class") == "stage-boundary"]
stage2 = min(t[2] for t in tasks if t[0] in stage2_kernels)
check(len(boundary) == 1 and abs(float(boundary[0].get("data-time")) - stage2) < 1e-6,
      f"the stage boundary is at the first stage-2 task's start, {stage2} ms")

# The tables: rows of whitespace-separated columns, under their section titles.
text = read(os.path.join(out, "kernels.txt"))
check(text in read(os.path.join(d, "render.log")), "the tables are also printed on stdout")
sections = dict(re.findall(r"^(Kernels|Idle|Data transfers).*\n((?:.+\n)*)", text, re.M))
rows = [line.split() for line in sections.get("Kernels", "").splitlines()[1:]]
table = {(r[0], r[1]): (int(r[2]), float(r[3])) for r in rows if r[0] != "total"}
per_kernel = defaultdict(lambda: [0, 0.0])
for name, w, start, end in tasks:
    row = per_kernel[(name, names[w].split()[0])]     # the type: 'CPU' of 'CPU 0'
    row[0] += 1
    row[1] += end - start
# Totals are printed in ms to 3 decimals.
tol = 1e-3
check(table.keys() == per_kernel.keys(), f"one table row per kernel and worker type: {sorted(table)}")
for key, (count, ms) in sorted(per_kernel.items()):
    got = table.get(key, (None, float("nan")))
    check(got[0] == count and abs(got[1] - ms) <= tol,
          f"{key[0]} on {key[1]}: count {got[0]} total {got[1]} ms, tasks.rec {count} and {ms:.3f} ms")
total = [r for r in rows if r[0] == "total"]
all_ms = sum(t[3] - t[2] for t in tasks)
check(len(total) == 1 and int(total[0][1]) == len(tasks) and abs(float(total[0][2]) - all_ms) <= tol,
      f"total line {total}: {len(tasks)} tasks, {all_ms:.3f} ms")
check([float(r[3]) for r in rows[:-1]] == sorted((float(r[3]) for r in rows[:-1]), reverse=True),
      "kernels sorted by total time")

# Idle fractions: over the span from the first start to the last end, time
# not covered by any of the worker's tasks.
span = max(t[3] for t in tasks) - min(t[2] for t in tasks)
# Rows: worker name (which has a space), tasks, busy_ms, idle%.
idle = {" ".join(r[:-3]): float(r[-1].rstrip("%"))
        for r in (line.split() for line in sections.get("Idle", "").splitlines()[1:])}
for w in sorted(workers):
    covered, reach = 0.0, None
    for start, end in sorted((t[2], t[3]) for t in tasks if t[1] == w):
        covered += max(0.0, end - max(start, reach if reach is not None else start))
        reach = end if reach is None else max(reach, end)
    expect = 100 * (1 - covered / span)
    got = idle.get(names[w])
    check(got is not None and abs(got - expect) <= 0.1,
          f"{names[w]} idle {got}%, recounted {expect:.1f}%")

# A trace whose tasks all ran in one memory node has nothing to transfer.
nodes = set(re.findall(r"^MemoryNode: (\d+)$", read(os.path.join(trace, "tasks.rec")), re.M))
transfers = sections.get("Data transfers", "").strip()
if len(nodes) == 1:
    check(transfers == "none recorded", f"one memory node, transfers: {transfers!r}")
else:
    check(len(transfers.splitlines()) > 1, f"{len(nodes)} memory nodes, transfers listed")

# Stage 1's chain, recounted: each panel task's step holds the tasks
# submitted after it and before the next panel; steps with HEMM tasks count.
recs = [dict(line.split(": ", 1) for line in block.splitlines() if ": " in line)
        for block in read(os.path.join(trace, "tasks.rec")).split("\n\n")]
ordered = sorted((int(r["SubmitOrder"]), r["Name"], float(r["StartTime"]), float(r["EndTime"]))
                 for r in recs if {"SubmitOrder", "WorkerId", "StartTime", "EndTime"} <= r.keys())
panels = [i for i, t in enumerate(ordered) if t[1] == "startrd_zpanel_qr"]
expect = {"panel": [], "step": [], "w": []}
for a, b in zip(panels, panels[1:]):
    between = ordered[a + 1:b]
    if not any(t[1] == "startrd_zhemm_columns" for t in between):
        continue
    expect["panel"].append(ordered[a][3] - ordered[a][2])
    expect["step"].append(ordered[b][2] - ordered[a][2])
    w = [t for t in between if t[1].startswith("startrd_zform_wvw")]
    if w:
        expect["w"].append(max(t[3] for t in w) - min(t[2] for t in w))
m = re.search(r"^Stage 1's chain: (\d+) steps.*\n((?:.+\n)*)", text, re.M)
check(m is not None and int(m.group(1)) == len(expect["step"]) and len(expect["step"]) > 0,
      f"stage 1's chain over {m.group(1) if m else None} steps, recounted {len(expect['step'])}")
chain = {r[0]: r for r in (line.split() for line in (m.group(2) if m else "").splitlines()[1:])}
for link, values in expect.items():
    row = chain.get(link)
    if values:
        ok = row is not None and int(row[1]) == len(values) and abs(float(row[4]) - sum(values)) <= tol
    else:
        ok = row is not None and row[1] == "0" and row[2] == "-"
    check(ok, f"chain link {link}: {row[1:5] if row else None}, recounted {len(values)} steps, "
              f"{sum(values):.3f} ms")

log = read(os.path.join(d, "render.log"))
if re.search(r"gantt\.png: written with", log):
    with open(os.path.join(out, "gantt.png"), "rb") as f:
        check(f.read(8) == b"\x89PNG\r\n\x1a\n", "gantt.png is a PNG")
else:
    check(re.search(r"gantt\.png: not written \(.+\)", log)
          and not os.path.exists(os.path.join(out, "gantt.png")),
          "no converter: no gantt.png, and stdout says why")
finish()
EOF
