#!/usr/bin/env python3
"""docs_flags.py CYCLESCOPE SOURCE_DIR [PROG]: the options the documentation names are the options
the verbs take, and the options the verbs take are in their --help.

  1. README's verb table: every option in a verb's row is in the --help of a verb the row
     names (a row may name two, as `rpstacks` and `whatif`, or `run --analysis profile:…`).
  2. README's "Options shared by …" paragraphs: every option there in the --help of every
     verb it is shared by.
  3. The command lines of docs/*.md (`cyclescope VERB …` in code blocks, and in backquotes in
     the prose and tables of the docs and README): every option in the --help of VERB.
  4. Every long option a verb's source accepts (cli/cmd_VERB.c) is in its --help, but for
     the few that are not for people (listed below, with why).
  5. A verb without subcommands lists each option once in its --help (a second line for
     one option told two different things).
  6. Given PROG (a RISC-V program): every key each analysis takes is in `run --analysis help`.
  7. The subcommands README's table lists are in their verb's --help and taken by it.
Runs each verb's --help once: well under a second.
"""
import glob
import os
import re
import subprocess
import sys

cs, src = sys.argv[1], sys.argv[2]
VERBS = ("exec disasm run sim config trace stacks stallscope simpoint profile sweep compare merge "
         "model rpstacks whatif").split()
# Accepted, deliberately not in --help: the state a guest's execve hands to the next process,
# and long spellings of -o.
NOT_FOR_PEOPLE = {("exec", "exec-state"), ("profile", "output"), ("trace", "output"), ("trace", "help")}
OPTION = re.compile(r"(?<![\w.-])(--[a-z][a-z0-9-]*|-[oj])(?![\w-])")

failures = []
helps = {}


def help_of(verb):
    if verb not in helps:
        r = subprocess.run([cs, verb, "--help"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if r.returncode != 0:
            failures.append(f"`cyclescope {verb} --help` exited {r.returncode}")
        helps[verb] = r.stdout
    return helps[verb]


def in_help(option, verb):
    return re.search(r"(?<![\w-])" + re.escape(option) + r"(?![\w-])", help_of(verb)) is not None


readme = open(os.path.join(src, "README.md"), encoding="utf-8").read()

# 1. the verb table: rows start with | `cyclescope VERB; cells split at | not escaped as \|
rows = [line for line in readme.splitlines() if line.startswith("| `cyclescope ")]
if len(rows) < len(VERBS) - 2:
    failures.append(f"README: only {len(rows)} rows in the verb table (its format changed?)")
for row in rows:
    verbs = set(re.findall(r"`(?:cyclescope )?(" + "|".join(VERBS) + r")\b", row))
    for option in sorted(set(OPTION.findall(row))):
        if not any(in_help(option, v) for v in verbs):
            failures.append(f"README table, row of {sorted(verbs)}: {option} is in no --help of them")

# 2. the shared options paragraphs
shared = [("Options shared by the timing verbs", "Timing models:", ["run", "sim", "stacks"]),
          ("Options shared by the verbs that run a program", "What the sandbox promises",
           ["exec", "run", "stacks", "stallscope", "trace", "simpoint", "sweep", "model", "rpstacks", "profile"])]
for start, end, verbs in shared:
    if start not in readme or end not in readme:
        failures.append(f"README: no paragraph '{start}' … '{end}'")
        continue
    text = readme[readme.index(start):readme.index(end)]
    options = sorted(set(OPTION.findall(text)))
    if len(options) < 5:
        failures.append(f"README: '{start}' names only {options}")
    for verb in verbs:
        for option in options:
            if not in_help(option, verb):
                failures.append(f"README '{start}': {option} is not in `cyclescope {verb} --help`")

# 3. the command lines of the method pages
checked = 0
for path in sorted(glob.glob(os.path.join(src, "docs", "*.md"))):
    in_code = False
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.lstrip().startswith("```"):
            in_code = not in_code
        elif in_code:
            command = line
            while command.rstrip().endswith("\\") and i + 1 < len(lines):  # continued lines
                i += 1
                command = command.rstrip()[:-1] + " " + lines[i]
            for part in re.split(r";|\s\|\s|&&", command):
                words = part.split("#")[0].split()
                if words[:1] == ["$"]:
                    words = words[1:]
                if len(words) < 2 or os.path.basename(words[0]) != "cyclescope" or words[1] not in VERBS:
                    continue
                checked += 1
                for option in sorted(set(OPTION.findall(" ".join(words[2:])))):
                    if not in_help(option, words[1]):
                        failures.append(f"{os.path.relpath(path, src)}:{i + 1}: `cyclescope {words[1]}` "
                                        f"takes no {option} by its --help")
        i += 1
if checked < 30:
    failures.append(f"docs: only {checked} command lines found (their format changed?)")

# 3b. commands in the prose and tables: `cyclescope VERB …`, or `VERB --…` / `VERB SUBVERB …`
SUBVERBS = r" (record|report|annotate|imiss|merge|analyze|solve|info|dump|import-champsim|export-champsim|show|list)\b"
spans = 0
for path in sorted(glob.glob(os.path.join(src, "docs", "*.md"))) + [os.path.join(src, "README.md")]:
    text = open(path, encoding="utf-8").read()
    for m in re.finditer(r"`((cyclescope )?([a-z]+)((?: [^`]*)?))`", text):
        verb, rest = m.group(3), m.group(4)
        if verb not in VERBS or not (m.group(2) or rest.startswith(" --") or re.match(SUBVERBS, rest)):
            continue
        spans += 1
        for option in sorted(set(OPTION.findall(rest))):
            if option != "--help" and (verb, option[2:]) not in NOT_FOR_PEOPLE and not in_help(option, verb):
                line = text[:m.start()].count("\n") + 1
                failures.append(f"{os.path.relpath(path, src)}:{line}: `{m.group(1)}`: {option} is not in "
                                f"`cyclescope {verb} --help`")
if spans < 100:
    failures.append(f"docs: only {spans} commands in backquotes found (their format changed?)")

# 4. options accepted in the source but not in --help
for path in sorted(glob.glob(os.path.join(src, "cli", "cmd_*.c"))):
    verb = re.match(r"cmd_(\w+)\.c", os.path.basename(path)).group(1)
    if verb not in VERBS:
        continue
    code = open(path, encoding="utf-8").read()
    for name in sorted(set(re.findall(r'\{"([a-z][a-z0-9-]*)",\s*(?:no|required|optional)_argument', code))):
        if (verb, name) not in NOT_FOR_PEOPLE and not in_help("--" + name, verb):
            failures.append(f"cli/cmd_{verb}.c accepts --{name}: not in `cyclescope {verb} --help`")

# 5. an option listed twice in one verb's options
for verb in ("exec disasm run sim stacks stallscope simpoint sweep compare merge rpstacks whatif").split():
    # the option and its value word: `--emit parallel` and `--emit slurm` are two entries
    listed = re.findall(r"^  (--[a-z][a-z0-9-]*(?: \S+)?)", help_of(verb), re.M)
    for entry in sorted({e for e in listed if listed.count(e) > 1}):
        failures.append(f"`cyclescope {verb} --help` lists {entry} {listed.count(entry)} times")

# 7. the subcommands README's table lists (`cyclescope trace record\|info\|…`) are in the verb's
# --help and taken: without their arguments they ask for them, not "unknown subcommand"
subs_seen = 0
for row in rows:
    m = re.match(r"\| `cyclescope ([a-z]+) ([a-z-]+(?:\\\|[a-z-]+)+)", row)
    if not m:
        continue
    verb = m.group(1)
    for sub in m.group(2).split("\\|"):
        subs_seen += 1
        if not re.search(r"(?<![\w-])" + re.escape(sub) + r"(?![\w-])", help_of(verb)):
            failures.append(f"README table: `{verb} {sub}` is not in `cyclescope {verb} --help`")
        r = subprocess.run([cs, verb, sub], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if re.search(r"unknown sub|: not analyze", r.stderr):
            failures.append(f"README table: `cyclescope {verb} {sub}`: {r.stderr.strip()}")
if subs_seen < 10:
    failures.append(f"README table: only {subs_seen} subcommands found (its format changed?)")

# 6. every key an analysis takes (its error for an unknown one lists them) is in `--analysis help`
if len(sys.argv) > 3:
    listing = subprocess.run([cs, "run", "--analysis", "help"], capture_output=True, text=True).stdout
    names = re.findall(r"^  ([a-z]+) ", listing, re.M)
    if len(names) < 4:
        failures.append(f"`run --analysis help` lists only {names}")
    for name in names:
        r = subprocess.run([cs, "run", "--no-report", "--max", "1", "--analysis", name + ":no-such-key=1",
                            sys.argv[3]], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        m = re.search(r"\(" + name + r" takes ([^)]*)\)", r.stderr)
        if r.returncode == 0 or not m:
            failures.append(f"--analysis {name}:no-such-key=1: exit {r.returncode}, no list of keys: {r.stderr!r}")
            continue
        line = next((l for l in listing.splitlines() if l.startswith("  " + name + " ")), "")
        for key in re.findall(r"([a-z][a-z-]*)", m.group(1)):
            if not re.search(r"(?<![\w-])" + re.escape(key) + "=", line):
                failures.append(f"analysis {name} takes {key}=, not in `cyclescope run --analysis help`")

for f in failures:
    print("FAIL:", f)
print(f"{len(rows)} README rows ({subs_seen} subcommands), {checked} docs command lines, {spans} commands in backquotes, "
      f"{len(helps)} --help texts; "
      f"{len(failures)} failures")
sys.exit(1 if failures else 0)
