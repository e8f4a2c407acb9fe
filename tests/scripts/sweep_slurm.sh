#!/bin/bash
# sweep_slurm.sh CYCLESCOPE WORKDIR PROG ARG
# A sweep's `--emit slurm` array script run by a real single-node Slurm: this
# script starts munged, slurmctld and slurmd itself (private state and ports
# under WORKDIR, the sockets under a short directory in /tmp), submits the
# array with sbatch --wait, and checks that every point's result equals the
# local pool's. Reports "skipped" (exit 77) with the reason when the daemons
# cannot start here (not installed, not root, no munge key…); always stops
# what it started.
set -uo pipefail
cs=$1 work=$2 prog=$3 arg=$4
skip() { echo "skipped: $*"; exit 77; }
for b in munged slurmctld slurmd sbatch sinfo; do
    command -v "$b" >/dev/null || skip "$b is not installed (scripts/install-deps.sh installs slurmctld slurmd slurm-client munge)"
done
[ "$(id -u)" = 0 ] || skip "slurmd must run as root to start jobs (running as $(id -un))"
rm -rf "$work" && mkdir -p "$work"/{state,log} || exit 1
cd "$work" || exit 1
# The Unix sockets (munged's, and slurmd's in its spool directory, one per job step) live under a
# short directory of their own: a socket's path is at most 108 bytes, which a build tree deep
# enough passes (munged refused to start and the test skipped).
sockets=$(mktemp -d /tmp/cs-slurm.XXXXXX) || exit 1
mkdir -p "$sockets/spool" || exit 1
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
    for p in "${pids[@]}"; do
        for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$p" 2>/dev/null || break; sleep 0.2; done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$sockets"
}
trap cleanup EXIT

# munge with a key of our own
head -c 1024 /dev/urandom >munge.key && chmod 400 munge.key
munged --socket="$sockets/munge.sock" --pid-file="$work/munged.pid" --seed-file="$work/munge.seed" \
    --log-file="$work/log/munged.log" --key-file="$work/munge.key" --force >/dev/null 2>&1 ||
    skip "munged does not start: $(tail -1 log/munged.log 2>/dev/null)"
pids+=("$(cat munged.pid)")

host=$(hostname -s)
# two consecutive ports free now, asked of the kernel (a port from our pid could be taken by
# another container sharing the network); python3 is installed with python3-jsonschema
port=$(python3 -c '
import socket
for _ in range(500):
    a = socket.socket()
    a.bind(("", 0))
    p = a.getsockname()[1]
    b = socket.socket()
    try:
        b.bind(("", p + 1))
    except OSError:
        a.close()
        continue
    print(p)
    break
') || port=
[ -n "$port" ] || skip "no two consecutive free ports"
cat >slurm.conf <<CONF
ClusterName=cyclescope-test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$sockets/munge.sock
StateSaveLocation=$work/state
SlurmdSpoolDir=$sockets/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SlurmUser=root
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$work/slurm.conf
slurmctld >/dev/null 2>&1 || skip "slurmctld does not start: $(tail -1 log/slurmctld.log 2>/dev/null)"
for _ in $(seq 50); do [ -s slurmctld.pid ] && break; sleep 0.1; done
[ -s slurmctld.pid ] && pids+=("$(cat slurmctld.pid)")
slurmd >/dev/null 2>&1 || skip "slurmd does not start: $(tail -1 log/slurmd.log 2>/dev/null)"
for _ in $(seq 50); do [ -s slurmd.pid ] && break; sleep 0.1; done
[ -s slurmd.pid ] && pids+=("$(cat slurmd.pid)")
up=
for _ in $(seq 100); do
    if sinfo -h -o %t 2>/dev/null | grep -q idle; then up=1; break; fi
    sleep 0.1
done
[ -n "$up" ] || skip "the node does not come up: $(sinfo -h 2>&1 | head -1) $(tail -1 log/slurmd.log 2>/dev/null)"

# the same sweep here and on Slurm
grid='core.rob_size=48,96 l1d.size=16K,32K'
"$cs" sweep --grid "$grid" --max 300K -j 2 -o local "$prog" "$arg" >local.out || { echo "local sweep failed"; exit 1; }
"$cs" sweep --grid "$grid" --max 300K --emit slurm --slurm-time 10 --slurm-mem 500M -o onslurm "$prog" "$arg" \
    >emit.out || { echo "emit failed"; exit 1; }
grep -q '^#SBATCH --array=0-3$' onslurm/sweep.sbatch || { echo "bad array line:"; cat onslurm/sweep.sbatch; exit 1; }
timeout 300 sbatch --wait --partition=test onslurm/sweep.sbatch >sbatch.out 2>&1 ||
    { echo "sbatch failed:"; cat sbatch.out onslurm/slurm-*.out 2>/dev/null | tail -20; exit 1; }
[ "$(ls onslurm/*.json 2>/dev/null | wc -l)" = 4 ] || { echo "Slurm left $(ls onslurm/*.json 2>/dev/null | wc -l) point files"; exit 1; }
"$cs" merge local >/dev/null && "$cs" merge onslurm >/dev/null || { echo "merge failed"; exit 1; }
col=$(head -1 local/sweep.csv | tr ',' '\n' | grep -n '^seconds$' | cut -d: -f1)
diff <(cut -d, -f"$col" --complement local/sweep.csv) <(cut -d, -f"$col" --complement onslurm/sweep.csv) ||
    { echo "Slurm's results differ from the local pool's"; exit 1; }
echo "ok: a 4-task Slurm array (single node, daemons started here) = the local pool"
