#!/usr/bin/env python3
"""Area reports from Yosys statistics (run by `make synth`, tb/flow.mk).

    area.py --out DIR BLOCK SET=STATFILE ...

For every block and parameter set: the cells by type, the flip-flops and the
area (um^2 in the NanGate FreePDK45 cells of synth/cells45.lib, NAND2
equivalents, um^2 at 65 nm) in DIR/<block>-<set>.md; the summary table and
the overhead of each block relative to its WPU (synth/wpu_area.def, the
model and its sources) in DIR/summary.md.
"""
import argparse
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_def(path):
    vals, rows = {}, []
    for line in open(path):
        line = line.split('#', 1)[0].strip() if not line.startswith('row ') else line.strip()
        if not line:
            continue
        if line.startswith('row '):
            f = line.split(None, 9)
            rows.append(dict(block=f[1], set=f[2], preset=f[3], width=int(f[4]), warps=int(f[5]),
                             dcache_kb=int(f[6]), icache_kb=int(f[7]),
                             claim=None if f[8] == '-' else float(f[8]), source=f[9]))
        else:
            k, v = [s.strip() for s in line.split('=', 1)]
            vals[k] = float(v)
    return vals, rows


def read_stat(path):
    cells, area = {}, None
    for line in open(path):
        m = re.match(r'\s+(\w+_X\d+)\s+(\d+)\s*$', line)
        if m:
            cells[m.group(1)] = int(m.group(2))
        m = re.search(r'Chip area for module .*: ([0-9.]+)', line)
        if m:
            area = float(m.group(1))
    if area is None:
        sys.exit('area.py: no "Chip area" in %s' % path)
    return cells, area


def params_of(block, set_name):
    for line in open(os.path.join(HERE, '..', 'tb', block + '.params')):
        f = line.split()
        if f and f[0] == set_name:
            return dict(kv.split('=') for kv in f[1:])
    return {}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--out', required=True)
    ap.add_argument('pairs', nargs='+', help='BLOCK SET=STATFILE')
    a = ap.parse_args()
    k, rows = read_def(os.path.join(HERE, 'wpu_area.def'))
    ge45, ge65 = k['nand2_um2_45'], k['nand2_um2_65']
    ctx_mm2 = (k['core32_16warps_mm2'] - k['core32_2warps_mm2']) / (14 * 32)
    lane_mm2 = (k['core32_2warps_mm2'] - 2 * 32 * ctx_mm2) / 32

    it = iter(a.pairs)
    results = []
    for block in it:
        set_name, stat = next(it).split('=', 1)
        cells, area = read_stat(stat)
        ff = sum(n for c, n in cells.items() if c.startswith('DFF'))
        results.append(dict(block=block, set=set_name, cells=cells, area45=area, ff=ff,
                            ge=area / ge45, params=params_of(block, set_name)))

    for r in results:
        p = ' '.join('%s=%s' % kv for kv in r['params'].items())
        with open(os.path.join(a.out, '%s-%s.md' % (r['block'], r['set'])), 'w') as f:
            f.write('# %s, set %s (%s)\n\n' % (r['block'], r['set'], p))
            f.write('Yosys 0.23 `synth`, mapped with ABC onto synth/cells45.lib (NanGate FreePDK45 X1 cells).\n\n')
            f.write('| cell | count | um^2 (45 nm) |\n|---|---:|---:|\n')
            lib = open(os.path.join(HERE, 'cells45.lib')).read()
            for c in sorted(r['cells']):
                m = re.search(r'cell \(%s\)\s*\{\s*area : ([0-9.]+)' % c, lib)
                ca = float(m.group(1)) if m else 0.0
                f.write('| %s | %d | %.1f |\n' % (c, r['cells'][c], ca * r['cells'][c]))
            f.write('\nflip-flops: %d; cells: %d\n\n' % (r['ff'], sum(r['cells'].values())))
            f.write('area: %.0f um^2 at 45 nm = %.0f NAND2 equivalents = %.0f um^2 at 65 nm\n'
                    % (r['area45'], r['ge'], r['ge'] * ge65))

    with open(os.path.join(a.out, 'summary.md'), 'w') as f:
        f.write('## Area by block and parameter set\n\n')
        f.write('| block | set | parameters | flip-flops | cells | NAND2 eq. | um^2 45 nm | um^2 65 nm |\n')
        f.write('|---|---|---|---:|---:|---:|---:|---:|\n')
        for r in results:
            p = ' '.join('%s=%s' % kv for kv in r['params'].items())
            f.write('| %s | %s | %s | %d | %d | %.0f | %.0f | %.0f |\n'
                    % (r['block'], r['set'], p, r['ff'], sum(r['cells'].values()), r['ge'], r['area45'],
                       r['ge'] * ge65))
        f.write('\n## Overhead relative to the WPU\n\n')
        f.write('WPU model (45 nm, from 002 Table 2): %.4f mm^2 per thread context, %.4f mm^2 per lane '
                '(lanes, front end, L1s); 65 nm = 45 nm x %.3f. Storage: the block\'s flip-flops against the '
                'WPU\'s cache and register bits (%d registers x 32 bits per thread).\n\n'
                % (ctx_mm2, lane_mm2, k['scale_65_over_45'], k['regs_per_thread']))
        f.write('| block | set | WPU | block mm^2 (45 nm) | WPU mm^2 (45 nm) | area overhead 45 nm | '
                'area overhead 65 nm | storage bits: block / WPU | paper\'s claim |\n')
        f.write('|---|---|---|---:|---:|---:|---:|---:|---|\n')
        byset = {(r['block'], r['set']): r for r in results}
        for row in rows:
            r = byset.get((row['block'], row['set']))
            if not r:
                continue
            wpu45 = row['width'] * lane_mm2 + row['width'] * row['warps'] * ctx_mm2
            blk45 = r['area45'] / 1e6
            blk65 = r['ge'] * ge65 / 1e6
            wpu65 = wpu45 * k['scale_65_over_45']
            wpu_bits = (row['dcache_kb'] + row['icache_kb']) * 8192 + \
                row['width'] * row['warps'] * k['regs_per_thread'] * 32
            # (3 significant digits: a block of a few flip-flops does not show as 0.00%)
            claim = row['claim']
            f.write('| %s | %s | %s (%d x %d, %d KB D + %d KB I) | %.4f | %.2f | %.3g%% | %.3g%% | '
                    '%d / %d = %.3g%% | %s (%s) |\n'
                    % (row['block'], row['set'], row['preset'], row['warps'], row['width'], row['dcache_kb'],
                       row['icache_kb'], blk45, wpu45, 100 * blk45 / wpu45, 100 * blk65 / wpu65, r['ff'],
                       wpu_bits, 100.0 * r['ff'] / wpu_bits,
                       'none' if claim is None else 'no storage' if claim == 0 else '< %g%%' % claim,
                       row['source']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
