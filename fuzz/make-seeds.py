#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes the seed corpora in corpus/ from the presets and the bundled
recording: python3 fuzz/make-seeds.py BUILD_DIR (a build with warpscope-cli).
The seeds are in the repository; run this again when the presets change."""
import json, os, subprocess, sys, hashlib

here = os.path.dirname(os.path.abspath(__file__))
cli = os.path.join(sys.argv[1], 'app', 'warpscope-cli')


def write(kind, text):
    d = os.path.join(here, 'corpus', kind)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(text.encode()).hexdigest()[:16]
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


out = subprocess.run([cli, 'model', '--list-presets'], capture_output=True, text=True, check=True).stdout
ids = sorted({w for line in out.splitlines() for w in line.split()[:1] if '/' in w})
for pid in ids:
    m = json.loads(subprocess.run([cli, 'model', '--preset', pid, '--json'], capture_output=True, text=True,
                                  check=True).stdout)
    p = m['pattern']
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
