#!/usr/bin/env python3
"""sandbox_syscall_fuzz.py CYCLESCOPE GUEST_DIR SEEDS COUNT [RSS_SLACK_MIB]

Runs tests/guest/sandbox_fuzz.c (random system calls with random arguments)
for SEEDS seeds of COUNT calls each under `cyclescope exec --allow-write
ALLOWED --guest-memory 64M`, from a working directory outside ALLOWED, and
checks the host, not the guest:
  - no host crash: every run exits 0 after all its calls ("fuzz: N calls"),
    or stops with a one-line `cyclescope:` message (a guest fault or a call
    cyclescope refuses to continue after); never a signal of the host, never
    a sanitizer report;
  - nothing written outside ALLOWED: the tree around it (the working
    directory, a canary, links' targets) is byte-for-byte what it was, and no
    new file appeared in it;
  - memory within the limit: the host's peak RSS stays below the guest limit
    plus the host overhead it allows (a quarter of the limit, at least 256
    MiB) plus RSS_SLACK_MIB for the emulator itself (default 200; more under
    sanitizers).
"""
import hashlib
import os
import subprocess
import sys
import tempfile

cs, guest_dir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
seeds, count = int(sys.argv[3]), int(sys.argv[4])
slack = int(sys.argv[5]) if len(sys.argv) > 5 else 200
guest = os.path.join(guest_dir, "sandbox_fuzz")
LIMIT_MIB = 64
rss_bound_mib = LIMIT_MIB + max(LIMIT_MIB // 4, 256) + slack


def snapshot(root, skip):
    """Every path under root (but skip) with its type and content hash."""
    state = {}
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        if os.path.abspath(dirpath).startswith(skip):
            dirnames[:] = []
            continue
        for name in dirnames + filenames:
            p = os.path.join(dirpath, name)
            if os.path.abspath(p).startswith(skip):
                continue
            if os.path.islink(p):
                state[p] = ("link", os.readlink(p))
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    state[p] = ("file", hashlib.sha256(f.read()).hexdigest(), os.stat(p).st_mode)
            else:
                state[p] = ("dir", os.stat(p).st_mode)
    return state


failures = 0
total_calls = 0
peak_mib = 0
with tempfile.TemporaryDirectory() as tmp:
    allowed = os.path.join(tmp, "allowed")
    outside = os.path.join(tmp, "outside")
    logs = os.path.join(tmp, "logs")
    for d in (allowed, outside, logs, os.path.join(allowed, "sub")):
        os.mkdir(d)
    for p, text in ((os.path.join(outside, "canary"), b"canary\n"), (os.path.join(outside, "canary2"), b"two\n"),
                    (os.path.join(allowed, "f"), b"inside\n")):
        with open(p, "wb") as f:
            f.write(text)
    os.symlink("../outside/canary", os.path.join(allowed, "link_out"))
    os.symlink(os.path.join(outside, "created"), os.path.join(allowed, "dangling"))
    os.symlink("../outside", os.path.join(allowed, "outdir"))
    os.symlink("/proc/self/cwd/canary", os.path.join(allowed, "proc_link"))
    before = snapshot(tmp, os.path.abspath(allowed))
    # logs/ is ours: leave it out of the comparison
    before = {k: v for k, v in before.items() if not os.path.abspath(k).startswith(os.path.abspath(logs))}
    for seed in range(1, seeds + 1):
        out_path, err_path = os.path.join(logs, "out"), os.path.join(logs, "err")
        with open(out_path, "wb") as out, open(err_path, "wb") as err, open(os.devnull, "rb") as null:
            proc = subprocess.Popen([cs, "exec", "--allow-write", allowed, "--guest-memory", f"{LIMIT_MIB}M", guest,
                                     str(seed), str(count), allowed, outside], stdin=null, stdout=out, stderr=err,
                                    cwd=outside)
            _, status, usage = os.wait4(proc.pid, 0)
            proc.returncode = os.waitstatus_to_exitcode(status)
        rss_mib = usage.ru_maxrss / 1024
        peak_mib = max(peak_mib, rss_mib)
        with open(err_path, "rb") as f:  # the end of it: a guest may have written much there
            f.seek(max(0, os.path.getsize(err_path) - (1 << 20)))
            err_text = f.read().decode("utf-8", "replace")
        lines = [l for l in err_text.splitlines() if l.startswith("cyclescope:") or l.startswith("fuzz:")]
        rc = proc.returncode
        done = [l for l in lines if l.startswith("fuzz:")]
        stopped = [l for l in lines if l.startswith("cyclescope:") and "warning:" not in l]
        if rc < 0:
            print(f"FAIL seed {seed}: the host died of signal {-rc}")
            failures += 1
        elif "Sanitizer" in err_text or "runtime error" in err_text:
            print(f"FAIL seed {seed}: sanitizer report:\n{err_text[-2000:]}")
            failures += 1
        elif rc == 0 and done:
            total_calls += int(done[-1].split()[1])
        elif rc == 0:
            total_calls += count  # the guest closed its stderr; it returned 0 after the loop
        elif stopped:
            print(f"seed {seed}: the run stopped (exit {rc}): {stopped[-1]}")
        else:
            print(f"FAIL seed {seed}: exit {rc} without a cyclescope message")
            failures += 1
        if rss_mib > rss_bound_mib:
            print(f"FAIL seed {seed}: host peak RSS {rss_mib:.0f} MiB passes the bound {rss_bound_mib} MiB")
            failures += 1
        after = {k: v for k, v in snapshot(tmp, os.path.abspath(allowed)).items()
                 if not os.path.abspath(k).startswith(os.path.abspath(logs))}
        if after != before:
            changed = sorted(set(after.items()) ^ set(before.items()))
            print(f"FAIL seed {seed}: written outside --allow-write: {changed[:5]}")
            failures += 1
            before = after
    # Control: the same fuzzer allowed to write the whole tree must change it, or the
    # check above could not have seen a write outside.
    with open(os.devnull, "rb") as null, open(os.devnull, "wb") as sink:
        for seed in range(1, 4):
            subprocess.run([cs, "exec", "--allow-write", tmp, "--guest-memory", f"{LIMIT_MIB}M", guest, str(seed),
                            str(count), allowed, outside], stdin=null, stdout=sink, stderr=sink, cwd=outside)
    after = {k: v for k, v in snapshot(tmp, os.path.abspath(allowed)).items()
             if not os.path.abspath(k).startswith(os.path.abspath(logs))}
    if after == before:
        print("FAIL: control: allowed to write everywhere, the fuzzer changed nothing outside ALLOWED")
        failures += 1
    else:
        print(f"control: allowed everywhere, the fuzzer changed {len(set(after.items()) ^ set(before.items()))} "
              "entries outside ALLOWED")
print(f"{seeds} seeds, {total_calls} calls completed, host peak RSS {peak_mib:.0f} MiB (bound {rss_bound_mib})")
if total_calls < seeds * count // 2:
    print("FAIL: fewer than half the calls were made: the fuzzer did not exercise the host")
    failures += 1
print("ok" if failures == 0 else f"{failures} failures")
sys.exit(1 if failures else 0)
