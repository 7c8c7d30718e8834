#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The probe behind tests/data/sm90-probe.txt: table-driven loads, stores and
# atomics of every memory space and element size (probe.cu), counted by
# Nsight Compute, which the model must reproduce (tests/test-analysis.c).
#
#   tools/hw-probe/run.sh build   here, with a CUDA toolkit: builds .device/probe
#   tools/hw-probe/run.sh         on the GPU machine, from the repository's root,
#                                 with ncu on the PATH: results in $OUT (default
#                                 /tmp/out), the table last, as sm90-probe.txt
#
# ARCH (default 90) and CHIP (default gh100) name another GPU.
set -eu
here=tools/hw-probe
ARCH=${ARCH:-90}
CHIP=${CHIP:-gh100}
OUT=${OUT:-/tmp/out}
cd "$(dirname "$0")/../.."

if [ "${1:-}" = build ]; then
  nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  mkdir -p .device
  "$nvcc" -O3 -lineinfo -gencode "arch=compute_$ARCH,code=sm_$ARCH" -o .device/probe "$here/probe.cu"
  echo "built .device/probe for sm_$ARCH; run tools/hw-probe/run.sh on the GPU machine"
  exit 0
fi

[ -x .device/probe ] || { echo "run.sh: no .device/probe; build it first with: tools/hw-probe/run.sh build" >&2; exit 2; }
mkdir -p "$OUT"
probe=$PWD/.device/probe
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$OUT/smi.txt"
ncu --version | tee -a "$OUT/smi.txt"
"$probe" > "$OUT/plain.txt" 2>&1 && echo "plain run: ok" || { echo "plain run failed:"; tail -2 "$OUT/plain.txt"; exit 1; }
M='regex:^(l1tex__t_requests_pipe_lsu_mem_(global|local)_op_(ld|st|atom|red)|l1tex__t_sectors_pipe_lsu_mem_(global|local)_op_(ld|st|atom|red)|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st|atom)|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_(ld|st|atom)|smsp__inst_executed_op_(global|local|shared)_(ld|st|atom|red)|smsp__inst_executed_op_ldc|idc__requests|idc__requests_lookup_hit|l1tex__t_set_conflicts_pipe_lsu_mem_global_op_atom|lts__t_requests_srcunit_l1_op_atom)\.sum$'
ncu --query-metrics --chip "$CHIP" > "$OUT/metrics.txt" 2>&1 || true
if command -v cuobjdump > /dev/null; then
  cuobjdump -sass "$probe" | grep -E "LDL|STL|LDS|STS|LDC|ATOM|RED|LDG|STG|Function" > "$OUT/sass.txt" || true
fi
# each launch is named on stdout (LAUNCH kind pattern), then ncu's CSV rows follow
ncu --metrics "$M" --csv --print-units base -k 'regex:^(shld|shst|glld|glst|cld|lcl|gatom|satom)' "$probe" \
  > "$OUT/ncu.csv" 2> "$OUT/ncu.err" || { echo "ncu failed:"; tail -3 "$OUT/ncu.err"; exit 1; }
(cd "$OUT" && python3 "$OLDPWD/$here/parse-ncu.py" && python3 "$OLDPWD/$here/to-table.py" probe.json > sm90-probe.txt)
echo "$OUT/sm90-probe.txt: $(wc -l < "$OUT/sm90-probe.txt") lines; compare with tests/data/sm90-probe.txt"
