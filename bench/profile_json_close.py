#!/usr/bin/env python3
r"""Are two `profile report --json` outputs equal within a tolerance? (bench/profile_identity.sh,
when they are not byte for byte: a change of arithmetic, e.g. flow_solve's downdate.) Every
number within REL relative, or both below ABS in magnitude (a count that is 0 up to rounding:
the least squares leaves such counts at 1e-14 one way and 0 the other); a `cpi` absent on one
side (count 0) and 0 on the other counts as such a zero. Anything else (a string, a structure, a
length) must be equal. Prints the largest differences; exits 1 if any is beyond.
    profile_json_close.py OLD.json NEW.json [REL [ABS]]
    profile_json_close.py --text OLD NEW  (text_main)"""
import json
import sys


def main():
    old, new = (json.load(open(f)) for f in sys.argv[1:3])
    rel = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-8
    tiny = float(sys.argv[4]) if len(sys.argv) > 4 else 1e-6
    st = {"numbers": 0, "differ": 0, "rel": (0.0, ""), "tiny": (0.0, ""), "bad": []}

    def walk(x, y, path):
        if isinstance(x, dict) and isinstance(y, dict):
            for k in sorted(set(x) | set(y)):
                if k in ("date", "cyclescope_commit", "command"):
                    continue
                walk(x.get(k), y.get(k), path + "." + k)
        elif isinstance(x, list) and isinstance(y, list):
            if len(x) != len(y):
                st["bad"].append((path, "length", len(x), len(y)))
                return
            for i, (p, q) in enumerate(zip(x, y)):
                walk(p, q, "%s[%d]" % (path, i))
        elif isinstance(x, (int, float)) and isinstance(y, (int, float)) and not isinstance(x, bool):
            st["numbers"] += 1
            if x == y:
                return
            st["differ"] += 1
            m = max(abs(x), abs(y))
            if m < tiny:
                st["tiny"] = max(st["tiny"], (m, path))
                return
            r = abs(x - y) / m
            st["rel"] = max(st["rel"], (r, path))
            if r > rel:
                st["bad"].append((path, x, y))
        elif x != y:
            if path.endswith(".cpi") and (x is None or y is None) and not (x or 0) and not (y or 0):
                return
            st["bad"].append((path, x, y))

    walk(old, new, "")
    print("%d numbers, %d differ; largest relative %.3g (%s); largest differing below %g: %.3g; %d beyond"
          % (st["numbers"], st["differ"], st["rel"][0], st["rel"][1], tiny, st["tiny"][0], len(st["bad"])))
    for b in st["bad"][:5]:
        print("  beyond:", b)
    return 1 if st["bad"] else 0


def last_place(tok):
    """One unit in the last printed place of a number (None: not a number)."""
    try:
        float(tok)
    except ValueError:
        return None
    frac = tok.split(".")[1] if "." in tok and "e" not in tok.lower() else ""
    return 10.0 ** -len(frac)


def text_main():
    """--text OLD NEW: a report's lines, word by word: equal, or numbers one unit apart in their
    last printed place (a value rounded at a boundary), or a CPI "-" against "0.00" (its count 0,
    or 0 up to rounding)."""
    old, new = (open(f).read().splitlines() for f in sys.argv[2:4])
    if len(old) != len(new):
        print("%d lines against %d" % (len(old), len(new)))
        return 1
    differ = bad = 0
    for lo, ln in zip(old, new):
        if lo == ln:
            continue
        differ += 1
        wo, wn = lo.split(), ln.split()
        ok = len(wo) == len(wn)
        for x, y in zip(wo, wn) if ok else ():
            if x == y or {x, y} == {"-", "0.00"}:
                continue
            px, py = last_place(x), last_place(y)
            if px is None or px != py or abs(float(x) - float(y)) > px * 1.000001:
                ok = False
        if not ok:
            bad += 1
            if bad <= 5:
                print("  beyond:\n  < %s\n  > %s" % (lo, ln))
    print("%d lines, %d differ, %d beyond" % (len(old), differ, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(text_main() if sys.argv[1:2] == ["--text"] else main())
