#!/bin/bash
cd "$(dirname "$0")"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee $OUT/smi.txt
ncu --version | tee -a $OUT/smi.txt
./probe > $OUT/plain.txt 2>&1; echo "plain rc=$?"; tail -2 $OUT/plain.txt
ncu --query-metrics --chip gh100 > $OUT/metrics.txt 2>&1
grep -c . $OUT/metrics.txt
M='regex:^(l1tex__t_requests_pipe_lsu_mem_(global|local)_op_(ld|st|atom|red)|l1tex__t_sectors_pipe_lsu_mem_(global|local)_op_(ld|st|atom|red)|l1tex__data_pipe_lsu_wavefronts_mem_shared_op_(ld|st|atom)|l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_(ld|st|atom)|smsp__inst_executed_op_(global|local|shared)_(ld|st|atom|red)|smsp__inst_executed_op_ldc|idc__requests|idc__requests_lookup_hit|l1tex__t_set_conflicts_pipe_lsu_mem_global_op_atom|lts__t_requests_srcunit_l1_op_atom)\.sum$'
cuobjdump -sass probe | grep -E "LDL|STL|LDS|STS|LDC|ATOM|RED|LDG|STG|Function" > $OUT/sass.txt
time ncu --metrics "$M" --csv --print-units base -k 'regex:^(shld|shst|glld|glst|cld|lcl|gatom|satom)' ./probe > $OUT/ncu.csv 2> $OUT/ncu.err
echo "ncu rc=$?"; tail -3 $OUT/ncu.err; wc -l $OUT/ncu.csv
grep -E "idc__|ldc" $OUT/ncu.csv | head -5
