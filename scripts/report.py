#!/usr/bin/env python3
"""One self-contained HTML page about one or more wpusim runs (docs/see.md).

    build/wpusim --policy DWS.ReviveSplit --stats json --stats-out revive.json \\
        --timeline revive.timeline.json build/kernels/merge.elf
    python3 scripts/report.py revive.json --timeline revive.timeline.json -o report.html
    python3 scripts/report.py conv.json revive.json -o compare.html   # side by side

The page needs no network: styles, pictures (inline SVG) and script are in
it. It shows each run's configuration and summary; per WPU its time
(issuing, waiting on memory, idle); SIMD efficiency per WPU and, given a
timeline, the histogram of active lanes per issue; the divergence-degree
histogram; caches and DRAM; the mechanisms' own counters (DWS, DoM, LWM,
two-level); a region of interest ("roi" / "region" object) when the
statistics have one; and, given a timeline (wpusim --timeline), a zoomable
warp timeline drawn in the page (wheel: zoom, drag: pan, double-click:
whole run). Several runs are compared side by side, speedups against the
first.

Every number the page shows from the statistics carries where it comes
from (data-run, data-json: a path in the run's JSON, or data-expr: a
formula of such paths), so a test can hold the page against the JSON
(tests/groups/18-report.sh, scripts/browser_check.py).

Options:
  RUN.json ...          wpusim --stats json files (--stats-out)
  --timeline FILE       a timeline (FILE.gz too) of one of the runs: matched by
                        program and cycle count; repeatable
  --label NAME          a run's name (repeatable, in order; default: its file name)
  --title TEXT          the page's title
  --max-slices N        slices of a timeline drawn at most (default 400000)
  --wpus LIST           draw only these WPUs' tracks (e.g. 0-3,8; default all)
  -o FILE               the page (default report.html)
Exit 0, or 2 with a message naming the file and the problem.
"""
import argparse
import gzip
import html
import json
import os
import sys

KIND_COLOURS = {'warp': '#4c78a8', 'split': '#f58518', 'slipped': '#b279a2', 'sub-warp': '#54a24b'}
TIME_COLOURS = (('issue', '#4c78a8'), ('memory wait', '#e45756'), ('idle', '#bab0ac'))


def fail(msg):
    sys.stderr.write('report: %s\n' % msg)
    sys.exit(2)


def load_json(path):
    opener = gzip.open if path.endswith('.gz') else open
    try:
        with opener(path, 'rt', encoding='utf-8') as f:
            return json.load(f)
    except OSError as e:
        fail('%s: cannot read: %s' % (path, e.strerror or e))
    except (ValueError, EOFError, UnicodeDecodeError) as e:
        fail('%s: not JSON: %s' % (path, e))


def load_run(path):
    d = load_json(path)
    if not isinstance(d, dict) or 'cycles' not in d or 'total' not in d or 'config' not in d:
        fail('%s: not wpusim statistics (wpusim --stats json --stats-out FILE): no "cycles", "total" or "config"'
             % path)
    return d


def get(d, path):
    """The value at a dotted path of a run's JSON (list indices as numbers), or None."""
    for part in path.split('.'):
        if isinstance(d, list):
            try:
                d = d[int(part)]
            except (ValueError, IndexError):
                return None
        elif isinstance(d, dict):
            d = d.get(part)
        else:
            return None
    return d


def evaluate(expr, run):
    """A data-expr: a formula of {path}s (the browser test evaluates the same)."""
    out, i = '', 0
    while i < len(expr):
        if expr[i] == '{':
            j = expr.index('}', i)
            v = get(run, expr[i + 1:j])
            out += repr(float(v if isinstance(v, (int, float)) else 0))
            i = j + 1
        else:
            out += expr[i]
            i += 1
    try:
        return eval(out, {'__builtins__': {}}, {})  # noqa: S307 (our own formulas of numbers)
    except ZeroDivisionError:
        return 0.0


def fmt(v, kind):
    if v is None:
        return '&ndash;'
    if kind == 'int':
        return '{:,}'.format(int(v))
    if kind == 'pct':
        return '%.1f%%' % (100.0 * v)
    if kind == 'x':
        return '%.3f&times;' % v
    return '%.4f' % v


class Page:
    def __init__(self, runs, labels):
        self.runs, self.labels = runs, labels
        self.parts = []

    def add(self, s):
        self.parts.append(s)

    def num(self, i, path=None, expr=None, kind='int'):
        """A table cell with a number from run i: a JSON path or a formula of paths."""
        run = self.runs[i]
        if path is not None:
            v = get(run, path)
            attr = 'data-json="%s"' % html.escape(path)
            if kind == 'int' and isinstance(v, float):
                kind = 'f'
        else:
            v = evaluate(expr, run)
            attr = 'data-expr="%s"' % html.escape(expr)
        return '<td class="n" data-run="%d" data-kind="%s" %s>%s</td>' % (i, kind, attr, fmt(v, kind))

    def table(self, title, rows, note=''):
        """rows: (label, [cell html per run]); a column per run."""
        self.add('<h3>%s</h3>' % title)
        if note:
            self.add('<p class="note">%s</p>' % note)
        self.add('<table><tr><th></th>%s</tr>' % ''.join('<th>%s</th>' % html.escape(l) for l in self.labels))
        for label, cells in rows:
            self.add('<tr><th class="r">%s</th>%s</tr>' % (label, ''.join(cells)))
        self.add('</table>')


def svg_hbars(rows, width=640, bar=16, legend=TIME_COLOURS):
    """Horizontal stacked bars: rows = [(label, [values])], fractions of each row's sum."""
    lw, gap = 150, 6
    h = len(rows) * (bar + gap) + 28
    out = ['<svg class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img">' % (width, h, width, h)]
    for r, (label, vals) in enumerate(rows):
        y = r * (bar + gap)
        out.append('<text x="%d" y="%d" text-anchor="end" class="lab">%s</text>' % (lw - 6, y + bar - 4,
                                                                                  html.escape(label)))
        total = float(sum(vals)) or 1.0
        x = lw
        for (name, colour), v in zip(legend, vals):
            w = (width - lw - 10) * v / total
            out.append('<rect x="%.2f" y="%d" width="%.2f" height="%d" fill="%s"><title>%s: %s (%.1f%%)</title></rect>'
                       % (x, y, w, bar, colour, html.escape(label + ' ' + name), '{:,}'.format(v), 100 * v / total))
            x += w
    y = len(rows) * (bar + gap) + 14
    x = lw
    for name, colour in legend:
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" class="lab">%s</text>'
                   % (x, y - 9, colour, x + 14, y, html.escape(name)))
        x += 20 + 8 * len(name)
    out.append('</svg>')
    return ''.join(out)


def svg_hist(series, xlabel, width=640, height=180):
    """Bar histograms side by side per bin: series = [(label, colour, [counts])], shares of each series' sum."""
    n = max(len(c) for _, _, c in series)
    left, bottom, top = 40, 30, 10
    plot_w, plot_h = width - left - 10, height - bottom - top
    shares = [[c / (float(sum(cs)) or 1.0) for c in cs] for _, _, cs in series]
    peak = max([max(s) for s in shares if s] + [1e-9])
    out = ['<svg class="chart" width="%d" height="%d" viewBox="0 0 %d %d" role="img">' % (width, height, width, height)]
    out.append('<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#888"/>' % (left, top + plot_h, left + plot_w, top + plot_h))
    bw = plot_w / float(n)
    for k in range(n):
        for j, (label, colour, counts) in enumerate(series):
            if k >= len(counts) or not counts[k]:
                continue
            h = plot_h * shares[j][k] / peak
            x = left + k * bw + j * bw / len(series)
            out.append('<rect x="%.2f" y="%.2f" width="%.2f" height="%.2f" fill="%s"><title>%s, %s %d: %s (%.1f%%)'
                       '</title></rect>' % (x, top + plot_h - h, max(bw / len(series) - 0.5, 0.5), h, colour,
                                            html.escape(label), html.escape(xlabel), k, '{:,}'.format(counts[k]),
                                            100 * shares[j][k]))
    step = max(1, n // 8)
    for k in range(0, n, step):
        out.append('<text x="%.1f" y="%d" class="lab" text-anchor="middle">%d</text>' % (left + (k + 0.5) * bw,
                                                                                         top + plot_h + 14, k))
    out.append('<text x="%d" y="%d" class="lab">%s</text>' % (left + plot_w // 2 - 40, height - 2, html.escape(xlabel)))
    out.append('<text x="4" y="%d" class="lab">%.0f%%</text>' % (top + 10, 100 * peak))
    x = left + plot_w - 10
    for label, colour, _ in reversed(series if len(series) > 1 else []):  # the series' names, right-aligned
        x -= 24 + 7 * len(label)
        out.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d" class="lab">%s</text>'
                   % (x, top, colour, x + 14, top + 9, html.escape(label)))
    out.append('</svg>')
    return ''.join(out)


PALETTE = ['#4c78a8', '#f58518', '#54a24b', '#e45756', '#72b7b2', '#b279a2', '#ff9da6', '#9d755d']


def parse_wpus(text):
    '''"0-3,8" -> {0, 1, 2, 3, 8}'''
    out = set()
    try:
        for part in text.split(','):
            a, _, b = part.partition('-')
            out.update(range(int(a), int(b or a) + 1))
    except ValueError:
        fail('--wpus %s: expected WPU numbers and ranges, e.g. 0-3,8' % text)
    return out


def compact_timeline(doc, path, max_slices, wpus=None):
    """What the page draws of a timeline: tracks, slices, instants, as compact arrays."""
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        fail('%s: not a timeline (wpusim --timeline): no "traceEvents"' % path)
    names, name_ix, tracks, track_ix = [], {}, [], {}
    tnames = {}
    slices, instants, lanes_hist = [], [], {}
    kinds = list(KIND_COLOURS)
    cut = 0
    for e in doc['traceEvents']:
        ph = e.get('ph')
        if ph == 'M' and e.get('name') == 'thread_name':
            tnames[(e['pid'], e['tid'])] = e['args']['name']
            continue
        if ph not in ('X', 'i') or (wpus is not None and e['pid'] - 1 not in wpus):
            continue
        key = (e['pid'], e['tid'])
        if key not in track_ix:
            track_ix[key] = len(tracks)
            tracks.append(key)
        t = int(round(e['ts'] * 1000))
        if ph == 'X':
            a = e.get('args', {})
            lanes = a.get('lanes', 0)
            lanes_hist[lanes] = lanes_hist.get(lanes, 0) + 1
            if len(slices) >= max_slices:
                cut += 1
                continue
            nm = '%s  %s' % (e['name'], a.get('insn', ''))
            if nm not in name_ix:
                name_ix[nm] = len(names)
                names.append(nm)
            kind = a.get('kind', 'warp')
            slices.append([track_ix[key], t, kinds.index(kind) if kind in kinds else 0, lanes, name_ix[nm]])
        else:
            nm = e['name']
            if nm not in name_ix:
                name_ix[nm] = len(names)
                names.append(nm)
            instants.append([track_ix[key], t, name_ix[nm]])
    order = sorted(range(len(tracks)), key=lambda i: tracks[i])
    remap = {old: new for new, old in enumerate(order)}
    for s in slices:
        s[0] = remap[s[0]]
    for s in instants:
        s[0] = remap[s[0]]
    tracks = [tracks[i] for i in order]
    other = doc.get('otherData', {})
    return {
        'tracks': ['WPU %d %s' % (p - 1, tnames.get((p, t), 'track %d' % t).replace('WPU %d ' % (p - 1), ''))
                   for p, t in tracks],
        'slices': slices, 'instants': instants, 'names': names, 'kinds': kinds,
        'colours': [KIND_COLOURS[k] for k in kinds], 'width': other.get('warp_size', 32),
        'lanes': other.get('lanes', other.get('warp_size', 32)),
        'lanes_hist': lanes_hist, 'cut': cut, 'program': other.get('program'), 'cycles': other.get('cycles'),
        'from': other.get('from', 0), 'to': other.get('to', 0), 'limit_cut': other.get('cut', 0),
    }


SCRIPT = r"""
(function () {
  'use strict';
  var MARK = {split: '#d62728', merge: '#2ca02c', 're-converged': '#2ca02c', 'one group': '#2ca02c',
              slip: '#9467bd', 're-activate': '#17becf', forced: '#8c564b', barrier: '#7f7f7f',
              fetch: '#000000', warp: '#bbbbbb'};
  function markColour(name) {
    for (var k in MARK) if (name.indexOf(k) === 0) return MARK[k];
    return '#444';
  }
  function draw(box) {
    var d = JSON.parse(document.getElementById(box.getAttribute('data-src')).textContent);
    var canvas = box.querySelector('canvas'), status = box.querySelector('.status');
    /* a row: events' marks in its top bandTop pixels, the slices below (the browser test reads this layout) */
    var rowH = 16, axisH = 22, labelW = 150, bandTop = 6;
    canvas.setAttribute('data-layout', [axisH, rowH, labelW, bandTop, d.tracks.length].join(','));
    var t0 = Infinity, t1 = 0, i;
    for (i = 0; i < d.slices.length; i++) { var t = d.slices[i][1]; if (t < t0) t0 = t; if (t + 1 > t1) t1 = t + 1; }
    for (i = 0; i < d.instants.length; i++) { var u = d.instants[i][1]; if (u < t0) t0 = u; if (u + 1 > t1) t1 = u + 1; }
    if (!isFinite(t0)) { t0 = 0; t1 = 1; }
    var full = [t0, t1], view = [t0, t1];
    function resize() {
      var w = Math.max(400, box.clientWidth - 2);
      canvas.width = w; canvas.height = axisH + rowH * d.tracks.length + 4;
    }
    function x(t, w) { return labelW + (t - view[0]) * (w - labelW) / (view[1] - view[0]); }
    function render() {
      var c = canvas.getContext('2d'), w = canvas.width, h = canvas.height;
      c.fillStyle = '#ffffff'; c.fillRect(0, 0, w, h);
      c.font = '11px sans-serif'; c.fillStyle = '#333'; c.textBaseline = 'middle';
      for (var r = 0; r < d.tracks.length; r++) {
        var y = axisH + r * rowH;
        if (r % 2) { c.fillStyle = '#f4f4f4'; c.fillRect(labelW, y, w - labelW, rowH); }
        c.fillStyle = '#333'; c.fillText(d.tracks[r], 4, y + rowH / 2);
      }
      var span = view[1] - view[0], px = (w - labelW) / span;
      for (var k = 0; k < 6; k++) {
        var tt = view[0] + span * k / 5, xx = x(tt, w);
        c.fillStyle = '#999'; c.fillRect(xx, axisH - 4, 1, 4);
        c.fillStyle = '#333'; c.textAlign = k === 5 ? 'right' : 'left';
        c.fillText(Math.round(tt).toLocaleString('en-US'), Math.min(xx + 2, w - 2), 8);
      }
      c.textAlign = 'left';
      for (i = 0; i < d.slices.length; i++) {
        var s = d.slices[i];
        if (s[1] + 1 < view[0] || s[1] > view[1]) continue;
        /* a sub-warp fills at most the SIMD lanes; a group, its warp's threads */
        c.globalAlpha = 0.3 + 0.7 * Math.min(1, s[3] / (d.kinds[s[2]] === 'sub-warp' ? d.lanes : d.width));
        c.fillStyle = d.colours[s[2]];
        c.fillRect(x(s[1], w), axisH + s[0] * rowH + bandTop, Math.max(1, px), rowH - bandTop - 1);
      }
      c.globalAlpha = 1;
      for (i = 0; i < d.instants.length; i++) {
        var m = d.instants[i];
        if (m[1] < view[0] || m[1] > view[1]) continue;
        var nm = d.names[m[2]], mx = x(m[1], w), my = axisH + m[0] * rowH;
        c.fillStyle = markColour(nm);
        c.beginPath(); c.moveTo(mx - 3, my); c.lineTo(mx + 3, my); c.lineTo(mx, my + bandTop - 1); c.fill();
      }
      status.textContent = 'cycles ' + Math.floor(view[0]).toLocaleString('en-US') + ' \u2013 ' +
        Math.ceil(view[1]).toLocaleString('en-US') + ' (' + Math.round(span).toLocaleString('en-US') +
        ' cycles; wheel: zoom, drag: pan, double-click: whole run)';
      box.setAttribute('data-drawn', String(d.slices.length));
    }
    function zoom(f, at) {
      var span = (view[1] - view[0]) * f;
      if (span < 20) span = 20;
      var a = at - (at - view[0]) * span / (view[1] - view[0]);
      view = [Math.max(full[0], a), Math.min(full[1], a + span)];
      render();
    }
    function cycleAt(ev) {
      var rect = canvas.getBoundingClientRect(), w = canvas.width;
      var px = (ev.clientX - rect.left) * w / rect.width;
      return view[0] + (px - labelW) * (view[1] - view[0]) / (w - labelW);
    }
    canvas.addEventListener('wheel', function (ev) { ev.preventDefault(); zoom(ev.deltaY < 0 ? 0.7 : 1 / 0.7, cycleAt(ev)); },
                            {passive: false});
    var drag = null;
    canvas.addEventListener('mousedown', function (ev) { drag = {x: ev.clientX, v: view.slice()}; });
    window.addEventListener('mouseup', function () { drag = null; });
    canvas.addEventListener('mousemove', function (ev) {
      var rect = canvas.getBoundingClientRect();
      if (drag) {
        var dt = (drag.x - ev.clientX) * (drag.v[1] - drag.v[0]) / (rect.width - labelW);
        dt = Math.max(full[0] - drag.v[0], Math.min(full[1] - drag.v[1], dt));
        view = [drag.v[0] + dt, drag.v[1] + dt];
        render();
        return;
      }
      var row = Math.floor((ev.clientY - rect.top - axisH) / rowH), t = Math.floor(cycleAt(ev));
      if (row < 0 || row >= d.tracks.length) return;
      var best = null;
      for (i = 0; i < d.slices.length; i++) {
        var s = d.slices[i];
        if (s[0] === row && Math.abs(s[1] - t) < 2 + (view[1] - view[0]) / 400 && (!best || Math.abs(s[1] - t) < Math.abs(best[1] - t))) best = s;
      }
      box.querySelector('.hover').textContent = d.tracks[row] + ', cycle ' + t.toLocaleString('en-US') +
        (best ? ': ' + d.kinds[best[2]] + ' at ' + d.names[best[4]] + ', ' + best[3] + ' lanes (cycle ' +
         best[1].toLocaleString('en-US') + ')' : '');
    });
    canvas.addEventListener('dblclick', function () { view = full.slice(); render(); });
    box.querySelector('.zin').addEventListener('click', function () { zoom(0.5, (view[0] + view[1]) / 2); });
    box.querySelector('.zout').addEventListener('click', function () { zoom(2, (view[0] + view[1]) / 2); });
    box.querySelector('.zall').addEventListener('click', function () { view = full.slice(); render(); });
    window.addEventListener('resize', function () { resize(); render(); });
    resize();
    render();
  }
  var boxes = document.querySelectorAll('.timeline');
  for (var b = 0; b < boxes.length; b++) draw(boxes[b]);
  document.body.setAttribute('data-ready', '1');
})();
"""

STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #222; max-width: 1400px; }
h1 { font-size: 22px; } h2 { font-size: 18px; border-bottom: 1px solid #ddd; padding-bottom: 4px; margin-top: 28px; }
h3 { font-size: 15px; margin: 18px 0 6px; }
table { border-collapse: collapse; margin: 4px 0 10px; }
td, th { border: 1px solid #ddd; padding: 3px 8px; } th { background: #f6f6f6; text-align: center; }
th.r { text-align: left; font-weight: normal; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.diff { background: #fff3cd; }
.note { color: #666; margin: 2px 0 6px; } .chart { display: block; margin: 4px 0 12px; }
.lab { font: 11px sans-serif; fill: #333; }
.timeline { border: 1px solid #ccc; margin: 8px 0 16px; } .timeline canvas { display: block; cursor: grab; }
.timeline .bar { padding: 4px 8px; background: #f6f6f6; font-size: 12px; }
.timeline .hover { padding: 2px 8px 4px; font-size: 12px; color: #555; min-height: 16px; }
.legend span { display: inline-block; width: 10px; height: 10px; margin: 0 4px 0 12px; }
details summary { cursor: pointer; }
"""


def config_rows(page):
    runs = page.runs
    keys = list(runs[0]['config'])
    for r in runs[1:]:
        keys += [k for k in r['config'] if k not in keys]
    main = ['wpus', 'warps', 'warp_size', 'lanes', 'threads', 'arg', 'seed', 'scheduler', 'memory', 'dws', 'dws_mem',
            'dws_branch', 'dom', 'dom_slip', 'dom_max_slip', 'lwm', 'l1d_size', 'l1d_ways', 'l1d_line', 'l2_size',
            'dram_latency', 'dram_mbps', 'dram_banks', 'core_mhz', 'pipeline_depth']

    def row(k):
        vals = [r['config'].get(k) for r in runs]
        differ = len(set(json.dumps(v) for v in vals)) > 1
        cells = ''.join('<td class="n%s">%s</td>' % (' diff' if differ else '', html.escape(str(v)) if v is not None
                                                     else '&ndash;') for v in vals)
        return '<tr><th class="r">%s</th>%s</tr>' % (html.escape(k), cells)

    head = '<tr><th></th>%s</tr>' % ''.join('<th>%s</th>' % html.escape(l) for l in page.labels)
    page.add('<table>%s%s</table>' % (head, ''.join(row(k) for k in main if k in keys)))
    page.add('<details><summary>every configuration key (%d; differences highlighted)</summary><table>%s%s</table>'
             '</details>' % (len(keys), head, ''.join(row(k) for k in keys)))


def build(runs, labels, timelines, title):
    page = Page(runs, labels)
    n = len(runs)
    R = range(n)
    page.add('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>%s</title><style>%s</style></head><body>'
             % (html.escape(title), STYLE))
    page.add('<h1>%s</h1>' % html.escape(title))
    page.add('<p class="note">%s</p>' % '<br>'.join(
        '%s: <code>%s</code>, status <b>%s</b>, wpusim %s' % (html.escape(labels[i]), html.escape(str(runs[i].get('program'))),
                                                            html.escape(str(runs[i].get('status'))),
                                                            html.escape(str(runs[i].get('wpusim')))) for i in R))

    page.add('<h2>Configuration</h2>')
    config_rows(page)

    page.add('<h2>Summary</h2>')
    busy = '({total.cycles_issue} + {total.cycles_memwait} + {total.cycles_idle})'
    rows = [('cycles', [page.num(i, 'cycles') for i in R])]
    if n > 1:
        rows.append(('speedup over %s (its cycles / these)' % html.escape(labels[0]),
                     [page.num(i, expr='%s / {cycles}' % float(runs[0]['cycles']), kind='x') for i in R]))
    rows += [
        ('SIMD (group) instructions', [page.num(i, 'total.warp_insts') for i in R]),
        ('thread instructions', [page.num(i, 'total.thread_insts') for i in R]),
        ('SIMD efficiency (thread insts / (group insts &times; warp size))', [page.num(i, 'total.simd_efficiency', kind='f')
                                                                              for i in R]),
        ('thread instructions per cycle', [page.num(i, expr='{total.thread_insts} / {cycles}', kind='f') for i in R]),
        ('WPU cycles issuing', [page.num(i, expr='{total.cycles_issue} / ' + busy, kind='pct') for i in R]),
        ('WPU cycles waiting on memory', [page.num(i, expr='{total.cycles_memwait} / ' + busy, kind='pct') for i in R]),
        ('WPU cycles idle', [page.num(i, expr='{total.cycles_idle} / ' + busy, kind='pct') for i in R]),
        ('conditional branches', [page.num(i, 'total.branches') for i in R]),
        ('divergent branches', [page.num(i, 'total.div_branches') for i in R]),
        ('loads / stores with a miss', [page.num(i, 'total.mem_miss_insts') for i in R]),
        ('divergent loads / stores (hit and miss)', [page.num(i, 'total.mem_div_insts') for i in R]),
        ('threads exited 0', [page.num(i, 'threads.exited_zero') for i in R]),
    ]
    page.table('The run', rows)
    for key in ('roi', 'region'):
        if any(isinstance(r.get(key), dict) for r in runs):
            flat = []

            def walk(d, pre):
                for k, v in d.items():
                    if isinstance(v, dict):
                        walk(v, pre + k + '.')
                    elif isinstance(v, (int, float)) and not isinstance(v, bool):
                        if pre + k not in flat:
                            flat.append(pre + k)

            for r in runs:
                if isinstance(r.get(key), dict):
                    walk(r[key], '')
            page.table('Region of interest (&ldquo;%s&rdquo;)' % key,
                       [(html.escape(p), [page.num(i, key + '.' + p) if get(runs[i], key + '.' + p) is not None
                                          else '<td class="n">&ndash;</td>' for i in R]) for p in flat],
                       'The kernel\'s marked region, as the statistics report it.')

    page.add('<h2>Time per WPU</h2><p class="note">Each WPU\'s cycles: issuing, waiting on memory (nothing issues and a '
             'group waits on a load/store), idle.</p>')
    bars = []
    for i in R:
        for w, st in enumerate(runs[i].get('wpu', [])):
            bars.append(('%s WPU %d' % (labels[i], w) if n > 1 else 'WPU %d' % w,
                         [st.get('cycles_issue', 0), st.get('cycles_memwait', 0), st.get('cycles_idle', 0)]))
    page.add(svg_hbars(bars))
    nw = max(len(r.get('wpu', [])) for r in runs)
    page.table('Per WPU', [('WPU %d %s' % (w, what), [page.num(i, 'wpu.%d.%s' % (w, key), kind=k)
                                                    if w < len(runs[i].get('wpu', [])) else '<td class="n">&ndash;</td>'
                                                    for i in R])
                           for w in range(min(nw, 64))
                           for what, key, k in (('issue cycles', 'cycles_issue', 'int'),
                                                ('memory-wait cycles', 'cycles_memwait', 'int'),
                                                ('idle cycles', 'cycles_idle', 'int'),
                                                ('SIMD efficiency', 'simd_efficiency', 'f'))])

    page.add('<h2>SIMD efficiency and divergence</h2>')
    series = []
    for i in R:
        tl = timelines.get(i)
        if tl and tl['lanes_hist']:
            width = tl['width']
            counts = [tl['lanes_hist'].get(k, 0) for k in range(max(tl['lanes_hist']) + 1)]
            series.append((labels[i], PALETTE[i % len(PALETTE)], counts))
    if series:
        page.add('<h3>Active lanes per issue (from the timeline)</h3><p class="note">Share of the issued SIMD groups '
                 '(LWM: sub-warps) with k active threads.</p>')
        page.add(svg_hist(series, 'active threads'))
    dd = [(labels[i], PALETTE[i % len(PALETTE)], runs[i].get('div_degree', [])) for i in R if any(runs[i].get('div_degree', []))]
    page.add('<h3>Divergence degree</h3><p class="note">Divergent memory instructions (at least one thread hit and '
             'one missed) by the number of missing threads (001 Fig. 2).</p>')
    if dd:
        last = max(max((k for k, c in enumerate(cs) if c), default=0) for _, _, cs in dd)
        page.add(svg_hist([(l, c, cs[:last + 1]) for l, c, cs in dd], 'missing threads'))
    else:
        page.add('<p class="note">No divergent memory instruction.</p>')
    lw = [i for i in R if isinstance(runs[i].get('lwm'), dict)]
    if lw:
        page.add('<h3>LWM sub-warp sizes</h3><p class="note">Sub-warps by their threads (0: clocks the column picker '
                 'issued nothing).</p>')
        page.add(svg_hist([(labels[i], PALETTE[i % len(PALETTE)], runs[i]['lwm']['subwarp_size']) for i in lw],
                          'threads in the sub-warp'))

    page.add('<h2>Caches and DRAM</h2>')
    bars = []
    for cache, name in (('l1d', 'L1 D'), ('l1i', 'L1 I'), ('l2', 'L2')):
        for i in R:
            c = get(runs[i], 'memory.' + cache)
            if isinstance(c, dict) and c.get('accesses'):
                bars.append(('%s %s' % (labels[i], name) if n > 1 else name,
                             [c.get('hits', 0), c.get('misses', 0)]))
    if bars:
        page.add('<p class="note">Each cache\'s line accesses: hits and misses.</p>')
        page.add(svg_hbars(bars, legend=(('hits', '#54a24b'), ('misses', '#e45756'))))
    rows = []
    for cache, name in (('l1d', 'L1 D'), ('l1i', 'L1 I'), ('l2', 'L2')):
        if not any(isinstance(get(r, 'memory.' + cache), dict) for r in runs):
            continue
        for key in ('accesses', 'hits', 'misses', 'mshr_merges', 'mshr_full', 'bank_conflicts', 'writebacks'):
            rows.append(('%s %s' % (name, key.replace('_', ' ')),
                         [page.num(i, 'memory.%s.%s' % (cache, key)) if get(runs[i], 'memory.%s.%s' % (cache, key))
                          is not None else '<td class="n">&ndash;</td>' for i in R]))
        rows.append(('%s miss rate' % name, [page.num(i, expr='{memory.%s.misses} / {memory.%s.accesses}' % (cache, cache),
                                                     kind='pct') if get(runs[i], 'memory.' + cache) else
                                             '<td class="n">&ndash;</td>' for i in R]))
    for key in ('reads', 'writes', 'bytes', 'row_hits', 'row_conflicts'):
        if any(get(r, 'memory.dram.' + key) is not None for r in runs):
            rows.append(('DRAM %s' % key.replace('_', ' '), [page.num(i, 'memory.dram.' + key)
                                                            if get(runs[i], 'memory.dram.' + key) is not None
                                                            else '<td class="n">&ndash;</td>' for i in R]))
    if any(get(r, 'memory.dram.bytes') is not None for r in runs):
        rows.append(('DRAM bytes per cycle', [page.num(i, expr='{memory.dram.bytes} / {cycles}', kind='f')
                                              if get(runs[i], 'memory.dram.bytes') is not None
                                              else '<td class="n">&ndash;</td>' for i in R]))
    page.table('Memory hierarchy', rows, 'Organization: %s.' % ', '.join(
        html.escape(str(get(r, 'memory.organization'))) for r in runs))

    page.add('<h2>Mechanisms</h2>')
    mech = []
    tot0 = runs[0]['total']
    groups = (('DWS (warp-splits)', ('splits_branch', 'splits_mem', 'splits_revive', 'split_lanes', 'merges_pc',
                                     'merges_stack', 'merges_barrier', 'merges_sync', 'sync_waits', 'wst_full',
                                     'slot_full', 'groups_max')),
              ('two-level scheduling', ('fetch_switches', 'fetch_timeouts')),
              ('diverge on miss', tuple(k for k in tot0 if k.startswith('dom_'))
               + tuple(k for r in runs[1:] for k in r['total'] if k.startswith('dom_') and k not in tot0)))
    for title, keys in groups:
        keys = [k for k in dict.fromkeys(keys) if any(get(r, 'total.' + k) for r in runs)]
        if not keys:
            continue
        mech.append(title)
        page.table(html.escape(title), [(html.escape(k.replace('_', ' ')),
                                         [page.num(i, 'total.' + k) if get(runs[i], 'total.' + k) is not None
                                          else '<td class="n">&ndash;</td>' for i in R]) for k in keys])
    if lw:
        keys = [k for k, v in runs[lw[0]]['lwm'].items() if isinstance(v, (int, float))]
        mech.append('LWM')
        page.table('large warps (LWM)', [(html.escape(k.replace('_', ' ')),
                                          [page.num(i, 'lwm.' + k, kind='f' if isinstance(get(runs[i], 'lwm.' + k), float)
                                                    else 'int') if i in lw else '<td class="n">&ndash;</td>' for i in R])
                                         for k in keys])
    if not mech:
        page.add('<p class="note">No mechanism counted anything (Conv).</p>')

    if timelines:
        page.add('<h2>Warp timeline</h2><p class="note">A row per warp slot of each WPU (and the WPU\'s own events); a '
                 'mark per issued SIMD group, coloured by kind, fainter the fewer its active lanes; triangles are '
                 'events: <b style="color:#d62728">split</b>, <b style="color:#2ca02c">merge / re-converged</b>, '
                 '<b style="color:#9467bd">slip</b>, <b style="color:#17becf">re-activate</b>, '
                 '<b style="color:#8c564b">forced re-convergence</b>, <b style="color:#7f7f7f">barrier</b>, '
                 'fetch-group switch (black). Open the same file in ui.perfetto.dev for every detail.</p>'
                 '<p class="legend">%s</p>' % ''.join('<span style="background:%s"></span>%s' % (c, k)
                                                     for k, c in KIND_COLOURS.items()))
        for i in sorted(timelines):
            tl = timelines[i]
            note = []
            if tl['from'] or tl['to']:
                note.append('window: cycles %s..%s' % ('{:,}'.format(tl['from']),
                                                       '{:,}'.format(tl['to'] - 1) if tl['to'] else 'end'))
            if tl['limit_cut']:
                note.append('the file stopped at its size limit at cycle {:,}'.format(tl['limit_cut']))
            if tl['cut']:
                note.append('{:,} more slices not drawn (--max-slices)'.format(tl['cut']))
            page.add('<h3>%s</h3>%s' % (html.escape(labels[i]), '<p class="note">%s</p>' % '; '.join(note) if note else ''))
            page.add('<div class="timeline" data-src="tl-%d" data-run="%d"><div class="bar"><button class="zin">zoom in'
                     '</button> <button class="zout">zoom out</button> <button class="zall">whole run</button> '
                     '<span class="status"></span></div><canvas></canvas><div class="hover"></div></div>' % (i, i))
            page.add('<script type="application/json" id="tl-%d">%s</script>'
                     % (i, json.dumps({k: tl[k] for k in ('tracks', 'slices', 'instants', 'names', 'kinds', 'colours',
                                                           'width', 'lanes')}, separators=(',', ':')).replace('</', '<\\/')))
    page.add('<p class="note">Written by scripts/report.py from %s.</p>' % ', '.join(
        html.escape(l) for l in labels))
    page.add('<script>%s</script></body></html>\n' % SCRIPT)
    return ''.join(page.parts)


def main(argv):
    ap = argparse.ArgumentParser(prog='report.py', description='One self-contained HTML page about wpusim runs.')
    ap.add_argument('runs', nargs='+', metavar='RUN.json')
    ap.add_argument('--timeline', action='append', default=[], metavar='FILE')
    ap.add_argument('--label', action='append', default=[], metavar='NAME')
    ap.add_argument('--title', default=None)
    ap.add_argument('--max-slices', type=int, default=400000)
    ap.add_argument('--wpus', default=None)
    ap.add_argument('-o', '--out', default='report.html')
    a = ap.parse_args(argv)
    if len(a.label) > len(a.runs):
        fail('%d --label for %d runs' % (len(a.label), len(a.runs)))
    runs = [load_run(p) for p in a.runs]
    labels = a.label + [os.path.basename(p).rsplit('.json', 1)[0] for p in a.runs[len(a.label):]]
    timelines = {}
    for path in a.timeline:
        doc = load_json(path)
        other = doc.get('otherData', {}) if isinstance(doc, dict) else {}
        match = [i for i, r in enumerate(runs) if i not in timelines and r.get('cycles') == other.get('cycles')
                 and r.get('program') == other.get('program')]
        if not match and len(runs) == 1 and not timelines:
            match = [0]
        if not match:
            fail('%s: no run of program %s with %s cycles among the statistics given' % (path, other.get('program'),
                                                                                        other.get('cycles')))
        timelines[match[0]] = compact_timeline(doc, path, a.max_slices, parse_wpus(a.wpus) if a.wpus else None)
    progs = sorted(set(os.path.basename(str(r.get('program'))) for r in runs))
    title = a.title or 'WarpSplit run: %s' % ', '.join(progs) + (' (%d runs)' % len(runs) if len(runs) > 1 else '')
    page = build(runs, labels, timelines, title)
    try:
        with open(a.out, 'w', encoding='utf-8') as f:
            f.write(page)
    except OSError as e:
        fail('%s: cannot write: %s' % (a.out, e.strerror or e))
    print('report: %s (%d runs, %d timelines, %d bytes)' % (a.out, len(runs), len(timelines), len(page)))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
