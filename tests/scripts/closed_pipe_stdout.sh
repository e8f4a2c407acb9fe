#!/bin/bash
# closed_pipe_stdout.sh COMMAND [ARGS…]
# Runs COMMAND with its stdout a pipe whose reader is already gone and SIGPIPE's default
# action; passes when it ends by SIGPIPE, as `COMMAND | head` ends once head is gone, with
# nothing on stderr. (cyclescope ignores the host's SIGPIPE while a guest runs, which takes
# its own; its tables then met EPIPE and it said "stdout: write failed", exit 125.)
set -u
python3 - "$@" <<'PY'
import os, subprocess, sys
r, w = os.pipe()
os.close(r)
# restore_signals (the default): SIGPIPE back to its default action in the child
p = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=w, stderr=subprocess.PIPE)
err = p.stderr.decode(errors="replace")
if p.returncode != -13 or err:
    print(f"expected the end by SIGPIPE (-13) and no stderr, got {p.returncode}; stderr:\n{err}")
    sys.exit(1)
print("ended by SIGPIPE, silently")
PY
