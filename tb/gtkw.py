#!/usr/bin/env python3
"""Writes a block's GTKWave save file (tb/<block>.gtkw) for one parameter set:
the ports in groups, then one group per table entry that slices the block's
flattened read ports (ent_<field>_o, entry i at [i*w +: w]).

    python3 tb/gtkw.py wst dws > tb/wst.gtkw

The port groups and the entry fields of each block are listed below."""
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def clog2(n):
    return max(1, math.ceil(math.log2(n))) if n > 1 else 1


def wst(p):
    E, W, K = p['ENTRIES'], p['WIDTH'], p['WARPS']
    idx, warp, nfree = clog2(E), clog2(K), math.ceil(math.log2(E + 1))
    groups = [
        ('clock and reset', [('clk_i', 1), ('rst_ni', 1)]),
        ('early inputs', [('idx_i', idx), ('elig_i', E), ('mpc_i', p['PC_W'])]),
        ('operation', [('op_i', 1), ('free_i', 1), ('set_i', 1), ('warp_i', warp), ('pc_i', p['PC_W']),
                       ('mask_i', W), ('st_i', 2), ('issue_i', 1), ('resume_i', 1), ('miss_i', 1),
                       ('lat_i', 32), ('merge_i', 1), ('spawn_i', 1), ('pc_b_i', p['PC_W']),
                       ('mask_b_i', W), ('st_b_i', 2)]),
        ('outputs', [('nfree_o', nfree), ('free_idx_o', idx), ('free2_idx_o', idx), ('merge_vec_o', E),
                     ('merge_mask_o', W), ('lag_vec_o', E), ('latspec_o', 1), ('sum_rmfc_o', p['MFC_W'])]),
    ]
    fields = [('valid', 1), ('st', 2), ('warp', warp), ('pc', p['PC_W']), ('mask', W), ('icnt', p['CNT_W']),
              ('mfc', p['MFC_W']), ('rmfc', p['MFC_W']), ('lat', p['MFC_W'])]
    return groups, E, fields


BLOCKS = {'wst': wst}


def main():
    block, set_name = sys.argv[1], sys.argv[2]
    params = None
    for line in open(os.path.join(HERE, block + '.params')):
        f = line.split()
        if f and f[0] == set_name:
            params = {k: int(v) for k, v in (kv.split('=') for kv in f[1:])}
    if params is None:
        sys.exit('gtkw.py: no set %s in tb/%s.params' % (set_name, block))
    groups, entries, fields = BLOCKS[block](params)
    top = 'TOP.ws_%s' % block
    out = ['[*] GTKWave layout of ws_%s, parameter set %s; written by tb/gtkw.py %s %s'
           % (block, set_name, block, set_name),
           '[*] open with: make wave BLOCK=%s SET=%s' % (block, set_name), '[timestart] 0', '[size] 1400 900',
           '[sst_width] 240', '[signals_width] 260', '[sst_expanded] 1']

    def sig(name, w):
        out.append('@28' if w == 1 else '@22')
        out.append('%s.%s' % (top, name) if w == 1 else '%s.%s[%d:0]' % (top, name, w - 1))

    for title, sigs in groups:
        out += ['@800200', '-' + title]
        for name, w in sigs:
            sig(name, w)
        out += ['@1000200', '-' + title]
    for i in range(entries):
        title = 'entry %d' % i
        out += ['@800201' if i else '@800200', '-' + title]
        for name, w in fields:
            port = 'ent_%s_o' % name
            total = entries * w
            lo = i * w
            if w == 1:
                out += ['@28', '%s.%s[%d]' % (top, port, lo) if total > 1 else '%s.%s' % (top, port)]
                continue
            bits = ' '.join('%s.%s[%d]' % (top, port, b) for b in range(lo + w - 1, lo - 1, -1))
            out += ['@22', '#{%s.e%d_%s[%d:0]} %s' % (top, i, name, w - 1, bits)]
        out += ['@1000201' if i else '@1000200', '-' + title]
    print('\n'.join(out))


if __name__ == '__main__':
    main()
