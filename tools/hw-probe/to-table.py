#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Turns probe.json (parse-ncu.py's output) into tests/data/sm90-probe.txt:
# one line per pattern and metric, "space access elem pattern metric value",
# with the kernels' own overheads subtracted (see probe.cu).
import json, sys
out = []
for kind, pat, d in json.load(open(sys.argv[1])):
    g = lambda m: int(d.get(m, 0))
    if kind.startswith(('shld', 'shst')):
        op = 'ld' if kind.startswith('shld') else 'st'
        elem = int(kind[4:])
        w = g('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_' + op + '.sum')
        c = g('l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_' + op + '.sum')
        acc = 'load' if op == 'ld' else 'store'
        out += [('shared', acc, elem, pat, 'wavefronts', w), ('shared', acc, elem, pat, 'ideal', w - c)]
    elif kind.startswith('glld'):
        elem = int(kind[4:])
        # the kernel also loads its offset table: one coalesced request of 4 sectors
        out += [('global', 'load', elem, pat, 'sectors', g('l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum') - 4),
                ('global', 'load', elem, pat, 'requests', g('l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum') - 1)]
    elif kind.startswith('glst'):
        elem = int(kind[4:])
        out += [('global', 'store', elem, pat, 'sectors', g('l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum')),
                ('global', 'store', elem, pat, 'requests', g('l1tex__t_requests_pipe_lsu_mem_global_op_st.sum'))]
    elif kind.startswith('const'):
        # three other LDC instructions of the kernel read one address each
        out += [('constant', 'load', 4, pat, 'requests', g('idc__requests.sum') - 3)]
    elif kind.startswith('local'):
        elem = int(kind[5:])
        out += [('local', 'load', elem, pat, 'sectors', g('l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum')),
                ('local', 'load', elem, pat, 'requests', g('l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum'))]
    elif kind == 'gatom':
        out += [('global', 'atomic', 4, pat, 'sectors', g('l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum'))]
    elif kind == 'satom':
        out += [('shared', 'atomic', 4, pat, 'wavefronts', g('l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum'))]
print('# Hardware counters of table-driven accesses, measured with Nsight Compute 2025.3.1')
print('# on an NVIDIA H100 80GB HBM3 (sm_90, driver 580.159.04) by tools/hw-probe.')
print('# space access elem pattern metric value')
for row in out:
    print(' '.join(str(x) for x in row))
