#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# On a GPU machine, from the repository's root, with the binaries built
# elsewhere in .device/ and their libraries packed in .device/rt.tar.xz
# (see HACKING.md): what every pattern of hierarchy-patterns.txt and every
# real kernel costs below L1, cold, with CUPTI; then Nsight Compute on a few
# of them, to check that the two agree. Results go to $OUT.
set -u
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
mkdir -p /opt/rt && tar -C /opt/rt -xJf .device/rt.tar.xz
R=/opt/rt/run
P=tools/hw-probe/hierarchy-patterns.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,memory.total --format=csv > "$OUT/smi.txt" 2>&1
ncu --version >> "$OUT/smi.txt" 2>&1
ncu --query-metrics --chip gh100 2>/dev/null | grep -E '^(lts__t_(sectors|requests)|dram__bytes|l1tex__t_sectors_pipe_lsu_mem_(global|local)_op_(ld|st))' > "$OUT/metrics.txt"
time timeout 280 $R .device/ws-hierarchy-probe "$P" > "$OUT/patterns.jsonl" 2> "$OUT/patterns.err"
echo "patterns rc=$? $(wc -l < "$OUT/patterns.jsonl")"
time timeout 200 $R .device/ws-hierarchy-probe --kernels > "$OUT/kernels.jsonl" 2> "$OUT/kernels.err"
echo "kernels rc=$? $(wc -l < "$OUT/kernels.jsonl")"
grep -E '^(seq-ld4-32M|seq-st4-32M|gridstride-ld4-g131072|t8192-readco|t8192-writeco|struct12-3ld-32M|reuse-ld4-48MB|local-st4-nonuniform|scatter-st-7919-128MB) ' "$P" > /tmp/check.txt
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum,dram__bytes_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,gpu__time_duration.sum
time timeout 100 ncu --clock-control none --metrics $M --csv --print-units base -k ws_kernel $R .device/ws-hierarchy-probe --once /tmp/check.txt > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
echo "ncu rc=$?"; tail -3 "$OUT/ncu.err"
