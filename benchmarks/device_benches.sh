#!/bin/bash
# The CPU benchmarks whose targets the shared 2-core VM's noise leaves unresolved, run on a quiet
# host: the GPU machine's 16 idle cores (gloo on CPU, exactly as on the VM; only the host differs).
#
#   bash benchmarks/device_benches.sh [OUTFILE]     (repo root; OUTFILE default $OUT/benches.log)
#
# Each benchmark has its own deadline, so one that runs long costs only itself. Figures go to
# docs/benchmarks.md with the host they came from.
set -u
log=${1:-${OUT:-/tmp}/benches.log}
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
py=${GV_PYTHON:-python3}
step() {  # step SECONDS LABEL CMD...
  local t=$1 label=$2; shift 2
  echo "===== $label: $* (deadline ${t}s, $(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg))"
  local s=$SECONDS
  timeout -k 10 "$t" "$@" 2>&1 | tail -40
  echo "===== $label: exit ${PIPESTATUS[0]} after $((SECONDS - s)) s"
}
{
  echo "host: $(nproc) CPUs, $(free -g | awk '/Mem:/{print $2}') GiB, $($py -c 'import torch; print(torch.__version__)')"
  step 150 live $py benchmarks/bench_live.py --skip-verdict --pairs 8
  step 110 check $py benchmarks/bench_check.py --repeats 6
  step 80 monitor $py benchmarks/bench_monitor.py --rounds 10
  step 90 diagnose-j2 $py benchmarks/bench_diagnose.py --jobs 2
  step 40 diagnose-j1 $py benchmarks/bench_diagnose.py --jobs 1
} >"$log" 2>&1
tail -c 6000 "$log"
