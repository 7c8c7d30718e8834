#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seed corpora in corpus/ from the presets and the bundled
recording: python3 fuzz/make-seeds.py BUILD_DIR (a build with warpscope-cli).
The seeds are in the repository; run this again when the presets change."""
import json, os, subprocess, sys, hashlib

here = os.path.dirname(os.path.abspath(__file__))
cli = os.path.join(sys.argv[1], 'app', 'warpscope-cli')


import shutil
for kind in ('expr', 'pattern', 'recording', 'worker-request', 'worker-answer'):
    shutil.rmtree(os.path.join(here, 'corpus', kind), ignore_errors=True)


def write(kind, text):
    d = os.path.join(here, 'corpus', kind)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(text.encode()).hexdigest()[:16]
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


out = subprocess.run([cli, 'model', '--list-presets'], capture_output=True, text=True, check=True).stdout
ids = sorted({w for line in out.splitlines() for w in line.split()[:1] if '/' in w})
patterns = []
for pid in ids:
    m = json.loads(subprocess.run([cli, 'model', '--preset', pid, '--json'], capture_output=True, text=True,
                                  check=True).stdout)
    p = m['pattern']
    patterns.append(p)
    threads = p['block'][0] * p['block'][1] * p['block'][2]
    grid = list(p['grid'])
    # the pattern harness analyses at most 4096 threads
    while threads * grid[0] * grid[1] * grid[2] > 4096:
        i = max(range(3), key=lambda k: grid[k])
        grid[i] = max(1, grid[i] // 2)
    lines = ['block %d,%d,%d' % tuple(p['block']), 'grid %d,%d,%d' % tuple(grid)]
    for q in p['params']:
        lines.append('set %s=%d' % (q['name'], q['value']))
        write('expr', q['name'])
    for d in p['definitions']:
        lines.append('def %s=%s' % (d['name'], d['expr']))
        write('expr', d['expr'])
    if p['guard']:
        lines.append('guard ' + p['guard'])
        write('expr', p['guard'])
    for a in p['accesses']:
        lines.append('access %s %s %s %d %d %s' % (a['array'], a['space'], a['access'], a['elem_size'], a['base'],
                                                   a['index']))
        write('expr', a['index'])
    write('pattern', '\n'.join(lines) + '\n')

for e in ['(long long) (i < 3) << 40', '-9223372036854775807 - 1', 'min(lane, 3) + abs(-warp)',
          'c ? a : b ? d : e', '0x7fffffffffffffff / -1', '1 << 63', '!~-x % 7 ^ y | z && w || v']:
    write('expr', e)

with open(os.path.join(here, '..', 'data', 'recordings', 'h100.json')) as f:
    rec = json.load(f)
for n in (1, 3):
    small = dict(rec)
    small['measurements'] = [dict(m, samples_ms=m['samples_ms'][:3]) for m in rec['measurements'][:n]]
    small['measurements'][0]['counters'] = {'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 4194304,
                                            'lts__t_sector_hit_rate.pct': 12.5}
    for m in small['measurements']:
        s = sorted(m['samples_ms'])
        m['min_ms'], m['median_ms'], m['max_ms'] = s[0], s[len(s) // 2], s[-1]
    write('recording', json.dumps(small, indent=1))

# the worker's requests and answers, one JSON object a line
line = lambda o: json.dumps(o, separators=(',', ':'))
for i, p in enumerate(patterns[:12]):
    write('worker-request', '\n'.join([
        line({'id': 1, 'op': 'probe'}),
        line({'id': 2, 'op': 'measure', 'pattern': p, 'options': {'samples': 10, 'warmup': 1, 'cold': True}}),
        line({'id': 3, 'op': 'count', 'pattern': p, 'cold': True, 'hold': False}),
        line({'id': 2, 'op': 'cancel'})]) + '\n')
write('worker-request', '\n'.join([
    line({'id': 1, 'op': 'measure', 'kernel': 'coalescing/sequential', 'params': {'N': 1048576},
          'options': {'samples': 10, 'counters': True}}),
    line({'id': 2, 'op': 'fault'}), line({'id': 3, 'op': 'nothing'})]) + '\n')
device = {'device': rec['device']}
for m in rec['measurements'][:4]:
    write('worker-answer', '\n'.join([
        line({'id': 1, 'progress': [3, 10]}),
        line({'id': 2, 'reply': device}),
        line({'id': 1, 'reply': dict(m, samples_ms=m['samples_ms'][:3])})]) + '\n')
write('worker-answer', '\n'.join([
    line({'id': 1, 'reply': device}),
    line({'id': 1, 'error': {'domain': 'ws-gpu-error-quark', 'code': 8, 'message': 'the kernel faulted'},
          'fatal': True}),
    line({'id': 1, 'error': {'domain': 'g-io-error-quark', 'code': 19, 'message': 'cancelled'}, 'fatal': False})])
      + '\n')
# a calibration, as the worker's "calibrate" answers
write('worker-answer', line({'id': 1, 'reply': {'name': 'NVIDIA H200', 'values': [
    {'field': 'sms', 'value': 132, 'how': 'queried: multiProcessorCount'},
    {'field': 'l2_bytes', 'value': 62914560, 'how': 'queried: l2CacheSize'},
    {'field': 'dram_read_bytes_per_s', 'value': 4.6e12, 'how': 'measured: streaming loads'},
    {'field': 'launch_us', 'value': 3.2, 'how': 'measured: an empty kernel'}]}}) + '\n')
