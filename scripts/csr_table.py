#!/usr/bin/env python3
"""The CSR table of docs/abi.md, generated from cmodel/csr.def.

  python3 scripts/csr_table.py                  print the table (Markdown)
  python3 scripts/csr_table.py --update FILE    replace the table in FILE
  python3 scripts/csr_table.py --check FILE     exit 1 when FILE's table differs

The table sits between the lines BEGIN and END below in FILE; the test suite
(tests/run.sh, group options) runs --check docs/abi.md.
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEF = os.path.join(HERE, '..', 'cmodel', 'csr.def')
BEGIN = '<!-- CSR table: generated from cmodel/csr.def by scripts/csr_table.py; do not edit -->'
END = '<!-- end of CSR table -->'

ENTRY = re.compile(r'\b(CSR|CSR_API)\(\s*(0x[0-9A-Fa-f]+)\s*,\s*"([^"]*)"\s*,\s*(\w+)\s*,\s*"((?:[^"\\]|\\.)*)"')


def table():
    text = re.sub(r'/\*.*?\*/', '', open(DEF).read(), flags=re.S)
    rows = ['| CSR | name | access | value | kernel accessor (`warpsplit.h`) |',
            '|---|---|---|---|---|']
    for kind, num, name, field, desc in ENTRY.findall(text):
        if kind == 'CSR_API':
            access, api = 'read-only', '`wsim_%s()`' % field
        else:
            access, api = {'RW': 'read/write', 'RO': 'read-only'}[field], ''
        rows.append('| %s | `%s` | %s | %s | %s |' % (num.replace('0X', '0x'), name, access, desc, api))
    if len(rows) < 3:
        sys.exit('csr_table.py: no CSR lines in %s' % DEF)
    return '\n'.join(rows) + '\n'


def split(path):
    text = open(path).read()
    try:
        a = text.index(BEGIN + '\n') + len(BEGIN) + 1
        b = text.index(END, a)
    except ValueError:
        sys.exit('csr_table.py: %s has no generated CSR table (%s ... %s)' % (path, BEGIN, END))
    return text[:a], text[a:b], text[b:]


def main(argv):
    if len(argv) == 1:
        sys.stdout.write(table())
        return 0
    if len(argv) != 3 or argv[1] not in ('--update', '--check'):
        sys.exit(__doc__.strip())
    head, old, tail = split(argv[2])
    new = table()
    if argv[1] == '--update':
        if old != new:
            open(argv[2], 'w').write(head + new + tail)
        return 0
    if old != new:
        sys.stderr.write('%s: the CSR table differs from cmodel/csr.def; run python3 scripts/csr_table.py '
                         '--update %s\n' % (argv[2], argv[2]))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
