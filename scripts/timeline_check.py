#!/usr/bin/env python3
"""Checks a warp timeline (wpusim --timeline FILE, docs/see.md) against the
rules of the Chrome / Perfetto trace-event format that its viewers rely on:

  - the file is JSON: an object with a "traceEvents" array (or the array);
  - every event has the fields its phase needs: name, ph, pid, tid, ts >= 0
    (not metadata), dur >= 0 (complete slices), id (flows, async slices),
    numeric args (counters), a scope g/p/t (instants);
  - on every track (pid, tid) timestamps never go back in file order, and
    every counter's (pid, name) series neither;
  - begin/end slices (B/E) balance on their track and nest; complete slices
    (X) on a track nest: none starts inside another and ends after it;
  - async slices (b/e) balance per (cat, id);
  - flow arrows pair: one start (s) and one end (f) per (cat, id), the end
    not before the start (steps, t, in between).

    python3 scripts/timeline_check.py build/t.json [more.json.gz ...]

Prints one line per file: OK with what it holds (slices by kind, instants by
name, arrows, counters), or FAIL with the first problems (event index, what
is wrong). Exit 0 when every file passes, 1 when one breaks a rule, 2 when
one cannot be read.
"""
import collections
import gzip
import json
import sys

PHASES = set('XBEiICMstfbenPO')
MAX_SHOWN = 8


def load(path):
    opener = gzip.open if path.endswith('.gz') else open
    with opener(path, 'rt', encoding='utf-8') as f:
        return json.load(f)


def check(doc):
    """The problems of a trace document (list of str) and its summary (str)."""
    errs = []

    def bad(i, msg):
        errs.append('event %d: %s' % (i, msg))

    if isinstance(doc, dict):
        events = doc.get('traceEvents')
        if not isinstance(events, list):
            return ['no "traceEvents" array in the top-level object'], ''
    elif isinstance(doc, list):
        events = doc
    else:
        return ['the top level is neither an object nor an array'], ''

    last_ts = {}                          # track -> last ts
    last_counter = {}                     # (pid, name) -> last ts
    open_be = collections.defaultdict(list)  # track -> [names] of B not yet ended
    open_x = collections.defaultdict(list)   # track -> [(end, index)] of X that may still enclose
    async_open = collections.Counter()    # (cat, id) -> b - e
    flows = {}                            # (cat, id) -> [start ts, ends]
    kinds = collections.Counter()
    instants = collections.Counter()
    counters = set()
    tracks = set()
    for i, e in enumerate(events):
        if not isinstance(e, dict):
            bad(i, 'not an object')
            continue
        ph = e.get('ph')
        if ph not in PHASES:
            bad(i, 'phase %r is not one of the format\'s' % (ph,))
            continue
        if not isinstance(e.get('name'), str) and ph not in 'E':
            bad(i, 'ph %s without a string "name"' % ph)
        if not isinstance(e.get('pid'), int):
            bad(i, 'ph %s without an integer "pid"' % ph)
            continue
        if ph == 'M':
            if not isinstance(e.get('args'), dict):
                bad(i, 'metadata %r without "args"' % e.get('name'))
            continue
        ts = e.get('ts')
        if not isinstance(ts, (int, float)) or isinstance(ts, bool) or ts < 0:
            bad(i, 'ph %s without a timestamp "ts" >= 0' % ph)
            continue
        ts = round(ts * 1e6)  # picoseconds: exact sums (0.141 + 0.001 is not 0.142 in binary)
        if ph == 'C':
            args = e.get('args')
            if not isinstance(args, dict) or not args or not all(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in args.values()):
                bad(i, 'counter %r without numeric "args"' % e.get('name'))
            key = (e['pid'], e.get('name'))
            if ts < last_counter.get(key, 0):
                bad(i, 'counter %r of pid %d goes back in time: ts %s after %s us'
                    % (key[1], key[0], ts / 1e6, last_counter[key] / 1e6))
            last_counter[key] = ts
            counters.add(key)
            continue
        if ph in 'bensStTfF' and 'id' not in e and 'id2' not in e:
            bad(i, 'ph %s without an "id"' % ph)
            continue
        if ph in 'be':
            key = (e.get('cat'), str(e.get('id', e.get('id2'))))
            async_open[key] += 1 if ph == 'b' else -1
            if async_open[key] < 0:
                bad(i, 'async end without a begin (cat %r id %s)' % key)
                async_open[key] = 0
            continue
        if not isinstance(e.get('tid'), int):
            bad(i, 'ph %s without an integer "tid"' % ph)
            continue
        track = (e['pid'], e['tid'])
        tracks.add(track)
        if ts < last_ts.get(track, 0):
            bad(i, 'track pid %d tid %d goes back in time: ts %s after %s us' % (track + (ts / 1e6, last_ts[track] / 1e6)))
        last_ts[track] = ts
        if ph == 'X':
            dur = e.get('dur')
            if not isinstance(dur, (int, float)) or isinstance(dur, bool) or dur < 0:
                bad(i, 'complete slice %r without a duration "dur" >= 0' % e.get('name'))
                continue
            stack = open_x[track]
            while stack and stack[-1][0] <= ts:
                stack.pop()
            end = ts + round(dur * 1e6)
            if stack and end > stack[-1][0]:
                bad(i, 'slice %r [%s, %s] us on pid %d tid %d overlaps slice %d without nesting in it'
                    % (e.get('name'), ts / 1e6, end / 1e6, track[0], track[1], stack[-1][1]))
            stack.append((end, i))
            kinds[(e.get('args') or {}).get('kind', 'slice')] += 1
        elif ph == 'B':
            open_be[track].append(e.get('name'))
        elif ph == 'E':
            if not open_be[track]:
                bad(i, 'end (E) without a begin on pid %d tid %d' % track)
            else:
                open_be[track].pop()
        elif ph in 'iI':
            if e.get('s', 't') not in ('g', 'p', 't'):
                bad(i, 'instant %r with scope %r (not g, p or t)' % (e.get('name'), e.get('s')))
            instants[e.get('name')] += 1
        elif ph in 'stf':
            key = (e.get('cat'), str(e.get('id')))
            f = flows.setdefault(key, [None, 0, i])
            if ph == 's':
                if f[0] is not None:
                    bad(i, 'a second flow start for cat %r id %s (first: event %d)' % (key + (f[2],)))
                f[0], f[2] = ts, i
            elif ph == 'f':
                if f[0] is None:
                    bad(i, 'flow end before (or without) its start, cat %r id %s' % key)
                elif ts < f[0]:
                    bad(i, 'flow cat %r id %s ends at %s before it starts at %s us' % (key + (ts / 1e6, f[0] / 1e6)))
                f[1] += 1
    for track, names in open_be.items():
        if names:
            errs.append('pid %d tid %d: %d begin (B) slices never end (%s)' % (track + (len(names), names[-1])))
    for key, n in async_open.items():
        if n:
            errs.append('async slice cat %r id %s: %d begins without an end' % (key + (n,)))
    for key, (start, ends, i) in flows.items():
        if start is not None and ends != 1:
            errs.append('flow cat %r id %s (event %d): %d ends, want 1' % (key + (i, ends)))
    arrows = sum(1 for f in flows.values() if f[0] is not None)
    summary = '%d events on %d tracks: slices %s; instants %s; %d arrows; %d counter series' % (
        len(events), len(tracks), ', '.join('%s %d' % kv for kv in sorted(kinds.items())) or 'none',
        ', '.join('%s %d' % kv for kv in sorted(instants.items())) or 'none', arrows, len(counters))
    return errs, summary


def main(argv):
    if not argv or argv[0] in ('-h', '--help'):
        print(__doc__.strip())
        return 0 if argv else 2
    rc = 0
    for path in argv:
        try:
            doc = load(path)
        except (OSError, EOFError, ValueError, UnicodeDecodeError) as e:
            print('timeline-check: %s: cannot read it as JSON: %s' % (path, e))
            rc = max(rc, 2)
            continue
        errs, summary = check(doc)
        if errs:
            print('timeline-check: %s: FAIL: %d problems; %s' % (path, len(errs), '; '.join(errs[:MAX_SHOWN])))
            rc = max(rc, 1)
        else:
            print('timeline-check: %s: OK: %s' % (path, summary))
    return rc


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
