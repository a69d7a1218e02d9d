#!/usr/bin/env python3
"""Writes a block's GTKWave save file (tb/<block>.gtkw) for one parameter set:
the ports in groups by timing, then one group per table entry that slices
the block's entry-field read ports (ent_<field>_o, entry i at [i*w +: w]).
The ports, their widths and the entry fields come from the block's port
table, cmodel/blocks/<block>.def (read by scripts/blockports.py); a port or
field with BLOCK_ENCODING rows shows its values by name, through a GTKWave
translate file tb/filters/<block>_<name>.txt (--filters writes them).

    python3 tb/gtkw.py wst dws > tb/wst.gtkw
    python3 tb/gtkw.py --filters wst        # tb/filters/wst_*.txt

The save file opens at time 0; a testbench's run writes its own view of a
run (tb/common/tb_main.cpp: the busiest window of its logged operations, or the
clocks before a failure) from it.
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


def filter_path(block, name):
    return 'tb/filters/%s_%s.txt' % (block, name)


def filter_text(block, name, width, values):
    """A translate file: each value as GTKWave shows it in hex, and its name."""
    digits = max(1, (width + 3) // 4)
    out = ['# %s %s: the encoding of cmodel/blocks/%s.def; written by tb/gtkw.py --filters %s'
           % (block, name, block, block)]
    prefix = os.path.commonprefix([c for _, c in values]) if len(values) > 1 else ''
    prefix = prefix[:prefix.rfind('_') + 1]
    for value, constant in values:
        for form in sorted({'%x' % value, '%0*x' % (digits, value)}):
            out.append('%s %s' % (form, constant[len(prefix):]))
    return '\n'.join(out) + '\n'


def write_filters(block):
    t = blockports.Table(block)
    params = blockports.param_sets(block)[0][1]
    env = t.env(params)
    for p in t.ports:
        name = p.get('field', p['name'])
        if name in t.encodings and (p['timing'] == 'ENTRY') == ('field' in p):
            path = os.path.join(HERE, '..', filter_path(block, name))
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(filter_text(block, name, t.field_width(p, env), t.encodings[name]))


def main():
    if sys.argv[1] == '--filters':
        write_filters(sys.argv[2])
        return
    if sys.argv[1] == '--print-filter':  # what tb/filters/BLOCK_NAME.txt should hold
        block, name = os.path.basename(sys.argv[2])[:-4].split('_', 1)
        t = blockports.Table(block)
        env = t.env(blockports.param_sets(block)[0][1])
        port = next(p for p in t.ports if p.get('field', p['name']) == name)
        sys.stdout.write(filter_text(block, name, t.field_width(port, env), t.encodings[name]))
        return
    block, set_name = sys.argv[1], sys.argv[2]
    params = dict(blockports.param_sets(block)).get(set_name)
    if params is None:
        sys.exit('gtkw.py: no set %s in tb/%s.params' % (set_name, block))
    groups, entries, fields = layout(block, params)
    encodings = blockports.Table(block).encodings
    filters = {}  # name -> translate filter number
    top = 'TOP.ws_%s' % block
    out = ['[*] GTKWave layout of ws_%s, parameter set %s; written by tb/gtkw.py %s %s'
           % (block, set_name, block, set_name),
           '[*] open with: make wave BLOCK=%s SET=%s' % (block, set_name), '[timestart] 0', '[size] 1400 900',
           '[sst_width] 240', '[signals_width] 260', '[sst_expanded] 1']

    def translated(name):
        """The flags and filter line of a value named through its encoding (or hex)."""
        if name not in encodings:
            return ['@22']
        filters.setdefault(name, len(filters) + 1)
        return ['@2022', '^%d %s' % (filters[name], filter_path(block, name))]

    def sig(name, w):
        base = name[:-2] if name.endswith(('_i', '_o')) else name
        out.extend(['@28'] if w == 1 else translated(base))
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
            # GTKWave names bit b of a vector v[total-1:0] in a save file as
            # (total-1-b)v[total-1:0] (counted from the MSB); v[b] alone is not found
            whole = '%s.%s[%d:0]' % (top, port, total - 1)
            if w == 1:
                out += ['@28', '(%d)%s' % (total - 1 - lo, whole) if total > 1 else '%s.%s' % (top, port)]
                continue
            bits = ' '.join('(%d)%s' % (total - 1 - b, whole) for b in range(lo + w - 1, lo - 1, -1))
            out += translated(name) + ['#{%s.e%d_%s[%d:0]} %s' % (top, i, name, w - 1, bits)]
        out += ['@1000201' if i else '@1000200', '-' + title]
    print('\n'.join(out))


if __name__ == '__main__':
    main()
