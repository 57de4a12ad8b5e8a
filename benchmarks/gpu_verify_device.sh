#!/bin/bash
# The prepared device command for benchmarks/gpu_verify.py (docs/gpu-verify.md).
#
#   bash benchmarks/gpu_verify_device.sh [BUDGET_S [STEPS]]   (in the repo root, on the GPU machine)
#
# BUDGET_S: seconds for all steps (default 420); STEPS: comma-separated step names for a
# second, shorter call (e.g. "check,bare"); preflight always runs.
#
# Uses the image's python3 (it holds torch with CUDA, typer, rich, psutil, nvidia-ml-py,
# matplotlib); wheels carried in .whl/ are installed only when one of those is missing.
# Results go to $OUT/gv (or /tmp/gv-out when OUT is unset), shaped for the device tool's
# return rules (at most 8 files, at most 2 folders deep): gpu_verify.json, summary.txt,
# gpu_verify.log, nvidia-smi.txt and runs.tar.gz (every run directory). gpu_verify.json is
# rewritten after each step, so a run stopped at its limit still brings back what it did.
set -u
budget=${1:-420}
only=${2:+--only=$2}
gv=${OUT:-/tmp/gv-out}/gv
mkdir -p "$gv"
py=${GV_PYTHON:-python3}  # the image's python3 holds torch; GV_PYTHON only for trying this script elsewhere
export PYTHONUNBUFFERED=1
if ! $py -c "import torch, typer, rich, psutil, pynvml" 2>"$gv/missing.txt"; then
  if ls .whl/*.whl >/dev/null 2>&1; then
    $py -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl \
      && export PYTHONPATH=/tmp/site${PYTHONPATH:+:$PYTHONPATH}
  fi
fi
[ -s "$gv/missing.txt" ] || rm -f "$gv/missing.txt"
export PYTHONPATH=$PWD${PYTHONPATH:+:$PYTHONPATH}
{ nvidia-smi; nvidia-smi -q -d PERFORMANCE,CLOCK,ECC,PCIE; } >"$gv/nvidia-smi.txt" 2>&1
timeout -k 15 $((budget + 45)) $py benchmarks/gpu_verify.py "$gv" --budget-s "$budget" $only 2>&1 | tee "$gv/gpu_verify.log"
tar -czf "$gv/runs.tar.gz" -C "$gv" runs 2>/dev/null
if [ "$(stat -c %s "$gv/runs.tar.gz" 2>/dev/null || echo 0)" -gt 15000000 ]; then  # the tool returns files <= 16 MiB
  (cd "$gv" && find runs \( -name '*.json' -o -name '*.md' -o -name '*.out' \) -size -2M -print0 \
    | tar -czf runs.tar.gz --null -T -)
fi
rm -rf "$gv/runs" "$gv/cache"
ls -la "$gv"
