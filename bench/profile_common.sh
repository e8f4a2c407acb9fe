# bench/profile_common.sh — sourced by bench/profile_grade.sh and bench/profile_imiss.sh:
# their options, their working directory and the writing of a table into docs/profile.md.
# Run from the build directory (needs ./cyclescope and workloads/).

# profile_bench_options USAGE [--quick allowed: 0|1] ARGS…: sets quick (0/1) and doc ("").
# A bad option prints USAGE and exits 2.
profile_bench_options() {
    local usage=$1 allow_quick=$2
    shift 2
    quick=0 doc=""
    while [ $# -gt 0 ]; do
        case $1 in
        --quick) [ "$allow_quick" = 1 ] || { echo "usage: $usage" >&2; exit 2; }; quick=1 ;;
        --doc) [ $# -ge 2 ] || { echo "usage: $usage" >&2; exit 2; }; doc=$2; shift ;;
        *) echo "usage: $usage" >&2; exit 2 ;;
        esac
        shift
    done
    cs=./cyclescope
    [ -x "$cs" ] && [ -d workloads ] || { echo "$0: run from the build directory (./cyclescope, workloads/)" >&2; exit 2; }
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
}

# profile_bench_write_doc DOC TABLE NAME: TABLE's contents between <!-- NAME begin --> and
# <!-- NAME end --> in DOC.
profile_bench_write_doc() {
    python3 - "$1" "$2" "$3" <<'PY'
import sys
doc, table, name = sys.argv[1], open(sys.argv[2]).read(), sys.argv[3]
text = open(doc).read()
b, e = f'<!-- {name} begin -->', f'<!-- {name} end -->'
i, j = text.index(b) + len(b), text.index(e)
open(doc, 'w').write(text[:i] + '\n' + table + text[j:])
PY
}
