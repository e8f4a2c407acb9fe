#!/bin/bash
# bad_input.sh CYCLESCOPE WORKLOAD_DIR
# Inputs and surroundings damaged on purpose (the hbad hunt): each case must end with
# one line on stderr naming what is wrong, a non-zero exit, and no output lost.
set -u
cs=$(realpath "$1") w=$(realpath "$2") corpus=$(dirname "$(realpath "$0")")/../corpus
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
exec 3>&2
fail() { echo "FAIL: $*" >&3; exit 1; }

# expect STATUS REGEX CMD…: exit STATUS ("nonzero": any failure), one stderr line matching REGEX
expect() {
    local want=$1 regex=$2
    shift 2
    "$@" 2>err
    local rc=$?
    if [ "$want" = nonzero ]; then [ $rc -ne 0 ] || fail "$*: exited 0"
    else [ $rc = "$want" ] || fail "$*: exit $rc, expected $want: $(cat err)"; fi
    [ "$(wc -l <err)" = 1 ] || fail "$*: $(wc -l <err) lines on stderr: $(cat err)"
    grep -Eq -- "$regex" err || fail "$*: stderr does not match /$regex/: $(cat err)"
}

# --- stdout full or closed: the tables are lost, so no exit 0 ----------------------------
expect 125 '^cyclescope: stdout: write failed' "$cs" run --no-report --max 1000 "$w/dep_add" >/dev/full
expect 125 '^cyclescope: stdout: write failed' "$cs" config show ooo4 >/dev/full
expect 125 '^cyclescope: stdout: write failed' "$cs" run --no-report --max 1000 "$w/dep_add" >&-
# a closed stdout's descriptor must not become an output's: the guest's lines (dep_add
# prints two at its end) went into the trace or the pipeview log (before: `trace info`
# found 85 bytes after the index, and the log had the guest's lines)
"$cs" trace record -o closed.cst "$w/dep_add" 10 >&- 2>/dev/null
"$cs" trace info closed.cst >/dev/null || fail "stdout closed: the trace recorded is damaged"
"$cs" run --no-report --pipeview closed.pv --pipeview-count 3 "$w/dep_add" 10 >&- 2>/dev/null
[ "$(grep -c -v '^O3PipeView:' closed.pv)" = 0 ] || fail "stdout closed: the guest's output is in the pipeview log"
# nor a closed stderr's: an error line would land in the output
"$cs" trace record -o closed2.cst "$w/dep_add" 10 >/dev/null 2>&-
"$cs" trace info closed2.cst >/dev/null || fail "stderr closed: the trace recorded is damaged"

# closed, `--json -` fails before the run (as it did before main held the descriptor)
expect 125 '^cyclescope: stdout: Bad file descriptor' "$cs" run --no-report --json - --max 1000 "$w/dep_add" >&-

# --- two outputs naming one file: the last written replaced the other, exit 0 ----------------
expect 2 'o.json: given as two outputs' "$cs" run --no-report --json o.json --csv ./o.json --max 1000 "$w/dep_add"
expect 2 'p.prof: given as two outputs' "$cs" profile record -o p.prof --truth p.prof --max 1000 "$w/dep_add"
expect 2 'pv: given as two outputs' "$cs" run --pipeview pv --report pv --max 1000 "$w/dep_add"
# one analysis given twice with different files wrote only the last; --pipeview likewise
expect 2 "analysis profile: file given twice \('a.prof' and 'b.prof'\)" \
    "$cs" run --no-report --analysis profile:file=a.prof,profile:file=b.prof --max 1000 "$w/dep_add"
expect 2 '--pipeview x.pv and pipeview:file=y.pv: one log' \
    "$cs" run --no-report --pipeview x.pv --analysis pipeview:file=y.pv --max 1000 "$w/dep_add"
[ ! -e o.json ] && [ ! -e p.prof ] && [ ! -e a.prof ] && [ ! -e b.prof ] && [ ! -e x.pv ] || fail "a refused run wrote an output"

# --- sweep: -o a file failed every point (exit 125, two lines) instead of bad usage; a Slurm
# resource that is no number sbatch takes went into the script, exit 0
touch plain
expect 2 'plain: cannot write into it: Not a directory' "$cs" sweep --grid core.rob_size=64 -o plain --max 1000 "$w/dep_add"
for bad in 'time -1' 'mem x' 'mem 2GB' 'cpus 0' 'cpus 4x'; do
    set -- $bad
    expect 2 "^cyclescope sweep: --slurm-$1 $2: not a " \
        "$cs" sweep --grid core.rob_size=64 --emit slurm --slurm-$1 "$2" -o sw --max 1000 "$w/dep_add"
done
"$cs" sweep --grid core.rob_size=64 --emit slurm --slurm-time 1-12:00:00 --slurm-mem 2G --slurm-cpus 4 -o sw \
    --max 1000 "$w/dep_add" >/dev/null 2>&1 || fail "sweep: good Slurm resources refused"
grep -q -- '--time=1-12:00:00' sw/sweep.sbatch && grep -q -- '--mem=2G' sw/sweep.sbatch || fail "sweep.sbatch lacks the resources"

# --- whatif --grid: values read as other numbers, an empty grid, a key given twice, all exit 0
# before (4294967297 predicted as 1, '..' as 0, '' the baseline, the second l1d.latency dropped)
"$cs" rpstacks -o r.rps --max 2000 "$w/dep_add" >/dev/null 2>&1 || fail "rpstacks"
for grid in 'l1d.latency=4294967297' 'l1d.latency=..' 'l1d.latency=+3' 'l1d.latency=..3' '' ' ' \
    'l1d.latency=1 l1d.latency=2'; do
    expect 2 '^cyclescope: --grid' "$cs" whatif r.rps --grid "$grid"
done

# --- a value with a newline keeps the error on one line (it was two)
expect 2 'core.rob_size = 6\\n4: expected an integer' "$cs" run --no-report --set $'core.rob_size=6\n4' "$w/dep_add"
expect 2 'unknown verb .a\\nb.' "$cs" $'a\nb'
expect 2 'slurm-partition a\\nb' "$cs" sweep --grid core.rob_size=64 --emit slurm --slurm-partition $'a\nb' -o sw2 "$w/dep_add"
expect 2 'set: l1d.latency = 1\\n2' "$cs" whatif r.rps --set $'l1d.latency=1\n2'

# --- a huge sparse file: read whole, it took the machine's memory or hours (now refused at
# once, naming it); a configuration of binary data: a file of zeros passed as every default
truncate -s 1T huge.rps || fail "truncate"
expect 125 'huge.rps: 1099511627776 bytes, more than half this machine' timeout 20 "$cs" whatif huge.rps --set l1d.latency=3
expect 125 'huge.rps: 1099511627776 bytes' timeout 20 "$cs" exec huge.rps
ln -s huge.rps huge.ini
expect 2 'huge.ini: not a configuration file \(binary data' timeout 20 "$cs" config show huge.ini
head -c 1000 /dev/zero >zeros.ini
expect 2 'zeros.ini: not a configuration file \(binary data' "$cs" run --config zeros.ini "$w/dep_add"
# an empty configuration, or one of comments and section headers only, ran every default under
# its own name (exit 0): a file cut to nothing gave another machine's numbers
: >empty.ini
expect 2 'empty.ini: no settings \(an empty configuration' "$cs" run --config empty.ini "$w/dep_add"
printf '# nothing yet\n[core]\n\n' >comments.ini
expect 2 'comments.ini: no settings' "$cs" config show comments.ini

# --- --allow-write naming no directory is bad usage, before anything runs (it was 125 at the
# guest's start)
expect 2 '--allow-write /nonexistent/dir: No such file or directory' "$cs" exec --allow-write /nonexistent/dir "$w/dep_add" 10
expect 2 '--allow-write plain: not a directory' "$cs" run --no-report --allow-write plain "$w/dep_add" 10

# --- a sweep's damaged point file is run again (it was read, so protected as an input, and
# its new result refused: "the output is also an input", exit 125, on every resume)
"$cs" sweep --grid core.rob_size=64,128 --max 2000 -j 1 -o swd "$w/dep_add" >/dev/null 2>&1 || fail "sweep"
point=$(ls swd/*.json | head -1)
head -c 100 "$point" >cut && mv cut "$point"
"$cs" sweep --grid core.rob_size=64,128 --max 2000 -j 1 -o swd "$w/dep_add" >/dev/null 2>err || fail "sweep resumed over a damaged point: $(cat err)"
python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["status"] == "ok"' "$point" || fail "the damaged point was not run again"

# --- --max 0 of a timing verb timed the whole program (0 is the runner's "no limit")
expect 2 '^cyclescope run: --max 0: not a positive count' "$cs" run --no-report --max 0 "$w/dep_add" 10
expect 2 '^cyclescope profile record: --max 0: not a positive count' "$cs" profile record -o z.prof --max 0 "$w/dep_add" 10

# --- compare: an edited result whose counts are no counts or disagree with its CPI and IPC
# (cycles 0 or 1e308 were compared as measured, exit 0)
"$cs" run --no-report --json r1.json --max 2000 "$w/dep_add" >/dev/null 2>&1 || fail "run"
for edit in 'd["cycles"] = 0' 'd["cycles"] = 1e308' 'd["instructions"] = 0' 'd["cycles"] = 1.5'; do
    python3 -c "import json; d = json.load(open('r1.json')); $edit; json.dump(d, open('r2.json', 'w'))"
    expect 125 'r2.json: inconsistent: ' "$cs" compare r1.json r2.json
done
"$cs" compare r1.json r1.json >/dev/null || fail "compare of a run with itself"

# --- stallscope --compare A followed by an option took the option as B (then "a trace takes
# no arguments (1000)" about the program)
expect 2 'compare needs two configurations, A and B \(got --max after ooo4\)' \
    "$cs" stallscope --compare ooo4 --max 1000 "$w/dep_add"

# --- sweep --emit with a line break in the directory: the #SBATCH --output line was cut in
# two (the rest a command for bash), jobs.txt's command in two lines
expect 2 'emit slurm: nl\\nd holds a line break' "$cs" sweep --grid core.rob_size=64 --emit slurm -o $'nl\nd' "$w/dep_add"
expect 2 'emit parallel: nl\\nd holds a line break' "$cs" sweep --grid core.rob_size=64 --emit parallel -o $'nl\nd' "$w/dep_add"

# --- profile merge of one truth file given twice summed its run twice (exit 0; a profile's
# seed catches it, a truth has none)
"$cs" profile record --period 100 -o one.prof --truth one.truth --max 5000 "$w/dep_add" >/dev/null 2>&1 || fail "profile record"
expect 2 'one.truth and ./one.truth are one file' "$cs" profile merge one.truth ./one.truth -o two.truth
[ ! -e two.truth ] || fail "profile merge wrote a truth of one run counted twice"

# --- trace dump --from past the end read the closed reader's count (use after free, ASan)
"$cs" trace record -o small.cst "$w/dep_add" 10 >/dev/null 2>&1 || fail "trace record"
expect 125 'small.cst: --from 99999999999: the trace has [0-9]+ µops' "$cs" trace dump --from 99999999999 small.cst

# --- a configuration line past the INI reader's 200-byte buffer: its tail was read as a line
# of its own, so a comment ending in "rob_size = 32" set it (here the ROB check caught it)
printf '[core]\n#%s rob_size = 100\n' "$(printf 'x%.0s' $(seq 1 197))" >long.ini
expect 2 'long.ini:2: a line longer than 198 bytes' "$cs" config show long.ini

# --- whatif --verify of an .rps whose program was replaced since: the other program was
# simulated and its cycles set against the first one's predictions (exit 0)
cp "$w/dep_add" prog
"$cs" rpstacks -o p.rps --max 3000 ./prog 10 >/dev/null 2>&1 || fail "rpstacks"
"$cs" whatif p.rps --set l2.latency=20 --verify 1 >/dev/null 2>err || fail "whatif --verify of an unchanged program: $(cat err)"
cp "$w/fft" prog
expect 125 'prog: the baseline now takes [0-9]+ cycles, the .rps recorded [0-9]+' "$cs" whatif p.rps --set l2.latency=20 --verify 1

# --- --warmup N --max 18446744073709551615: warm-up + max wrapped to N - 1, one instruction timed
n=$("$cs" run --no-report --json - --warmup 1000 --max 18446744073709551615 "$w/dep_add" 10 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["instructions"])')
[ "$n" -gt 1000 ] || fail "--warmup 1000 --max 2^64-1 timed $n instructions"

# --- a file of another format where a trace is expected --------------------------------
# 2048 bytes of text are 32 "ChampSim records": stallscope timed them (exit 0) as sim refuses
yes 'not a trace, just some text' | head -c 2048 >text.bin
expect 125 'text.bin: neither a RISC-V program \(ELF\) nor a trace' "$cs" stallscope text.bin
expect 125 'text.bin: not a trace: the format is not recognised' "$cs" sim --no-report text.bin
# a cloudsuite ChampSim trace is read as one (stallscope read it as 64-byte records), its
# cycles those sim gives
cloud=$corpus/champsim/cloudsuite.champsim
sim_cycles=$("$cs" sim --no-report --json - "$cloud" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"])')
ss_cycles=$("$cs" stallscope --json - "$cloud" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["cycles"])')
[ -n "$sim_cycles" ] && [ "$sim_cycles" = "$ss_cycles" ] || fail "cloudsuite trace: sim $sim_cycles cycles, stallscope $ss_cycles"

echo ok
