#!/bin/bash
# bench/random_configs.sh [BUILD [ASAN_BUILD]] — the random-configuration campaign
# (docs/uarch.md "Random configurations"): valid machines of either model drawn from seeds
# by tests/scripts/random_config.py, every invariant checked, each phase printing its pass
# count ("PASS n/m"); a failure is printed with its seed (`random_config.py gen SEED`
# writes the configuration). JOBS (default 2) checks at once; run it niced on a shared machine.
#   A  seeds 1-300 x sort, memcopy: run, trace record + sim, stacks, exact counts; and
#      300 invalid configurations, each refused with one line naming the key
#   B  seeds 1-100 x fft, interp, randaccess: A's checks plus stallscope, rpstacks +
#      whatif --verify and profile record/report --truth
#   C  (with ASAN_BUILD, a -DCYCLESCOPE_SANITIZE=ON build) seeds 1-12 and the configurations
#      of tests/configs/random x sort, polybench_like (first 50 k instructions): B's checks
#      under ASan and UBSan
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
asan=${2:-}
jobs=${JOBS:-2}
check="python3 $here/tests/scripts/random_config.py check --workloads $build/workloads -j $jobs --timeout 900"
status=0
echo "== A: 300 configurations x sort,memcopy (run, trace + sim); 300 invalid"
$check --cs "$build/cyclescope" --seeds 1-300 --invalid 1-300 --work sort,memcopy --no-analyses || status=1
echo "== B: 100 configurations x fft,interp,randaccess, every analysis"
$check --cs "$build/cyclescope" --seeds 1-100 --work fft,interp,randaccess || status=1
if [ -n "$asan" ]; then
    echo "== C: 12 configurations and tests/configs/random x sort,polybench_like, every analysis, ASan+UBSan"
    $check --cs "$asan/cyclescope" --seeds 1-12 --ini "$here"/tests/configs/random/*.ini --work sort,polybench_like \
        --max 50000 || status=1
fi
exit $status
