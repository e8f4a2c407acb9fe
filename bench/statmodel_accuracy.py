#!/usr/bin/env python3
"""Accuracy of the statistical models against the simulator (docs/statmodel.md).

Every workload of workloads/manifest.txt at its small size is analysed once
(`cyclescope model analyze`); then each machine of each thesis figure class is
modelled from that profile and simulated on the same µops (`model solve
--compare-sim`). Prints the per-workload table and the per-class summary
(average and maximum |error| against the thesis' averages), and with
--update-doc rewrites the table between the markers in docs/statmodel.md.

With --table matrix it measures instead the matrix-multiplication model of
Ch. 2 (`--method matrix`, one-cycle pipes, no caches) beside the Markov chains
on the same machines, and rewrites the table between the matrix markers.
With --addr-bits N the profiles are analysed with N address bits (§5.5).
With --model-only nothing is simulated: only the model's CPU time per machine is
measured (the speed goal: each machine modelled in < 1 s on every workload), and
--update-doc rewrites the table between the modeltime markers.

usage: statmodel_accuracy.py BUILD_DIR [--max N] [--jobs J] [--update-doc DOC] [--only W,W]
                             [--table markov|matrix] [--addr-bits N] [--model-only]
"""
import argparse, concurrent.futures as cf, json, os, subprocess, sys, time

from statmodel_common import publish, solve, workloads

PERFECT_CACHES = ["--set", "ideal.icache=yes", "--set", "ideal.dcache=yes"]
# (class, label, thesis figure, thesis average error goal, config, sets)
MACHINES = [
    ("one-pipe", "inorder1 none", "3.8", 0.0, "inorder1", []),
    ("one-pipe", "inorder1 perfect", "3.7", 0.0, "inorder1", ["--set", "bpred.type=perfect"]),
    ("perfect", "inorder3 perfect", "4.2/5.3", 0.5, "inorder3", ["--set", "bpred.type=perfect"] + PERFECT_CACHES),
    ("none", "inorder3 none", "4.3/5.4", 0.7, "inorder3", ["--set", "bpred.type=none"] + PERFECT_CACHES),
    ("bimodal", "inorder3 bimodal 512", "6.1", 1.6, "inorder3", ["--set", "bpred.type=bimodal"] + PERFECT_CACHES),
    ("loop", "inorder3 loop", "6.1", 2.6, "inorder3", ["--set", "bpred.type=static"] + PERFECT_CACHES),
    ("caches", "4 KB, miss 4", "7.1", 2.7, "inorder3", ["--set", "l1i.size=4K", "--set", "l1d.size=4K"]),
    ("caches", "8 KB, miss 4", "7.1", 2.7, "inorder3", ["--set", "l1i.size=8K", "--set", "l1d.size=8K"]),
    ("caches", "16 KB, miss 4", "7.1", 2.7, "inorder3", []),
    ("caches", "16 KB, miss 2", "7.2", 2.7, "inorder3", ["--set", "memory.latency=2"]),
    ("caches", "16 KB, miss 8", "7.2", 2.7, "inorder3", ["--set", "memory.latency=8"]),
    ("caches", "16 KB, miss 16", "7.2", 2.7, "inorder3", ["--set", "memory.latency=16"]),
] + [("value prediction", "VP %d" % n, "8.1", 5.1, "inorder3",
      ["--set", "inorder.value_prediction=yes", "--set", "inorder.vpt_entries=%d" % n, "--set",
       "inorder.ct_entries=%d" % n]) for n in (128, 256, 512)]


ONE_CYCLE = ["--set", "pipe.fp.stages=1", "--set", "pipe.mem.stages=1"] + PERFECT_CACHES
# the matrix-multiplication model (Ch. 2): its machines need one-cycle pipes and no caches;
# the last two columns are the Markov chains of Ch. 4/5 on the same machines
MATRIX_MACHINES = [
    ("matrix", "inorder1 none", "2.4", 0.0, "inorder1", ["--method", "matrix", "--set", "pipe.exec.stages=1",
                                                          "--set", "bpred.type=none"]),
    ("matrix", "inorder1 bimodal", "2.4", 0.0, "inorder1", ["--method", "matrix", "--set", "pipe.exec.stages=1",
                                                             "--set", "bpred.type=bimodal"]),
] + [("matrix", "inorder3 %s" % p, "2.4", 0.0, "inorder3", ["--method", "matrix", "--set", "bpred.type=" + p] + ONE_CYCLE)
     for p in ("perfect", "none", "bimodal", "static")] + [
    ("markov", "Markov: inorder3 %s" % p, "4.2/4.3", 0.0, "inorder3", ["--set", "bpred.type=" + p] + ONE_CYCLE)
    for p in ("perfect", "none")]


def failures(res):
    """(workload, machine, why) of every run that failed"""
    return [(k[0], MACHINES[k[1]][1], r["failed"]) for k, r in res.items() if "failed" in r]


def class_summary(lines, res, wls):
    lines.append("")
    lines.append("| class | thesis figure | thesis average | average \\|error\\| | max \\|error\\| (workload, machine) | "
                 "model CPU time: max per machine | runs |")
    lines.append("|---|---|---:|---:|---:|---:|---:|")
    classes = []
    for m in MACHINES:
        if m[0] not in classes:
            classes.append(m[0])
    for c in classes:
        errs, worst, tmax, fig, goal, fails = [], (0, "", ""), 0, "", 0, 0
        for i, m in enumerate(MACHINES):
            if m[0] != c:
                continue
            fig, goal = m[2], m[3]
            for name, _ in wls:
                r = res[(name, i)]
                if "failed" in r:
                    fails += 1
                    continue
                e = abs(100 * r["error"])
                errs.append(e)
                tmax = max(tmax, r.get("model_cpu_seconds", r["model_seconds"]))
                if e >= worst[0]:
                    worst = (e, name, m[1])
        avg = sum(errs) / len(errs) if errs else float("nan")
        lines.append("| %s | %s | %s | %.2f%% | %.2f%% (%s, %s) | %.3f s | %d%s |" % (
            c, fig, ("%.1f%%" % goal) if goal else "exact", avg, worst[0], worst[1], worst[2], tmax, len(errs),
            (", %d failed" % fails) if fails else ""))


def model_times(a, res, wls):
    lines = ["| class | machines | runs | model CPU s: mean | max (workload, machine) | over 1 s |",
             "|---|---|---:|---:|---:|---:|"]
    classes = []
    for m in MACHINES:
        if m[0] not in classes:
            classes.append(m[0])
    allt = []
    for c in classes:
        ts, worst, fails, notrun, labels = [], (0, "", ""), 0, 0, []
        for i, m in enumerate(MACHINES):
            if m[0] != c:
                continue
            labels.append(m[1])
            for name, _ in wls:
                r = res[(name, i)]
                if r.get("failed") == "not run":
                    notrun += 1
                    continue
                if "failed" in r:
                    fails += 1
                    continue
                t = r["model_cpu_seconds"]
                ts.append(t)
                if t >= worst[0]:
                    worst = (t, name, m[1])
        allt += ts
        lines.append("| %s | %s | %d%s%s | %.3f | %.3f (%s, %s) | %d |" % (
            c, ", ".join(labels), len(ts), (", %d failed" % fails) if fails else "",
            (", %d not run" % notrun) if notrun else "", sum(ts) / max(1, len(ts)),
            worst[0], worst[1], worst[2], sum(1 for t in ts if t >= 1.0)))
    lines.append("")
    lines.append("%d runs: %d modelled in under 1 CPU second, the slowest %.3f s." % (
        len(allt), sum(1 for t in allt if t < 1.0), max(allt) if allt else 0))
    stamp = "Generated by `bench/statmodel_accuracy.py build --model-only%s` on %s (CPU seconds of `model solve`'s " \
            "solve, the machine shared with other jobs).\n\n" % (
                (" --max %d" % a.max) if a.max else "", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    publish("\n".join(lines), failures(res), a.update_doc, ("<!-- modeltime:begin -->", "<!-- modeltime:end -->"),
            stamp)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("--max", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--update-doc")
    ap.add_argument("--only")
    ap.add_argument("--table", choices=["markov", "matrix"], default="markov")
    ap.add_argument("--addr-bits", type=int, default=0)
    ap.add_argument("--model-only", action="store_true")
    ap.add_argument("--collect", action="store_true",
                    help="build the tables from the JSON files of an earlier run (newer than each profile)")
    a = ap.parse_args()
    global MACHINES
    if a.table == "matrix":
        MACHINES = MATRIX_MACHINES
    src = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    cs = os.path.join(a.build, "cyclescope")
    wls = workloads(src)
    if a.only:
        keep = a.only.split(",")
        wls = [w for w in wls if w[0] in keep]
    tmp = os.path.join(a.build, "statmodel-accuracy" + ("-matrix" if a.table == "matrix" else "") +
                       ("-model-only" if a.model_only else "") +
                       ("-addr%d" % a.addr_bits if a.addr_bits else ""))
    os.makedirs(tmp, exist_ok=True)
    profs = {}
    for name, arg in wls:
        if a.collect:
            profs[name] = os.path.join(tmp, name + ".smp")
            continue
        prof = os.path.join(tmp, name + ".smp")
        cmd = ["nice", "-n", "10", cs, "model", "analyze", "-o", prof]
        if a.max:
            cmd += ["--max", str(a.max)]
        if a.addr_bits:
            cmd += ["--addr-bits", str(a.addr_bits)]
        subprocess.run(cmd + [os.path.join(a.build, "workloads", name), arg], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        profs[name] = prof
    jobs, res = {}, {}
    if a.collect:
        for name, _ in wls:
            for i, m in enumerate(MACHINES):
                f = os.path.join(tmp, "%s-%d.json" % (name, i))
                ok = os.path.exists(f) and os.path.exists(profs[name]) and \
                    os.path.getmtime(f) >= os.path.getmtime(profs[name])
                res[(name, i)] = json.load(open(f)) if ok else {"failed": "not run"}
    else:
        with cf.ThreadPoolExecutor(a.jobs) as ex:
            for name, _ in wls:
                for i, m in enumerate(MACHINES):
                    jobs[(name, i)] = ex.submit(solve, cs, profs[name], m[4], m[5],
                                                os.path.join(tmp, "%s-%d.json" % (name, i)), not a.model_only)
        res = {k: f.result() for k, f in jobs.items()}
    if a.model_only:
        model_times(a, res, wls)
        return
    lines = []
    head = "| workload | " + " | ".join(m[1] for m in MACHINES) + " |"
    lines.append(head)
    lines.append("|---|" + "---:|" * len(MACHINES))
    for name, _ in wls:
        cells = []
        for i, m in enumerate(MACHINES):
            r = res[(name, i)]
            if "failed" in r:
                cells.append("fail")
            else:
                cells.append("%.3f / %.3f (%+.2f%%)" % (r["ipc"], r["simulated_ipc"], 100 * r["error"]))
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    if a.table == "matrix":
        summary = []
        for i, m in enumerate(MACHINES):
            errs = [abs(100 * res[(n, i)]["error"]) for n, _ in wls if "failed" not in res[(n, i)]]
            summary.append("%.2f%% / %.2f%%" % (sum(errs) / len(errs), max(errs)) if errs else "-")
        lines.append("| mean / max abs error | %s |" % " | ".join(summary))
        worst = max(((abs(r["error"]), k) for k, r in res.items() if "failed" not in r), default=None)
        if worst:
            print("worst: %s, %s: %+.2f%%" % (worst[1][0], MACHINES[worst[1][1]][1], 100 * res[worst[1]]["error"]),
                  file=sys.stderr)
    else:
        class_summary(lines, res, wls)
    stamp = "Generated by `bench/statmodel_accuracy.py build%s%s%s` on %s.\n\n" % (
        (" --max %d" % a.max) if a.max else "", " --table matrix" if a.table == "matrix" else "",
        (" --addr-bits %d" % a.addr_bits) if a.addr_bits else "", time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    nrun = sum(1 for r in res.values() if "failed" not in r)
    if nrun < len(res):
        stamp += "%d of %d runs completed; \"fail\" marks the others (see the error output).\n\n" % (nrun, len(res))
    markers = ("<!-- matrix:begin -->", "<!-- matrix:end -->") if a.table == "matrix" else \
        ("<!-- accuracy:begin -->", "<!-- accuracy:end -->")
    publish("\n".join(lines), failures(res), a.update_doc, markers, stamp)


if __name__ == "__main__":
    main()
