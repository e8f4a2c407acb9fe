#!/usr/bin/env python3
r"""hostile_audit.py CYCLESCOPE WORKLOAD_DIR [GUEST_DIR] [--full] [--only SUBSTRING]

The bad-input audit (docs/errors.md): every verb and option given, as a hostile user would,
bad option values, damaged or foreign input files and unwritable outputs. Each case must

  - exit non-zero and below 128 (128+ is a crash or a signal; a guest's own fault is no case
    here), within the time limit (a hang fails);
  - write exactly one line on stderr, no sanitizer report, and that line must name what is
    wrong (the option, the value or the file: the case's `names` string);
  - change nothing in the working directory: no new file, no existing file changed (every
    output of a case is pre-created with the content "precious", so a failed run that
    clobbers or truncates it is caught).

Without --full the fast subset runs (one bad value per option, the file families on a few
verbs); --full runs every combination (labelled slow in CTest). Prints one line per failure
and the counts; exits 1 on any failure.
"""
import hashlib
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
FULL = "--full" in sys.argv
ONLY = None
if "--only" in sys.argv:
    ONLY = sys.argv[sys.argv.index("--only") + 1]
    args.remove(ONLY)
CS = os.path.realpath(args[0])
W = os.path.realpath(args[1])
PROG = os.path.join(W, "dep_add")
GUESTS = os.path.realpath(args[2]) if len(args) > 2 else None  # tests/guest: bad_syscall
TIMEOUT = 120

tmp = tempfile.mkdtemp(prefix="hostile_audit.")
os.chdir(tmp)
FIX = os.path.join(tmp, "fix")  # good inputs, made once
os.mkdir(FIX)
PRECIOUS = b"precious\n"
failures = []
counts = {"cases": 0, "failed": 0}


def run(argv, **kw):
    return subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          timeout=600, **kw)


def make(argv):
    p = run([CS] + argv)
    if p.returncode != 0:
        sys.exit("fixture: cyclescope %s: exit %d: %s" % (" ".join(argv), p.returncode, p.stderr.decode()))


def fix(name):
    return os.path.join(FIX, name)


# --- fixtures: one good file of every format ------------------------------------------------
make(["trace", "record", "-o", fix("good.cst"), "--max", "3000", PROG, "10"])
make(["rpstacks", "-o", fix("good.rps"), "--max", "3000", PROG, "10"])
make(["profile", "record", "--period", "100", "-o", fix("good.prof"), "--truth", fix("good.truth"), "--max",
      "5000", PROG, "10"])
make(["profile", "record", "--period", "100", "--sample-seed", "2", "-o", fix("good2.prof"), "--max", "5000",
      PROG, "10"])
make(["model", "analyze", "-o", fix("good.smp"), "--max", "3000", PROG, "10"])
make(["run", "--no-report", "--json", fix("good.json"), "--max", "2000", PROG, "10"])
make(["trace", "export-champsim", fix("good.cst"), "-o", fix("good.champsim")])
make(["simpoint", "--interval", "500", "--max", "5000", "-o", fix("sp"), PROG, "10"])
make(["sweep", "--grid", "core.rob_size=64,128", "-j", "1", "--max", "1000", "-o", fix("sweep"), PROG, "10"])
with open(fix("good.ini"), "w") as f:
    f.write("[core]\nrob_size = 96\n")
open(fix("empty"), "w").close()
os.mkfifo(fix("fifo"))
os.mkdir(fix("dir"))
shutil.copy("/bin/true", fix("x86.elf"))
with open(PROG, "rb") as f:
    elf = bytearray(f.read())
elf32 = bytearray(elf)
elf32[4] = 1  # EI_CLASS: ELFCLASS32
open(fix("rv32.elf"), "wb").write(elf32)
elfbe = bytearray(elf)
elfbe[5] = 2  # EI_DATA: big-endian
open(fix("be.elf"), "wb").write(elfbe)
elfdyn = bytearray(elf)
elfdyn[16] = 3  # e_type: ET_DYN without an interpreter's PT_INTERP (a shared object)
for lib in ("/usr/riscv64-linux-gnu/lib/libc.so.6", "/usr/riscv64-linux-gnu/lib/libm.so.6"):
    if os.path.exists(lib):
        shutil.copy(lib, fix("lib.so"))
        break
elfrel = bytearray(elf)
elfrel[16] = 1  # ET_REL
open(fix("rel.elf"), "wb").write(elfrel)
with open(fix("garbage"), "wb") as f:
    f.write(bytes((i * 131 + 7) & 255 for i in range(4096)))
GOOD = {"elf": PROG, "cst": fix("good.cst"), "rps": fix("good.rps"), "prof": fix("good.prof"),
        "truth": fix("good.truth"), "smp": fix("good.smp"), "json": fix("good.json"),
        "champsim": fix("good.champsim"), "ini": fix("good.ini"), "bb": fix("sp/bbv.bb")}


def damaged(kind):
    """Damaged copies of the good file of KIND: truncated at every section boundary we can
    guess without parsing (each power of two, and one byte short), wrong magic, one byte
    flipped in the middle (a checksum or a count), a zero byte at the end."""
    src = GOOD[kind]
    data = open(src, "rb").read()
    out = []
    cuts = sorted(set([1, 4, 8, 16, 24, 32, 48, 64, 100, 128, 256, 512, 1024, 4096, len(data) // 2, len(data) - 1]))
    if kind == "json":
        cuts = [c if c != len(data) - 1 else len(data) - 2 for c in cuts]
    if kind == "champsim":  # raw records: a cut at a record's end is a shorter trace
        cuts = [c + 13 for c in cuts if c % 64 == 0] + [c for c in cuts if c % 64]
    cuts = [c for c in cuts if 0 < c < len(data)]
    if not FULL:
        cuts = [c for c in cuts if c in (8, 64, len(data) // 2, len(data) - 1)]
    for c in cuts:
        p = fix("%s.cut%d" % (kind, c))
        open(p, "wb").write(data[:c])
        out.append(("truncated at %d of %d" % (c, len(data)), p))
    p = fix("%s.magic" % kind)
    open(p, "wb").write(bytes([data[0] ^ 0x20]) + data[1:])
    out.append(("wrong magic", p))
    if kind in ("champsim", "elf"):
        return out[:-1]  # no magic, no checksum: raw records; an ELF's code may be any bytes
    if kind not in ("json", "ini"):
        p = fix("%s.flip" % kind)
        m = len(data) // 2
        open(p, "wb").write(data[:m] + bytes([data[m] ^ 0xff]) + data[m + 1:])
        out.append(("a byte flipped in the middle", p))
    return out


def snapshot():
    snap = {}
    for root, dirs, files in os.walk(tmp):
        for name in files + dirs:
            p = os.path.join(root, name)
            st = os.lstat(p)
            if stat.S_ISREG(st.st_mode):
                snap[p] = hashlib.sha256(open(p, "rb").read()).hexdigest()
            else:
                snap[p] = stat.S_IFMT(st.st_mode)
    return snap


SANITIZER = re.compile(r"AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:")


def case(title, argv, names, outputs=(), rc=None, may_write=(), env=None):
    """One hostile case: cyclescope ARGV must fail cleanly, naming NAMES (a string, or a
    list: any of them), leaving every pre-created output in OUTPUTS (relative paths) as it was."""
    if ONLY and ONLY not in title and ONLY not in " ".join(argv):
        return
    counts["cases"] += 1
    for o in outputs:
        if os.path.dirname(o) and not os.path.isdir(os.path.dirname(o)):
            continue
        if not os.path.exists(o):
            with open(o, "wb") as f:
                f.write(PRECIOUS)
    before = snapshot()
    try:
        p = subprocess.run([CS] + argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT, env=dict(os.environ, **(env or {})))
        code, err = p.returncode, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        code, err = "timeout", ""
    after = snapshot()
    # a warning before the error is said on its own line (cs_warn): not the error's line
    lines = [l for l in err.splitlines() if not l.startswith("cyclescope: warning:")]
    why = []
    if code == "timeout":
        why.append("no end within %d s" % TIMEOUT)
    elif code == 0:
        why.append("exit 0")
    elif code < 0 or code >= 128:
        why.append("exit %d (a crash or a signal)" % (code if code >= 0 else 128 - code))
    elif rc is not None and code != rc:
        why.append("exit %d, expected %d" % (code, rc))
    if SANITIZER.search(err):
        why.append("sanitizer report")
    if code != "timeout" and len(lines) != 1:
        why.append("%d lines on stderr" % len(lines))
    want = [names] if isinstance(names, str) else list(names)
    if lines and not any(n in err for n in want):
        why.append("stderr does not name %s" % " or ".join(repr(n) for n in want))
    def allowed(rel):
        return rel in may_write or any(rel.startswith(m + "/") for m in may_write)

    changed = [os.path.relpath(k, tmp) for k in after if before.get(k) != after[k] and not allowed(os.path.relpath(k, tmp))]
    changed += [os.path.relpath(k, tmp) + " (removed)" for k in before if k not in after]
    if changed:
        why.append("files changed: " + ", ".join(sorted(changed)[:5]))
    # leave the directory as it was for the next case
    for k in after:
        if k not in before:
            if os.path.isdir(k) and not os.path.islink(k):
                shutil.rmtree(k, ignore_errors=True)
            elif os.path.lexists(k):
                os.unlink(k)
    if why:
        counts["failed"] += 1
        msg = "FAIL %s: cyclescope %s: %s | stderr: %s" % (title, " ".join(argv), "; ".join(why),
                                                            " / ".join(lines[:4])[:400])
        failures.append(msg)
        print(msg, flush=True)


# ============================================================================================
# 1. option values: missing, not a number, negative, huge, NaN, trailing junk
# ============================================================================================
BAD_NUMBERS = ["abc", "-1", "18446744073709551616", "1e309", "nan", "10x", "", " 5", "0x", "1.5"]
if not FULL:
    BAD_NUMBERS = ["abc", "-1", "18446744073709551616", "nan", "10x", ""]
RUNARGS = ["--max", "1000"]
NUMERIC = [
    # (verb words, option, fixed args after, values also bad for it)
    (["exec"], "--max", [PROG, "10"], ["0"]),
    (["exec"], "--seed", [PROG, "10"], []),
    (["exec"], "--thread-quantum", [PROG, "10"], ["0"]),
    (["exec"], "--guest-memory", [PROG, "10"], ["0", "5Q"]),
    (["run", "--no-report"], "--max", [PROG, "10"], ["0"]),
    (["run", "--no-report"], "--warmup", [PROG, "10"], []),
    (["run", "--no-report"], "--interval", [PROG, "10"], ["0"]),
    (["run", "--no-report", "--pipeview", "pv.out"], "--pipeview-from", [PROG, "10"], []),
    (["run", "--no-report", "--pipeview", "pv.out"], "--pipeview-count", [PROG, "10"], ["0"]),
    (["run", "--no-report", "--simpoints", fix("sp")], "--jobs", [PROG, "10"], ["0"]),
    (["sim", "--no-report"], "--max", [fix("good.cst")], ["0"]),
    (["sim", "--no-report"], "--warmup", [fix("good.cst")], []),
    (["sim", "--no-report"], "--interval", [fix("good.cst")], ["0"]),
    (["stacks", "--validate", "--no-report"], "--jobs", [PROG, "10"], ["0"]),
    (["stallscope"], "--depth", RUNARGS + [PROG, "10"], ["0"]),
    (["stallscope"], "--threshold", RUNARGS + [PROG, "10"], ["101", "inf"]),
    (["stallscope"], "--interval", RUNARGS + [PROG, "10"], ["0"]),
    (["trace", "record", "-o", "t.cst"], "--skip", [PROG, "10"], []),
    (["trace", "record", "-o", "t.cst"], "--max", [PROG, "10"], ["0"]),
    (["trace", "record", "-o", "t.cst"], "--level", [PROG, "10"], ["0", "20"]),
    (["trace", "record", "-o", "t.cst"], "--frame-uops", [PROG, "10"], ["0"]),
    (["trace", "dump"], "--from", [fix("good.cst")], []),
    (["trace", "dump"], "--count", [fix("good.cst")], []),
    (["trace", "export-champsim", "-o", "t.champsim.xz"], "--preset", [fix("good.cst")], ["0", "10"]),
    (["trace", "export-champsim", "-o", "t.champsim.xz"], "--threads", [fix("good.cst")], []),
    (["simpoint", "-o", "spo", "--max", "5000"], "--interval", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--max-k", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--k", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--cluster-seed", [PROG, "10"], []),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--dims", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--init-seeds", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--iterations", [PROG, "10"], ["0"]),
    (["simpoint", "-o", "spo", "--max", "5000", "--interval", "500"], "--bic-threshold", [PROG, "10"],
     ["2", "inf"]),
    (["simpoint", "-o", "spo"], "--max", [PROG, "10"], ["0"]),
    (["sweep", "--grid", "core.rob_size=64", "-o", "swo"], "-j", [PROG, "10"], ["0"]),
    (["sweep", "--grid", "core.rob_size=64", "-o", "swo"], "--max", [PROG, "10"], ["0"]),
    (["model", "analyze", "-o", "m.smp"], "--max", [PROG, "10"], ["0"]),
    (["model", "analyze", "-o", "m.smp"], "--window", [PROG, "10"], ["0", "1", "9"]),
    (["model", "analyze", "-o", "m.smp"], "--addr-bits", [PROG, "10"], ["13"]),
    (["model", "solve"], "--max-states", [fix("good.smp")], ["0"]),
    (["profile", "record", "-o", "p.prof"], "--period", RUNARGS + [PROG, "10"], ["0", "5-2", "1-", "-"]),
    (["profile", "record", "-o", "p.prof"], "--sample-seed", RUNARGS + [PROG, "10"], []),
    (["profile", "record", "-o", "p.prof"], "--events", RUNARGS + [PROG, "10"], []),  # 0: off
    (["profile", "record", "-o", "p.prof"], "--max", [PROG, "10"], ["0"]),
    (["rpstacks", "-o", "r.rps"], "--segment", RUNARGS + [PROG, "10"], ["0"]),
    (["rpstacks", "-o", "r.rps"], "--similarity", RUNARGS + [PROG, "10"], ["2", "inf"]),
    (["rpstacks", "-o", "r.rps"], "--max-scale", RUNARGS + [PROG, "10"], ["inf"]),  # 0: no bound
    (["rpstacks", "-o", "r.rps"], "--max-stacks", RUNARGS + [PROG, "10"], ["0"]),
    (["rpstacks", "-o", "r.rps"], "--threads", RUNARGS + [PROG, "10"], []),  # 0: the processors
    (["rpstacks", "-o", "r.rps"], "--max", [PROG, "10"], ["0"]),
    (["whatif", fix("good.rps"), "--set", "l2.latency=20"], "--verify", [], []),
    (["whatif", fix("good.rps"), "--set", "l2.latency=20", "--verify", "1"], "--jobs", [], ["0"]),
]
FLOATS = ("--threshold", "--similarity", "--max-scale", "--bic-threshold", "--preset")
OUTS = ["pv.out", "t.cst", "t.champsim.xz", "m.smp", "p.prof", "r.rps"]
for verb, opt, rest, extra in NUMERIC:
    for v in BAD_NUMBERS + extra:
        if opt in FLOATS and v in (" 5", "1.5"):
            continue  # strtod's number: " 5" is 5, a threshold of 1.5 % is one
        case("%s %s %r" % (" ".join(verb[:2]), opt, v), verb + [opt, v] + rest, [opt, v or "''"], OUTS)
    # the option last: its value missing (before a program: the words after it are the guest's)
    last = verb + [opt] if PROG in rest else verb + rest + [opt]
    case("%s %s missing value" % (" ".join(verb[:2]), opt), last, opt, OUTS)

# options taking a word
WORDS = [
    (["stallscope"] + RUNARGS, "--tooclose", ["near", ""], [PROG, "10"]),
    (["stallscope"] + RUNARGS, "--completion", ["retire", ""], [PROG, "10"]),
    (["profile", "record", "-o", "p.prof"] + RUNARGS, "--sample-point", ["commit", ""], [PROG, "10"]),
    (["rpstacks", "-o", "r.rps"] + RUNARGS, "--unique", ["maybe", ""], [PROG, "10"]),
    (["model", "solve"], "--method", ["newton", ""], [fix("good.smp")]),
    (["model", "solve"], "--config", ["ooo4", "nosuch"], [fix("good.smp")]),
    (["sweep", "--grid", "core.rob_size=64", "-o", "swo"], "--emit", ["bash", ""], [PROG, "10"]),
    (["run", "--no-report"] + RUNARGS, "--analysis", ["nosuch", "stacks:y=1", "profile", ":", ",", ""],
     [PROG, "10"]),
    (["run", "--no-report"] + RUNARGS, "--config", ["nosuch", "", fix("dir"), fix("fifo"), fix("garbage"),
                                                    fix("empty")], [PROG, "10"]),
    (["disasm"], "--section", [".nosuch", ""], [PROG]),
    (["exec"], "--sysroot", ["/nonexistent", fix("good.ini")], [fix("lib.so")]),
]
for verb, opt, vals, rest in WORDS:
    for v in vals:
        case("%s %s %r" % (verb[0], opt, v), verb + [opt, v] + rest, [opt, v or "''", v.split(":")[0]], OUTS)
    last = verb + [opt] if PROG in rest or fix("lib.so") in rest else verb + rest + [opt]
    case("%s %s missing value" % (verb[0], opt), last, opt, OUTS)

# unknown options, to every verb and subverb
VERBS = [["exec"], ["disasm"], ["run"], ["sim"], ["stacks"], ["stallscope"], ["simpoint"], ["sweep"],
         ["compare"], ["merge"], ["rpstacks"], ["whatif"], ["config", "show"], ["config", "list"],
         ["trace", "record"], ["trace", "info"], ["trace", "dump"], ["trace", "import-champsim"],
         ["trace", "export-champsim"], ["model", "analyze"], ["model", "solve"], ["model", "info"],
         ["profile", "record"], ["profile", "report"], ["profile", "annotate"], ["profile", "imiss"],
         ["profile", "merge"]]
for v in VERBS:
    case("%s unknown option" % " ".join(v), v + ["--frobnicate", PROG], "--frobnicate", OUTS)
    if (FULL or v[0] in ("run", "trace", "whatif")) and v != ["config", "list"]:
        case("%s no arguments" % " ".join(v), v, ["usage", "missing", "needs", "expected", "no ", "give "], OUTS)
case("unknown verb", ["frobnicate"], "frobnicate")
case("unknown subverb", ["trace", "frobnicate"], "frobnicate")
case("unknown subverb", ["model", "frobnicate"], "frobnicate")
case("unknown subverb", ["profile", "frobnicate"], "frobnicate")
case("unknown subverb", ["config", "frobnicate"], "frobnicate")

# duplicated and conflicting options
case("run --config twice", ["run", "--no-report", "--config", "ooo4", "--config", "bdw"] + RUNARGS + [PROG],
     "--config")
case("run --max twice", ["run", "--no-report", "--max", "10", "--max", "20", PROG], "--max")
case("run --no-report --report", ["run", "--no-report", "--report", "r.html"] + RUNARGS + [PROG],
     ["--no-report", "--report"], ["r.html"])
case("run --json twice", ["run", "--no-report", "--json", "a.json", "--json", "b.json"] + RUNARGS + [PROG],
     "--json", ["a.json", "b.json"])
# a one-value option given twice: the first value was dropped without a word
TWICE = [
    (["run", "--no-report"] + RUNARGS, "--csv", "a.csv", "b.csv", [PROG]),
    (["run", "--no-report"] + RUNARGS, "--warmup", "10", "20", [PROG]),
    (["sim", "--no-report"], "--config", "ooo4", "bdw", [fix("good.cst")]),
    (["stallscope"] + RUNARGS, "--depth", "3", "4", [PROG]),
    (["stallscope"] + RUNARGS, "--report", "a.html", "b.html", [PROG]),
    (["trace", "record", "--max", "100"], "-o", "a.cst", "b.cst", [PROG]),
    (["trace", "record", "-o", "a.cst"], "--max", "100", "200", [PROG]),
    (["trace", "dump"], "--count", "1", "2", [fix("good.cst")]),
    (["trace", "export-champsim", fix("good.cst")], "-o", "a.champsim", "b.champsim", []),
    (["trace", "import-champsim", fix("good.champsim")], "-o", "a.cst", "b.cst", []),
    (["rpstacks"] + RUNARGS, "-o", "a.rps", "b.rps", [PROG]),
    (["rpstacks", "-o", "a.rps"] + RUNARGS, "--segment", "1000", "2000", [PROG]),
    (["whatif", fix("good.rps"), "--grid", "l2.latency=10,20"], "--csv", "a.csv", "b.csv", []),
    (["whatif", fix("good.rps")], "--grid", "l2.latency=10,20", "l1d.latency=3,4", []),
    (["model", "analyze", "--max", "100"], "-o", "a.smp", "b.smp", [PROG]),
    (["model", "solve"], "--json", "a.json", "b.json", [fix("good.smp")]),
    (["model", "solve"], "--method", "markov", "matrix", [fix("good.smp")]),
    (["profile", "record"] + RUNARGS, "-o", "a.prof", "b.prof", [PROG]),
    (["profile", "record", "-o", "a.prof"] + RUNARGS, "--period", "100", "200", [PROG]),
    (["profile", "report", fix("good.prof")], "--json", "a.json", "b.json", []),
    (["profile", "merge", fix("good.prof"), fix("good.truth")], "-o", "a.prof", "b.prof", []),
    (["simpoint", "--max", "5000", "--interval", "500"], "-o", "a", "b", [PROG]),
    (["simpoint", "-o", "spo", "--max", "5000"], "--interval", "500", "1000", [PROG]),
    (["sweep", "--grid", "core.rob_size=64", "--max", "1000"], "-o", "a", "b", [PROG]),
    (["sweep", "--max", "1000", "-o", "swo"], "--grid", "core.rob_size=64", "core.rob_size=96", [PROG]),
    (["compare", fix("good.json"), fix("good.json")], "--report", "a.html", "b.html", []),
    (["exec"], "--seed", "1", "2", [PROG]),
    (["disasm"], "--section", ".text", ".plt", [PROG]),
]
if not FULL:
    TWICE = TWICE[::3]
for pre, opt, a, b, post in TWICE:
    case("%s %s twice" % (" ".join(pre[:2]), opt), pre + [opt, a, opt, b] + post, [opt, "twice"],
         [x for x in (a, b) if "." in x])

case("stacks --validate --simpoints", ["stacks", "--validate", "--simpoints", fix("sp"), PROG],
     ["--simpoints", "--validate"])
case("whatif --set twice", ["whatif", fix("good.rps"), "--set", "l2.latency=20", "--set", "l2.latency=30"],
     "l2.latency")
case("simpoint --k > --max-k", ["simpoint", "-o", "spo", "--max", "5000", "--interval", "500", "--k", "40",
                                "--max-k", "30", PROG, "10"], ["--k", "--max-k"])
case("profile --period 10-5", ["profile", "record", "-o", "p.prof", "--period", "10-5"] + RUNARGS + [PROG],
     ["--period", "10-5"], ["p.prof"])

# ============================================================================================
# 2. configuration overrides and files
# ============================================================================================
BAD_SETS = ["core.rob_size=0", "core.issue_width=0", "core.commit_width=0", "core.fetch_width=0",
            "core.rob_size=-1", "core.rob_size=abc", "core.rob_size=", "core.rob_size=1e309",
            "core.rob_size=18446744073709551616", "core.freq_ghz=nan", "core.freq_ghz=0", "core.freq_ghz=-3",
            "l1d.size=1000", "l1d.size=0", "l1d.assoc=1024", "l1d.line=48", "l1d.line=0", "l1d.latency=-1",
            "l1d.latency=x", "core.nosuch=1", "nosuch.key=1", "core.rob_size", "=5", "core.=5", ".rob_size=5",
            "bpred.type=oracle9", "core.skip_idle=maybe", "core.mem_order=magic", "fu.alu.count=0",
            "fu.alu.classes=nosuch", "latency.int-alu=0", "latency.nosuch=1"]
if not FULL:
    BAD_SETS = BAD_SETS[:4] + ["core.rob_size=abc", "core.freq_ghz=nan", "l1d.size=1000", "l1d.assoc=1024",
                               "l1d.latency=-1", "core.nosuch=1", "core.rob_size", "latency.int-alu=0"]
for s in BAD_SETS:
    key = [s.split("=")[0] or s, s, s.split(".")[0] + ":"]
    case("run --set %s" % s, ["run", "--no-report", "--set", s] + RUNARGS + [PROG, "10"], key)
    if FULL:
        case("sim --set %s" % s, ["sim", "--no-report", "--set", s, fix("good.cst")], key)
        case("config show --set %s" % s, ["config", "show", "--set", s, "ooo4"], key)
        case("sweep --grid %s" % s, ["sweep", "--grid", s, "-o", "swo", PROG, "10"], key)
case("run --set a key twice", ["run", "--no-report", "--set", "core.rob_size=128", "--set", "core.rob_size=96"] +
     RUNARGS + [PROG], ["core.rob_size", "twice"])
case("CYCLESCOPE_CONFIGS a missing directory", ["run", "--no-report"] + RUNARGS + [PROG], "CYCLESCOPE_CONFIGS",
     env={"CYCLESCOPE_CONFIGS": fix("nonexistent")})
case("CYCLESCOPE_SYSROOT a missing directory", ["exec", PROG], "CYCLESCOPE_SYSROOT",
     env={"CYCLESCOPE_SYSROOT": fix("nonexistent")})
for s in ["inorder.value_prediction=maybe", "core.rob_size=64", "l1d.size=1000"]:
    case("model solve --set %s" % s, ["model", "solve", "--set", s, fix("good.smp")], [s.split("=")[0], s])

INI = {
    "self-include": "[core]\ninclude = self.ini\n",
    "no section": "rob_size = 64\n",
    "bad section": "[core\nrob_size = 64\n",
    "no equals": "[core]\nrob_size 64\n",
    "unknown key": "[core]\nrob_sise = 64\n",
    "unknown section": "[cores]\nrob_size = 64\n",
    "duplicate key": "[core]\nrob_size = 128\nrob_size = 96\n",
    "duplicate section": "[core]\nrob_size = 128\n[l1d]\nassoc = 8\n[core]\nrob_size = 96\n",
    "zero rob": "[core]\nrob_size = 0\n",
    "nul byte": "[core]\nrob_size = 6\x004\n",
    "huge line": "[core]\nrob_size = " + "9" * 100000 + "\n",
    "huge number": "[core]\nrob_size = 99999999999999999999999\n",
    "bad model": "[core]\nmodel = vliw\n",
    "latin1": "[core]\nrob_size = 6\xe94\n",
}
for title, text in INI.items():
    name = "self.ini" if title == "self-include" else "bad.ini"
    with open(fix(name), "w", encoding="latin-1") as f:
        f.write(text)
    case("config file: %s" % title, ["run", "--no-report", "--config", fix(name)] + RUNARGS + [PROG, "10"],
         name)
    case("config file: %s (config show)" % title, ["config", "show", fix(name)], name)
# CRLF line ends and a UTF-8 byte order mark are read as the plain file is
for title, text in {"CRLF": "[core]\r\nrob_size = 96\r\n", "BOM": "\ufeff[core]\nrob_size = 96\n"}.items():
    if ONLY and ONLY not in title:
        continue
    counts["cases"] += 1
    with open(fix("crlf.ini"), "w", encoding="utf-8", newline="") as f:
        f.write(text)
    p = run([CS, "config", "show", fix("crlf.ini")])
    if p.returncode != 0 or "\nrob_size = 96\n" not in p.stdout.decode():
        counts["failed"] += 1
        failures.append("FAIL config file with %s: exit %d: %s" % (title, p.returncode, p.stderr.decode()[:300]))
        print(failures[-1], flush=True)
for name in ["dir", "fifo", "empty", "garbage", "good.cst", "nonexistent.ini"]:
    case("config file: %s" % name, ["run", "--no-report", "--config", fix(name)] + RUNARGS + [PROG, "10"], name)

# ============================================================================================
# 3. input files: missing, directory, empty, /dev/null, FIFO, garbage, damaged, another format
# ============================================================================================
# unreadable files: we may run as root (chmod 000 does not stop it), so a path through a file
# (ENOTDIR), a symbolic link loop (ELOOP) and a name too long (ENAMETOOLONG) instead
os.symlink("loop", fix("loop"))
ODD = [("missing", fix("nonexistent")), ("directory", fix("dir")), ("empty", fix("empty")),
       ("/dev/null", "/dev/null"), ("FIFO", fix("fifo")), ("garbage", fix("garbage")),
       ("a path through a file", fix("garbage") + "/x"), ("a symbolic link loop", fix("loop")),
       ("a name too long", fix("n" * 5000))]
FOREIGN = {k: GOOD[k] for k in ("elf", "cst", "rps", "prof", "smp", "json", "champsim", "ini")}
FOREIGN.update({"x86-64 ELF": fix("x86.elf"), "32-bit ELF": fix("rv32.elf"), "big-endian ELF": fix("be.elf"),
                "shared object": fix("lib.so"), "relocatable ELF": fix("rel.elf")})
# verb words before the input, words after it, the input's own kind
INPUTS = [
    (["exec"], ["10"], "elf"),
    (["disasm"], [], "elf"),
    (["run", "--no-report"] + RUNARGS, ["10"], "elf"),
    (["sim", "--no-report"], [], "cst"),
    (["stallscope"] + RUNARGS, [], "cst"),
    (["stacks", "--no-report"] + RUNARGS, [], "elf"),
    (["trace", "info"], [], "cst"),
    (["trace", "dump", "--count", "3"], [], "cst"),
    (["trace", "record", "-o", "t.cst", "--max", "1000"], [], "elf"),
    (["trace", "import-champsim", "-o", "t.cst"], [], "champsim"),
    (["trace", "export-champsim", "-o", "t.champsim"], [], "cst"),
    (["rpstacks", "-o", "r.rps"] + RUNARGS, [], "cst"),
    (["whatif", "--set", "l2.latency=20"], [], "rps"),
    (["model", "analyze", "-o", "m.smp", "--max", "1000"], [], "cst"),
    (["model", "solve"], [], "smp"),
    (["model", "info"], [], "smp"),
    (["profile", "report"], [], "prof"),
    (["profile", "annotate"], [], "prof"),
    (["profile", "imiss"], [], "prof"),
    (["profile", "merge", "-o", "p.prof", fix("good.prof")], [], "prof"),
    (["profile", "record", "-o", "p.prof"] + RUNARGS, [], "elf"),
    (["profile", "report", "--truth"], [fix("good.prof")], "truth"),
    (["compare", fix("good.json")], [], "json"),
    (["simpoint", "-o", "spo", "--bb"], [], "bb"),
    (["simpoint", "-o", "spo", "--interval", "500"], [], "cst"),
    (["sweep", "--grid", "core.rob_size=64", "-o", "swo", "--max", "1000"], [], "cst"),
    (["model", "solve", "--config"], [fix("good.smp")], "ini"),
]
if not FULL:
    INPUTS = [i for i in INPUTS if i[0][0] in ("exec", "disasm", "sim", "whatif", "compare") or
              i[0][:2] in (["model", "solve"], ["profile", "report"], ["trace", "info"],
                           ["trace", "import-champsim"])]
for pre, post, kind in INPUTS:
    v = " ".join(pre[:2])
    for title, path in ODD:
        case("%s: %s input" % (v, title), pre + [path] + post, [os.path.basename(path)[:30], "too long"],
             OUTS)
    for title, path in FOREIGN.items():
        if title == kind or (kind == "cst" and title in ("champsim", "elf")) or (kind == "truth" and title == "prof"):
            continue  # a format the verb reads
        if title == "shared object" and (pre[0] in ("exec", "disasm", "run", "stacks", "stallscope", "rpstacks", "simpoint",
                                                    "sweep") or pre[:2] in (["trace", "record"],
                                                    ["profile", "record"], ["model", "analyze"])):
            continue  # a shared object may be run (with --sysroot's loader); its exit is its own
        if not FULL and title not in ("rps", "x86-64 ELF", "json", "elf", "cst", "32-bit ELF", "big-endian ELF",
                                      "shared object", "relocatable ELF"):
            continue
        case("%s: %s given" % (v, title), pre + [path] + post, os.path.basename(path), OUTS)
    if kind in ("elf", "bb", "ini"):
        continue
    for title, path in damaged(kind):
        # a sweep records a point's failure (the frame's checksum is read when the point runs)
        case("%s: %s %s" % (v, kind, title), pre + [path] + post, os.path.basename(path), OUTS,
             may_write=["swo"] if pre[0] == "sweep" else [])
for title, path in damaged("elf"):
    for pre in (["exec"], ["disasm"], ["run", "--no-report"] + RUNARGS)[: 3 if FULL else 2]:
        if pre[0] != "disasm" and title.startswith("truncated at %d " % (len(elf) - 1)):
            continue  # only the section headers cut: Linux and qemu run it, and so does exec
        case("%s: ELF %s" % (pre[0], title), pre + [path], os.path.basename(path), OUTS)

# merge: a directory that is no sweep, run --simpoints: a directory that holds none
case("merge: missing directory", ["merge", fix("nonexistent")], "nonexistent")
case("merge: a file", ["merge", fix("good.json")], "good.json")
case("merge: empty directory", ["merge", fix("dir")], "dir")
case("run --simpoints: empty directory", ["run", "--no-report", "--simpoints", fix("dir"), PROG], "dir")
case("run --simpoints: a file", ["run", "--no-report", "--simpoints", fix("good.json"), PROG], "good.json")

# ============================================================================================
# 4. outputs: a missing directory, a directory, /dev/full; an existing output kept when the
#    run fails
# ============================================================================================
OUTOPTS = [
    (["run", "--no-report"] + RUNARGS, "--json", [PROG, "10"]),
    (["run", "--no-report"] + RUNARGS, "--csv", [PROG, "10"]),
    (["run"] + RUNARGS, "--report", [PROG, "10"]),
    (["run", "--no-report"] + RUNARGS, "--pipeview", [PROG, "10"]),
    (["run"] + RUNARGS, "--outdir", [PROG, "10"]),
    (["sim", "--no-report"], "--json", [fix("good.cst")]),
    (["stallscope"] + RUNARGS, "--report", [PROG, "10"]),
    (["stallscope"] + RUNARGS, "--json", [PROG, "10"]),
    (["trace", "record", "--max", "1000"], "-o", [PROG, "10"]),
    (["trace", "import-champsim", fix("good.champsim")], "-o", []),
    (["trace", "export-champsim", fix("good.cst")], "-o", []),
    (["rpstacks"] + RUNARGS, "-o", [PROG, "10"]),
    (["rpstacks", "-o", "r.rps"] + RUNARGS, "--json", [PROG, "10"]),
    (["whatif", fix("good.rps"), "--grid", "l2.latency=10,20"], "--csv", []),
    (["whatif", fix("good.rps"), "--grid", "l2.latency=10,20"], "--json", []),
    (["whatif", fix("good.rps"), "--grid", "l2.latency=10,20"], "--report", []),
    (["compare", fix("good.json"), fix("good.json")], "--report", []),
    (["model", "analyze", "--max", "1000"], "-o", [PROG, "10"]),
    (["model", "solve", fix("good.smp")], "--json", []),
    (["model", "solve", fix("good.smp")], "--report", []),
    (["model", "info", fix("good.smp")], "--json", []),
    (["profile", "record"] + RUNARGS, "-o", [PROG, "10"]),
    (["profile", "report", fix("good.prof")], "--json", []),
    (["profile", "report", fix("good.prof")], "--html", []),
    (["profile", "merge", fix("good.prof"), fix("good2.prof")], "-o", []),
    (["simpoint", "--interval", "500", "--max", "5000"], "-o", [PROG, "10"]),
    (["sweep", "--grid", "core.rob_size=64", "--max", "1000"], "-o", [PROG, "10"]),
]
if not FULL:
    OUTOPTS = [o for o in OUTOPTS if o[1] in ("--json", "-o")][:8]
for pre, opt, post in OUTOPTS:
    v = " ".join(pre[:2])
    case("%s %s into a missing directory" % (v, opt), pre + [opt, "nodir/out"] + post, "nodir")
    if opt not in ("--outdir",) and not (pre[0] in ("simpoint", "sweep")):
        case("%s %s onto a directory" % (v, opt), pre + [opt, fix("dir")] + post, "dir")
        # another output of the verb, complete, may be written (the .rps beside --json /dev/full)
        case("%s %s to /dev/full" % (v, opt), pre + [opt, "/dev/full"] + post, "/dev/full", may_write=OUTS)
# an existing output is kept when the run fails: the input is bad, the option is bad
for pre, opt, post in OUTOPTS:
    v = " ".join(pre[:2])
    if opt in ("--outdir",) or pre[0] in ("simpoint", "sweep"):
        continue
    bad = [fix("garbage") if x in (PROG, fix("good.cst"), fix("good.rps"), fix("good.smp"), fix("good.prof"),
                                    fix("good.champsim"), fix("good.json")) else x for x in pre + post]
    case("%s %s kept over a failed run" % (v, opt), bad[:len(pre)] + [opt, "keep.out"] + bad[len(pre):],
         "garbage", ["keep.out"])

# an output that is also the input: never overwritten (the program, the trace)
shutil.copy(PROG, "prog")
shutil.copy(fix("good.cst"), "in.cst")
for argv in (["model", "analyze", "-o", "prog", "--max", "100", "./prog"], ["trace", "record", "-o", "prog", "./prog"],
             ["profile", "record", "-o", "prog", "--max", "100", "./prog"], ["rpstacks", "-o", "prog", "./prog"],
             ["run", "--no-report", "--json", "prog", "./prog"], ["rpstacks", "-o", "in.cst", "in.cst"],
             ["trace", "export-champsim", "in.cst", "-o", "in.cst"], ["model", "analyze", "-o", "in.cst", "in.cst"],
             ["sim", "--no-report", "--csv", "in.cst", "in.cst"], ["trace", "import-champsim", "in.cst", "-o", "in.cst"]):
    if FULL or argv[0] in ("run", "trace"):
        case("%s: the output is the input" % " ".join(argv[:2]), argv, ["prog", "in.cst"])

# a full disk at the end of a good run: the partial output must not stay
case("trace record -o /dev/full", ["trace", "record", "-o", "/dev/full", "--max", "1000", PROG], "/dev/full")

# ============================================================================================
# 5. grid expressions: malformed ranges, huge grids, unknown keys
# ============================================================================================
GRIDS = ["l2.latency=1..", "l2.latency=8..1", "l2.latency=1..8..0", "l2.latency=..", "l2.latency=1..8..",
         "l2.latency=", "l2.latency", "=1", "l2.latency=1,,2", "l2.latency=1,", "l2.latency=a..b",
         "l2.latency=1..100000000", "nosuch.key=1,2",
         "l1d.latency=1..1000 l2.latency=1..1000 memory.latency=1..1000", "l2.latency=-5..5",
         "l2.latency=1..8..-1", "l2.latency=1e309", "l2.latency=1..18446744073709551615"]
if not FULL:
    GRIDS = ["l2.latency=1..", "l2.latency=8..1", "l2.latency=1..8..0", "l2.latency=1..100000000",
             "nosuch.key=1,2", "l1d.latency=1..1000 l2.latency=1..1000 memory.latency=1..1000"]
for g in GRIDS:
    key = [g.split("=")[0] or g, g, "--grid", "grid"]
    case("whatif --grid %r" % g, ["whatif", fix("good.rps"), "--grid", g], key)
    if FULL or "100000000" in g or "1..1000 " in g:
        sg = g.replace("l2.latency", "l2.latency").replace("memory.latency", "memory.latency")
        case("sweep --grid %r" % g, ["sweep", "--grid", sg, "-o", "swo", "--max", "1000", PROG], key)
        case("model solve --grid %r" % g, ["model", "solve", "--grid", sg.replace("l2.latency", "l1d.latency"),
                                           fix("good.smp")], key + [k.replace("l2.", "l1d.") for k in key])
# comma lists past the documented limits (sweep, model solve: 256 values per axis, 1000000 points)
V200, V300 = ",".join(str(i) for i in range(1, 201)), ",".join(str(i) for i in range(1, 301))
case("sweep --grid 8M points", ["sweep", "--grid", "l1d.latency=%s l2.latency=%s memory.latency=%s" % (V200, V200, V200),
                                "-o", "swo", "--max", "1000", PROG], "1000000 points")
case("sweep --grid 300 values", ["sweep", "--grid", "l1d.latency=" + V300, "-o", "swo", PROG], "256 values")
case("model solve --grid 8M points", ["model", "solve", "--config", "inorder1", "--grid",
                                      "l1d.latency=%s l1d.size=%s memory.latency=%s" % (V200, V200, V200),
                                      fix("good.smp")], ["1000000 points", "l1d."])
case("whatif --grid 8M points", ["whatif", fix("good.rps"), "--grid",
                                 "l1d.latency=1..200 l2.latency=1..200 memory.latency=1..200"], "1000000 points")
case("whatif --set unknown event", ["whatif", fix("good.rps"), "--set", "frob.latency=3"], "frob.latency")
case("whatif --set structure", ["whatif", fix("good.rps"), "--set", "core.rob_size=64"], "core.rob_size")
case("whatif --set 0", ["whatif", fix("good.rps"), "--set", "l2.latency=-1"], "l2.latency")
case("sweep --grid empty", ["sweep", "--grid", "", "-o", "swo", PROG], "--grid")

# ============================================================================================
# 5b. an unsupported system call with --strict-syscalls, in every verb that runs a program
# ============================================================================================
BAD_SYSCALL = os.path.join(GUESTS, "bad_syscall") if GUESTS else None
if BAD_SYSCALL and os.path.exists(BAD_SYSCALL):
    for pre in (["exec"], ["run", "--no-report"], ["stacks", "--no-report"], ["stallscope"], ["rpstacks", "-o", "r.rps"],
                ["trace", "record", "-o", "t.cst"], ["profile", "record", "-o", "p.prof"],
                ["model", "analyze", "-o", "m.smp"], ["simpoint", "-o", "spo"],
                ["sweep", "--grid", "core.rob_size=64", "-o", "swo"]):
        # a sweep records the failed point (its error in the point's file)
        case("%s: unsupported system call" % " ".join(pre[:2]), pre + ["--strict-syscalls", BAD_SYSCALL],
             "unsupported system call acct", OUTS, rc=125, may_write=["swo"] if pre[0] == "sweep" else [])

# ============================================================================================
# 6. statmodel: a state space too large is refused with its size
# ============================================================================================
case("model solve: a state space over --max-states", ["model", "solve", "--max-states", "10", fix("good.smp")],
     ["10", "state"])
case("model solve: a huge machine", ["model", "solve", "--config", "inorder1", "--set", "l1d.latency=100000",
                                     fix("good.smp")], ["state", "l1d.latency"])

# ============================================================================================
print("hostile_audit: %d cases, %d failed%s" % (counts["cases"], counts["failed"], "" if FULL else " (fast subset)"))
shutil.rmtree(tmp, ignore_errors=True)
sys.exit(1 if failures else 0)
