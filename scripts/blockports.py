#!/usr/bin/env python3
"""A block's port table (cmodel/blocks/<block>.def) for the tools outside C:
the doc page's port table, the check against the RTL, the GTKWave layout
(tb/gtkw.py imports this module).

    blockports.py doc BLOCK [--check]
        rewrite the port table of docs/blocks/BLOCK.md (between its marker
        comments) from the table; --check: exit 1 if it is out of date
    blockports.py check-rtl BLOCK [--sv FILE] [--set NAME ...]
        for every parameter set of tb/BLOCK.params (or the named ones), have
        Yosys elaborate FILE (default rtl/ws_BLOCK.sv) with the set's
        parameters and list module ws_BLOCK's ports; compare names,
        directions, widths and order with the table evaluated for the set.
        Exit 0 when they agree, 1 naming every difference
    blockports.py ports BLOCK SET
        the RTL ports the table gives for one set: name, direction, width

The table's rows (see the head of cmodel/blocks/wst.def):
BLOCK_PARAM(NAME, member, doc), BLOCK_DERIVED(NAME, expr), BLOCK_ENTRIES(expr),
BLOCK_PORT(name, dir, timing, ctype, width, digits, doc) and
BLOCK_FIELD(field, ctype, width, doc); width expressions use the parameters,
integers, + - * ( ), CLOG2(x) and MAX(a, b).
"""
import math
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))

TIMING_WORDS = {
    'CLOCK': 'clock',
    'RESET': 'reset, asynchronous, active low',
    'EARLY': 'early input',
    'LATE': 'late input',
    'COMB': 'combinational',
    'REG': 'registered',
    'ENTRY': 'registered, entry field',
}


def clog2(n):
    """ceil(log2(n)), 0 for n <= 1: the C side's block_clog2."""
    return max(0, math.ceil(math.log2(n))) if n > 1 else 0


def _split_args(text):
    """The arguments of one macro call: commas at depth 0 outside strings."""
    args, cur, depth, i = [], '', 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            j = i + 1
            while text[j] != '"':
                j += 2 if text[j] == '\\' else 1
            cur += text[i:j + 1]
            i = j + 1
            continue
        if c == '(':
            depth += 1
        elif c == ')':
            depth -= 1
        if c == ',' and depth == 0:
            args.append(cur.strip())
            cur = ''
        else:
            cur += c
        i += 1
    args.append(cur.strip())
    return args


def _string(arg):
    if not (arg.startswith('"') and arg.endswith('"')):
        raise ValueError('not a string literal: %s' % arg)
    return arg[1:-1].encode().decode('unicode_escape').encode('latin-1').decode('utf-8')


class Table:
    """One block's port table, parsed from its .def."""

    def __init__(self, block):
        self.block = block
        self.path = os.path.join(ROOT, 'cmodel', 'blocks', block + '.def')
        text = open(self.path, encoding='utf-8').read()
        text = re.sub(r'/\*.*?\*/', '', text, flags=re.S)
        self.params, self.derived, self.ports = [], [], []
        self.encodings = {}  # port or field name -> [(value, constant)]
        self.entries = None
        for m in re.finditer(r'^BLOCK_(PARAM|DERIVED|ENTRIES|PORT|FIELD|ENCODING)\(', text, flags=re.M):
            # the call's text, up to its closing parenthesis
            depth, i, instr = 1, m.end(), False
            while depth:
                c = text[i]
                if c == '"' and text[i - 1] != '\\':
                    instr = not instr
                elif not instr and c == '(':
                    depth += 1
                elif not instr and c == ')':
                    depth -= 1
                i += 1
            a = _split_args(text[m.end():i - 1])
            kind = m.group(1)
            if kind == 'PARAM':
                self.params.append(dict(rtl=a[0], name=a[1], doc=_string(a[2])))
            elif kind == 'DERIVED':
                self.derived.append((a[0], a[1]))
            elif kind == 'ENTRIES':
                self.entries = a[0]
            elif kind == 'ENCODING':
                self.encodings.setdefault(a[0], []).append((int(a[2], 0), a[1]))
            elif kind == 'PORT':
                self.ports.append(dict(name=a[0], dir=a[1], timing=a[2], ctype=a[3], width=a[4],
                                       digits=int(a[5]), doc=_string(a[6])))
            else:
                self.ports.append(dict(name='ent_' + a[0], field=a[0], dir='OUT', timing='ENTRY', ctype=a[1],
                                       width=a[2], digits=0, doc=_string(a[3])))

    def env(self, values):
        """The parameters (RTL names) and derived values for one set."""
        env = {'CLOG2': clog2, 'MAX': max, '__builtins__': {}}
        for p in self.params:
            env[p['rtl']] = int(values[p['rtl']])
        for name, expr in self.derived:
            env[name] = eval(expr, env)
        return env

    def n_entries(self, env):
        return eval(self.entries, env) if self.entries else 0

    def field_width(self, port, env):
        """Bits of a port (an entry field: of one entry)."""
        return eval(port['width'], env)

    @staticmethod
    def rtl_name(port):
        if port['timing'] == 'RESET':
            return port['name'] + '_ni'
        return port['name'] + ('_i' if port['dir'] == 'IN' else '_o')

    def rtl_ports(self, values):
        """[(name, 'input'|'output', width)] of the RTL module for one set."""
        env = self.env(values)
        out = []
        for p in self.ports:
            w = self.field_width(p, env)
            if p['timing'] == 'ENTRY':
                w *= self.n_entries(env)
            out.append((self.rtl_name(p), 'input' if p['dir'] == 'IN' else 'output', w))
        return out


def param_sets(block):
    """[(set name, {RTL parameter: value})] of tb/<block>.params."""
    sets = []
    for line in open(os.path.join(ROOT, 'tb', block + '.params')):
        f = line.split('#', 1)[0].split()
        if f and all('=' in kv for kv in f[1:]) and len(f) > 1:
            sets.append((f[0], dict(kv.split('=') for kv in f[1:])))
    return sets


# ---------------------------------------------------------------- the RTL's ports

def yosys_ports(block, sv, values):
    """[(name, direction, width)] of module ws_<block> in sv, elaborated with values."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, 'ports.txt')
        chparam = ' '.join('-set %s %s' % kv for kv in values.items())
        script = ('read_verilog -sv -I%s -I%s %s; chparam %s ws_%s; hierarchy -top ws_%s; tee -q -o %s portlist ws_%s'
                  % (os.path.dirname(os.path.abspath(sv)), os.path.join(ROOT, 'rtl'), sv, chparam, block, block, out,
                     block))
        r = subprocess.run(['yosys', '-q', '-p', script], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError('yosys failed on %s: %s' % (sv, (r.stderr or r.stdout).strip()[-600:]))
        ports = []
        for line in open(out):
            m = re.match(r'\s*(input|output|inout)\s+\[(\d+):(\d+)\]\s+(\w+)', line)
            if m:
                ports.append((m.group(4), m.group(1), abs(int(m.group(2)) - int(m.group(3))) + 1))
        return ports


def compare(table_ports, rtl_ports, def_path, sv):
    """The differences between the table's ports and the RTL's, as messages."""
    msgs = []
    tp = {n: (d, w) for n, d, w in table_ports}
    rp = {n: (d, w) for n, d, w in rtl_ports}
    for n, d, w in table_ports:
        if n not in rp:
            msgs.append('port %s: in %s, not in %s' % (n, def_path, sv))
        elif rp[n][0] != d:
            msgs.append('port %s: %s in the table, %s in the RTL' % (n, d, rp[n][0]))
        elif rp[n][1] != w:
            msgs.append('port %s: %d bits in the table, %d in the RTL' % (n, w, rp[n][1]))
    for n, d, w in rtl_ports:
        if n not in tp:
            msgs.append('port %s: in %s, not in the table %s' % (n, sv, def_path))
    if not msgs:
        order_t = [n for n, _, _ in table_ports]
        order_r = [n for n, _, _ in rtl_ports]
        if order_t != order_r:
            i = next(k for k in range(len(order_t)) if order_t[k] != order_r[k])
            msgs.append('port order: the table has %s where the RTL has %s' % (order_t[i], order_r[i]))
    return msgs


def check_rtl(block, sv, only):
    t = Table(block)
    rel_def = os.path.relpath(t.path, ROOT)
    sets = [s for s in param_sets(block) if not only or s[0] in only]
    if not sets:
        sys.exit('blockports: no parameter set %s in tb/%s.params' % (' '.join(only), block))
    bad = 0
    for name, values in sets:
        try:
            msgs = compare(t.rtl_ports(values), yosys_ports(block, sv, values), rel_def, sv)
        except RuntimeError as e:
            msgs = [str(e)]
        for m in msgs:
            print('blockports: %s, set %s: %s' % (block, name, m))
        bad += bool(msgs)
    if bad:
        print('blockports: %s: the ports of %s differ from %s in %d of %d parameter sets'
              % (block, sv, rel_def, bad, len(sets)))
        return 1
    print('blockports: %s: the ports of %s match %s in %d parameter sets (%s)'
          % (block, sv, rel_def, len(sets), ' '.join(s[0] for s in sets)))
    return 0


# ---------------------------------------------------------------- the doc page

BEGIN = '<!-- port table: generated by `python3 scripts/blockports.py doc %s` from cmodel/blocks/%s.def; edit it there -->'
END = '<!-- end of the generated port table -->'


def doc_table(block):
    t = Table(block)
    rows = ['| port | dir | width | timing | C | meaning |', '|---|---|---|---|---|---|']
    for p in t.ports:
        w = p['width']
        c = '—'
        if p['timing'] in ('EARLY', 'LATE'):
            c = '`in.%s`' % p['name']
        elif p['timing'] == 'COMB':
            c = '`out.%s`' % p['name']
        elif p['timing'] == 'REG':
            c = '`out.q->%s`' % p['name']
        elif p['timing'] == 'ENTRY':
            c = '`out.q->e[i].%s`' % p['field']
            w = t.entries if w == '1' else '%s × %s' % (t.entries, w if re.fullmatch(r'\w+', w) else '(%s)' % w)
        rows.append('| `%s` | %s | %s | %s | %s | %s |' % (t.rtl_name(p), p['dir'].lower(), w,
                                                          TIMING_WORDS[p['timing']], c, p['doc']))
    return '\n'.join(rows)


def doc(block, check):
    path = os.path.join(ROOT, 'docs', 'blocks', block + '.md')
    text = open(path, encoding='utf-8').read()
    begin = BEGIN % (block, block)
    if begin not in text or END not in text:
        sys.exit('blockports: %s has no port-table markers:\n  %s\n  %s' % (path, begin, END))
    a = text.index(begin) + len(begin)
    b = text.index(END)
    new = text[:a] + '\n' + doc_table(block) + '\n' + text[b:]
    rel = os.path.relpath(path, ROOT)
    if check:
        if new != text:
            print('blockports: the port table of %s is out of date with cmodel/blocks/%s.def: '
                  'run python3 scripts/blockports.py doc %s' % (rel, block, block))
            return 1
        print('blockports: the port table of %s is up to date' % rel)
        return 0
    if new != text:
        open(path, 'w', encoding='utf-8').write(new)
        print('blockports: rewrote the port table of %s' % rel)
    return 0


def main(argv):
    if len(argv) >= 2 and argv[0] == 'doc':
        return doc(argv[1], '--check' in argv[2:])
    if len(argv) >= 2 and argv[0] == 'check-rtl':
        block, sv, only, i = argv[1], None, [], 2
        while i < len(argv):
            if argv[i] == '--sv' and i + 1 < len(argv):
                sv = argv[i + 1]
                i += 2
            elif argv[i] == '--set' and i + 1 < len(argv):
                only.append(argv[i + 1])
                i += 2
            else:
                sys.exit(__doc__)
        return check_rtl(block, sv or os.path.join('rtl', 'ws_%s.sv' % block), only)
    if len(argv) == 3 and argv[0] == 'ports':
        sets = dict(param_sets(argv[1]))
        if argv[2] not in sets:
            sys.exit('blockports: no set %s in tb/%s.params' % (argv[2], argv[1]))
        for n, d, w in Table(argv[1]).rtl_ports(sets[argv[2]]):
            print('%-6s %-14s %d' % (d, n, w))
        return 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
