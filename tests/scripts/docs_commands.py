#!/usr/bin/env python3
r"""docs_commands.py CYCLESCOPE SOURCE_DIR WORKLOAD_DIR [--full] [--list] [PAGE…]: every
`cyclescope …` command line in the code blocks of README.md and docs/*.md runs, and prints
what the page shows it printing.

What is a command: a line of a fenced code block that starts with `cyclescope ` (or
`$ cyclescope `), joined with the lines it continues with a trailing backslash (or, but after a
`$` prompt, with the indented lines that follow it, as a synopsis wraps); `;` separates
two commands on one line; `cmd | other` pipes into another program (run through the shell).
A trailing `# …` is a comment. Lines that start with another program (python3, simpoint,
build/bench/…) are not ours and are not run.

Synopses run without their optional parts (`[--max N]`, `[options]`, `[ARGS…]`) and with the
first of their alternatives (`PROG [ARGS…] | TRACE` runs PROG). Not run, on purpose:
  - a synopsis that is still no command then: an ellipsis standing for options
    (`sweep … --emit parallel`), or a placeholder without a rule below (`--compare A B`); their
    option names are checked by docs_flags.py instead.
  - the outside-program marker: a command whose comment says `(needs NAME)` — NAME being a
    program that is not cyclescope (e.g. `| jq .cycles  # … (needs jq)`) — runs only when NAME is
    on PATH, and is reported as skipped otherwise.

Placeholders, replaced by bundled workloads and by files cyclescope itself makes first:
  PROG, PROG ARGS, PROG …     WORKLOAD_DIR/sort and its small argument (workloads/manifest.txt);
                              PROG alone gets the small argument too (its default size is long)
  build/workloads/X,          WORKLOAD_DIR/X (the pages run from the source tree or from build/)
  workloads/X
  TRACE, TRACE.cst, FILE      sort.cst, recorded by `trace record` (so is any NAME.cst used
                              before a command makes it)
  FILE.rps, NAME.rps          made by `rpstacks`; NAME.smp by `model analyze`; NAME.prof by
                              `profile record` (its seed the digit in NAME, if any); NAME.bb
                              is the bbv.bb of `simpoint` (the format valgrind's exp-bbv
                              writes); NAME being a workload's name, its own program, else sort
  DIR (merge, compare)        a two-point sweep; DIR/HASH1.json, DIR/HASH2.json its points
  --simpoints DIR             the points `simpoint` finds in the program (run) or in sort.cst
                              (sim), at 20 K-instruction intervals
The commands of one page run in order in one scratch directory, so a later command reads what
an earlier one wrote (sort.prof, interp.cst), as the reader would.

Sizes (the rule, so the pages keep their real commands): by default (the fast test) a verb
that times a program in detail (run, sim, stacks, stallscope, rpstacks, profile record, sweep),
or whose output is timed in detail afterwards (model analyze: `solve --compare-sim`), gets
`--max 200000` inserted when the command has no --max (nor --simpoints, which times its
own intervals); functional verbs (exec, trace,
simpoint) and reading verbs run as written. With --full nothing is inserted:
each command runs exactly as the page has it (the slow test).

Checked: exit status 0 (or N when the comment says `(exits N)`); where the block shows the
output (`$ cyclescope …` followed by lines without `$`), each word of the shown output — its
headers and keys, letters only, numbers left out since sizes and revisions differ — is in what
the command printed; the files its comment says it writes (`# DIR/sweep.csv, sweep.html`,
`cyclescope-out/PROG-CONFIG-TIME/`: placeholders match anything) exist afterwards; a JSON
member its comment names (`# "stacks" object in the JSON`) is in the JSON it wrote. --list prints the commands as they would run and runs nothing.
"""
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = {a for a in sys.argv[1:] if a.startswith("--")}
if len(args) < 3:
    sys.exit(__doc__)
CS, SRC, WL = os.path.abspath(args[0]), os.path.abspath(args[1]), os.path.abspath(args[2])
PAGES = args[3:]
FULL = "--full" in flags
LIST = "--list" in flags
MAX = "200000"
DETAILED = {"run", "sim", "stacks", "stallscope", "rpstacks", "sweep", ("profile", "record"), ("model", "analyze")}
TIMEOUT = 900 if FULL else 120

small = {}
for line in open(os.path.join(SRC, "workloads", "manifest.txt"), encoding="utf-8"):
    if line.strip() and not line.startswith("#"):
        f = line.split()
        small[f[0]] = f[2]


def extract(path):
    """(line number, command text, comment, shown output lines) for each command of a page."""
    out = []
    lines = open(path, encoding="utf-8").read().splitlines()
    i, inblock = 0, False
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```"):
            inblock = not inblock
            i += 1
            continue
        if not inblock:
            i += 1
            continue
        start = i
        text = line.strip()
        prompt = text.startswith("$ ")
        if prompt:
            text = text[2:]
        if not text.startswith("cyclescope "):
            i += 1
            continue
        while i + 1 < len(lines):
            # a backslash continues; so does an indented line of a synopsis (`[--warmup N] …`)
            nxt = lines[i + 1]
            if text.endswith("\\"):
                text = text[:-1].rstrip()
            elif prompt or not nxt.startswith(" ") or nxt.strip().startswith(("#", "```")):
                break
            i += 1
            text = text + " " + nxt.strip()
        i += 1
        more = []  # the comment goes on in indented comment lines below it
        while i < len(lines) and lines[i].startswith(" ") and lines[i].strip().startswith("#"):
            more.append(lines[i].strip()[1:].strip())
            i += 1
        shown = []
        if prompt:  # the output it shows: up to the next prompt or the end of the block
            while i < len(lines) and not lines[i].strip().startswith(("$ ", "```")):
                shown.append(lines[i])
                i += 1
        code, comment = split_comment(text)
        comment = " ".join([comment] + more)
        for part in code.split(" ; "):
            out.append((start + 1, part.strip(), comment, shown))
    return out


def split_comment(text):
    """The command and its trailing comment (a # outside quotes, after a space)."""
    quote = None
    for k, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and k > 0 and text[k - 1] == " ":
            return text[:k].strip(), text[k + 1:].strip()
    return text.strip(), ""


KNOWN = {"PROG", "ARGS", "TRACE", "TRACE.cst", "FILE", "FILE.rps", "FILE.bb", "DIR", "IN", "IN.cst"}


def runnable(code):
    """The command to run for a code line: a synopsis without its optional parts and with the
    first of its alternatives (`PROG [ARGS…] | TRACE` is `PROG`), or None when what is left
    still is no command (an ellipsis for options, a placeholder without a rule)."""
    while True:
        shorter = re.sub(r"\s*\[[^\[\]']*\]", "", code)
        if shorter == code:
            break
        code = shorter
    code = re.sub(r"\s*\|\s*[A-Z][\w.]*(?=\s|$)", "", code)
    words = re.sub(r"'[^']*'|\"[^\"]*\"", "''", code).split()
    for k, w in enumerate(words):
        if w in ("…", "...") and (k == 0 or words[k - 1] not in ("PROG", "ARGS")):
            return None
        if re.fullmatch(r"[A-Z][A-Z0-9_]*(\.\w+)?", w) and w not in KNOWN:
            return None
    return code


class Page:
    def __init__(self, name, scratch):
        self.name, self.dir = name, scratch
        self.failures, self.ran, self.skipped = [], 0, []

    def fixture(self, path, why):
        """Make the input file a command names when no earlier command of the page made it."""
        full = os.path.join(self.dir, path)
        if LIST or os.path.exists(full):
            return
        stem, ext = os.path.splitext(os.path.basename(path))
        wl = stem if stem in small else "sort"
        prog = [os.path.join(WL, wl), small[wl]]
        if ext == ".cst":
            cmd = ["trace", "record", "--max", MAX, "-o", path] + prog
        elif ext == ".champsim":
            self.fixture("sort.cst", why)
            cmd = ["trace", "export-champsim", "sort.cst", "-o", path]
        elif ext == ".rps":
            cmd = ["rpstacks", "--max", MAX, "-o", path] + prog
        elif ext == ".smp":
            cmd = ["model", "analyze", "--max", MAX, "-o", path] + prog
        elif ext == ".prof":
            seed = re.sub(r"\D", "", stem) or "1"
            cmd = ["profile", "record", "--config", "inorder1", "--period", "1000", "--sample-seed", seed,
                   "--max", MAX, "-o", path] + prog
        elif ext == ".bb":
            cmd = ["simpoint", "--interval", "100K", "-o", path + ".d"] + prog
        elif path in ("DIR.run", "DIR.sim"):
            if path == "DIR.sim":
                self.fixture("sort.cst", why)
            cmd = ["simpoint", "--interval", "20K", "-o", path] + (["sort.cst"] if path == "DIR.sim" else prog)
        elif ext == "" and path == "DIR":
            cmd = ["sweep", "--grid", "core.rob_size=64,128", "--max", "50000", "-o", path] + prog
        else:
            self.failures.append(f"{why}: no rule makes {path}")
            return
        r = subprocess.run([CS] + cmd, cwd=self.dir, capture_output=True, text=True, stdin=subprocess.DEVNULL,
                           timeout=TIMEOUT)
        if ext == ".bb" and r.returncode == 0:
            shutil.copy(os.path.join(self.dir, path + ".d", "bbv.bb"), full)
        if r.returncode != 0:
            self.failures.append(f"{why}: making {path} (cyclescope {' '.join(cmd)}) exited {r.returncode}: "
                                 f"{r.stderr.strip()[-300:]}")

    def substitute(self, words, where):
        """The page's words with placeholders replaced; fixtures made as needed."""
        out = []
        k = 0
        while k < len(words):
            w = words[k]
            nxt = words[k + 1] if k + 1 < len(words) else None
            if w == "PROG":
                out += [os.path.join(WL, "sort"), small["sort"]]
                if nxt in ("ARGS", "…", "..."):
                    k += 1
            elif re.fullmatch(r"(build/)?workloads/\w+", w):
                out.append(os.path.join(WL, w.split("/")[-1]))
            elif w == "IN":
                self.fixture("sort.champsim", where)
                out.append("sort.champsim")
            elif w in ("TRACE", "TRACE.cst", "FILE", "IN.cst"):
                self.fixture("sort.cst", where)
                out.append("sort.cst")
            elif re.fullmatch(r"DIR/HASH(\d)\.json", w):
                self.fixture("DIR", where)
                d = os.path.join(self.dir, "DIR")
                points = sorted(f for f in os.listdir(d) if re.fullmatch(r"[0-9a-f]+\.json", f)) \
                    if os.path.isdir(d) else []
                n = int(w[8]) - 1
                out.append(os.path.join("DIR", points[n]) if n < len(points) else w)
            elif w == "DIR" and k > 0 and words[k - 1] == "--simpoints":
                # the points of this program or trace (the page's DIR may be --bb's, untimeable)
                sp = "DIR.sim" if words[1] == "sim" else "DIR.run"
                self.fixture(sp, where)
                out.append(sp)
            elif w == "DIR" and not made_by(words, k):
                self.fixture("DIR", where)
                out.append(w)
            elif re.fullmatch(r"[\w.-]+\.(rps|smp|prof|cst|bb)", w) and not made_by(words, k):
                self.fixture(w, where)
                out.append(w)
            else:
                out.append(w)
            k += 1
        return out


def made_by(words, k):
    """Is words[k] the output this command writes (after -o), rather than an input?"""
    return k > 0 and words[k - 1] in ("-o", "--output")


def verb_of(words):
    if len(words) > 2 and words[1] in ("trace", "profile", "model", "config"):
        return (words[1], words[2])
    return words[1] if len(words) > 1 else None


def insert_max(words):
    v = verb_of(words)
    if FULL or v not in DETAILED or "--max" in words or "--simpoints" in words or "help" in words:
        return words
    at = 3 if isinstance(v, tuple) else 2
    return words[:at] + ["--max", MAX] + words[at:]


def shown_words(shown):
    """The words of a block's shown output a run must print: letters only."""
    want = []
    for line in shown:
        for w in re.findall(r"[A-Za-z][A-Za-z()]*[A-Za-z)]", line):
            if w not in want:
                want.append(w)
    return want


def comment_files(comment, words):
    """The files a command's comment says it writes, as globs in the scratch directory: names
    with an extension (`sp/bbv.simpoints`), placeholders (PROG, CONFIG, TIME) as *; a bare name
    after `DIR/x` is in DIR too (`DIR/sweep.csv, sweep.html`). A word that is also one of the
    command's own inputs (`sort.smp` in `(or a .cst trace)`) is not one."""
    files, folder = [], ""
    for f in re.findall(r"(?<![\w./-])((?:[\w.-]+/)*[\w-]+\.(?:json|csv|html|ini|simpoints|weights|txt|sbatch|log|rps|prof|smp|cst))\b", comment):
        if f in words:
            continue
        if "/" in f:
            folder = f.rsplit("/", 1)[0] + "/"
        elif folder:
            f = folder + f
        files.append(re.sub(r"\b(PROG|CONFIG|TIME)\b", "*", f))
    for d in re.findall(r"(cyclescope-out/[\w-]+/)(?![\w.])", comment):
        files.append(re.sub(r"\b(PROG|CONFIG|TIME)\b", "*", d))
    return files


def json_of(words, stdout, scratch):
    """The JSON a command wrote with --json (a file, or stdout with -)."""
    if "--json" not in words:
        return None
    target = words[words.index("--json") + 1]
    try:
        if target == "-":
            return json.loads(stdout)
        with open(os.path.join(scratch, target), encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def run_page(path):
    rel = os.path.relpath(path, SRC)
    cmds = extract(path)
    if not cmds:
        return None
    scratch = tempfile.mkdtemp(prefix="docs-commands-")
    page = Page(rel, scratch)
    try:
        for lineno, code, comment, shown in cmds:
            where = f"{rel}:{lineno}"
            code = runnable(code)
            if code is None:
                page.skipped.append(f"{where}: a synopsis (see the docstring)")
                continue
            needs = re.search(r"\(needs ([\w.+-]+)\)", comment)
            if needs and shutil.which(needs.group(1)) is None:
                page.skipped.append(f"{where}: needs {needs.group(1)}, not on PATH")
                continue
            status = re.search(r"\(exits (\d+)\)", comment)
            status = int(status.group(1)) if status else 0
            pipeline = code.split(" | ", 1)
            words = insert_max(page.substitute(shlex.split(pipeline[0]), where))
            argv = [CS] + words[1:]
            if len(pipeline) > 1:
                shell = " ".join(shlex.quote(a) for a in argv) + " | " + pipeline[1]
                cmd, use_shell = shell, True
            else:
                cmd, use_shell = argv, False
            shown_cmd = shell if use_shell else " ".join(shlex.quote(a) for a in argv)
            if LIST:
                print(f"{where}: {shown_cmd}")
                continue
            try:
                r = subprocess.run(cmd, shell=use_shell, cwd=scratch, capture_output=True, text=True,
                                   stdin=subprocess.DEVNULL, timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                page.failures.append(f"{where}: `{code}` did not end in {TIMEOUT} s ({shown_cmd})")
                continue
            page.ran += 1
            if use_shell and r.returncode == 0 and not r.stdout.strip():
                page.failures.append(f"{where}: `{code}`: the pipeline printed nothing")
            if r.returncode != status:
                page.failures.append(f"{where}: `{code}` exited {r.returncode}, not {status} ({shown_cmd}): "
                                     f"{r.stderr.strip()[-400:]}")
                continue
            missing = [w for w in shown_words(shown) if w not in r.stdout + r.stderr]
            if missing:
                page.failures.append(f"{where}: `{code}`: the output the page shows has "
                                     f"{', '.join(missing)}; the command did not print it")
            for f in comment_files(comment, words):
                if not glob.glob(os.path.join(scratch, f)):
                    page.failures.append(f"{where}: `{code}`: the comment says it writes {f}; it did not")
            for key in re.findall(r'"(\w+)" object', comment):
                doc = json_of(words, r.stdout, scratch)
                if not isinstance(doc, dict) or key not in doc:
                    page.failures.append(f"{where}: `{code}`: the comment names the JSON's \"{key}\"; "
                                         "the JSON has none")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return page


def main():
    pages = [os.path.join(SRC, "README.md")] + sorted(
        os.path.join(SRC, "docs", f) for f in os.listdir(os.path.join(SRC, "docs")) if f.endswith(".md"))
    if PAGES:
        pages = [p for p in pages if os.path.basename(p) in PAGES or os.path.relpath(p, SRC) in PAGES]
    failures, ran, skipped = [], 0, []
    for path in pages:
        page = run_page(path)
        if page is None:
            continue
        failures += page.failures
        ran += page.ran
        skipped += page.skipped
    if LIST:
        return 0
    for s in skipped:
        print(f"skipped {s}")
    for f in failures:
        print(f"FAIL {f}")
    print(f"{ran} documented commands run ({'as written' if FULL else 'detailed timing capped at --max ' + MAX}), "
          f"{len(skipped)} skipped, {len(failures)} failures")
    if ran == 0:
        print("FAIL no command found in the pages (their format changed?)")
        return 1
    return 1 if failures else 0


sys.exit(main())
