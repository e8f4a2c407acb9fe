"""What the statistical-model benches share (statmodel_accuracy.py, statmodel_addr_bits.py):
the workloads, one `model solve`, and printing a table and splicing it into docs/statmodel.md."""
import json, os, subprocess, sys


def workloads(src):
    """(name, small argument) of every workload in workloads/manifest.txt"""
    out = []
    for line in open(os.path.join(src, "workloads", "manifest.txt")):
        f = line.split()
        if f and not f[0].startswith("#"):
            out.append((f[0], f[2]))
    return out


def solve(cs, prof, config, sets, out, compare=True):
    """`model solve` of one machine: its JSON, or {"failed": why}"""
    # the JSON goes to a file: the guest's own output shares stdout with --compare-sim
    r = subprocess.run(["nice", "-n", "10", cs, "model", "solve", "--config", config] + sets +
                       (["--compare-sim"] if compare else []) + ["--json", out, prof], capture_output=True, text=True)
    if r.returncode != 0:
        return {"failed": r.stderr.strip()}
    return json.load(open(out))


def publish(table, failures, doc_path, markers, stamp):
    """Print the table and the failed runs (stderr); with doc_path, replace what stands between
    the two markers in it by the stamp and the table."""
    print(table)
    for f in failures:
        print("failed:", *f, file=sys.stderr)
    if doc_path:
        doc = open(doc_path).read()
        b, e = markers
        i, j = doc.index(b), doc.index(e)
        doc = doc[:i + len(b)] + "\n" + stamp + table + "\n" + doc[j:]
        open(doc_path, "w").write(doc)
