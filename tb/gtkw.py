#!/usr/bin/env python3
"""Writes a block's GTKWave save file (tb/<block>.gtkw) for one parameter set:
the ports in groups by timing, then one group per table entry that slices
the block's entry-field read ports (ent_<field>_o, entry i at [i*w +: w]).
The ports, their widths and the entry fields come from the block's port
table, cmodel/blocks/<block>.def (read by scripts/blockports.py).

    python3 tb/gtkw.py wst dws > tb/wst.gtkw
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'scripts'))
import blockports  # noqa: E402

# The groups, in order, and the timings of the ports they hold.
GROUPS = [('clock and reset', ('CLOCK', 'RESET')), ('early inputs', ('EARLY',)), ('operation', ('LATE',)),
          ('outputs', ('COMB', 'REG'))]


def layout(block, params):
    """The port groups [(title, [(port, width)])], the entries and the entry fields [(field, width)]."""
    t = blockports.Table(block)
    env = t.env(params)
    groups = [(title, [(t.rtl_name(p), t.field_width(p, env)) for p in t.ports if p['timing'] in timings])
              for title, timings in GROUPS]
    fields = [(p['field'], t.field_width(p, env)) for p in t.ports if p['timing'] == 'ENTRY']
    return groups, t.n_entries(env), fields


def main():
    block, set_name = sys.argv[1], sys.argv[2]
    params = dict(blockports.param_sets(block)).get(set_name)
    if params is None:
        sys.exit('gtkw.py: no set %s in tb/%s.params' % (set_name, block))
    groups, entries, fields = layout(block, params)
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
            # A bit b of a dumped vector is '(k)TOP.m.port[total-1:0]' with k
            # counted from the MSB (GTKWave 3.3 resolves no 'port[b]' name:
            # the FST holds the whole vector only).
            vec = '%s.%s[%d:0]' % (top, port, total - 1) if total > 1 else '%s.%s' % (top, port)
            if w == 1:
                out += ['@28', '(%d)%s' % (total - 1 - lo, vec) if total > 1 else vec]
                continue
            bits = ' '.join('(%d)%s' % (total - 1 - b, vec) for b in range(lo + w - 1, lo - 1, -1))
            out += ['@22', '#{%s.e%d_%s[%d:0]} %s' % (top, i, name, w - 1, bits)]
        out += ['@1000201' if i else '@1000200', '-' + title]
    print('\n'.join(out))


if __name__ == '__main__':
    main()
