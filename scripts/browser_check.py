#!/usr/bin/env python3
"""Loads a report page (scripts/report.py) in headless Chromium and checks it
as a reader would see it (tests/groups/18-report.sh; docs/see.md):

  - no console error, no uncaught exception, no failed load while it loads
    and draws (the page needs no network: it must not ask for any);
  - every number the page shows from the statistics equals the JSON's: each
    element with data-run and data-json (a path in that run's JSON) or
    data-expr (a formula of such paths) is read as the browser rendered it
    and compared, to the digits shown, with the value computed here from
    the RUN.json files themselves;
  - each warp timeline drew: in a screenshot of its canvas, at least
    --min-drawn of its rows' slice bands is in colour (not white or grey);
  - a PNG of the whole page is written (--png) for the docs.

    python3 scripts/browser_check.py PAGE.html RUN.json [RUN.json ...] [--png PAGE.png]

The runs are given in the page's order. Chromium is driven over the DevTools
protocol through a pipe (--remote-debugging-pipe): no network port, no
package beyond Debian's chromium. Prints one line: OK with what it checked,
or FAIL with the problems; exit 0, 1 (a check failed) or 2 (no browser, a
file missing, the browser did not answer in --timeout seconds).
"""
import argparse
import base64
import fcntl
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402  (get, evaluate: the same paths and formulas)

BROWSERS = ('chromium', 'chromium-browser', 'google-chrome')
FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
         '--disable-background-networking', '--disable-component-update', '--disable-sync',
         '--disable-default-apps', '--disable-extensions', '--hide-scrollbars', '--mute-audio',
         '--remote-debugging-pipe']


class Browser:
    """Chromium with the DevTools protocol on fds 3 (its input) and 4 (its output)."""

    def __init__(self, exe, timeout):
        self.timeout = timeout
        self.profile = tempfile.mkdtemp(prefix='wsim-chromium.')
        to_child_r, self.to_child = os.pipe()
        self.from_child, from_child_w = os.pipe()

        def fds():  # the child's fd 3 reads our commands, fd 4 writes its answers
            r, w = os.dup(to_child_r), os.dup(from_child_w)  # (above 4: the originals may be 3 or 4)
            r, w = fcntl.fcntl(r, fcntl.F_DUPFD, 10), fcntl.fcntl(w, fcntl.F_DUPFD, 10)
            os.dup2(r, 3)
            os.dup2(w, 4)

        self.log = open(os.path.join(self.profile, 'chromium.log'), 'w')
        self.proc = subprocess.Popen([exe] + FLAGS + ['--user-data-dir=' + self.profile, 'about:blank'],
                                     stdin=subprocess.DEVNULL, stdout=self.log, stderr=self.log,
                                     preexec_fn=fds, pass_fds=(3, 4))
        os.close(to_child_r)
        os.close(from_child_w)
        self.buf = b''
        self.next_id = 0
        self.events = []
        self.session = None

    def send(self, method, params=None, session=True):
        self.next_id += 1
        msg = {'id': self.next_id, 'method': method, 'params': params or {}}
        if session and self.session:
            msg['sessionId'] = self.session
        os.write(self.to_child, json.dumps(msg).encode() + b'\0')
        want = self.next_id
        while True:
            m = self.read()
            if m.get('id') == want:
                if 'error' in m:
                    raise RuntimeError('%s: %s' % (method, m['error'].get('message')))
                return m.get('result', {})

    def read(self):
        deadline = time.time() + self.timeout
        while b'\0' not in self.buf:
            if time.time() > deadline:
                raise TimeoutError('the browser did not answer in %d s' % self.timeout)
            r, _, _ = select.select([self.from_child], [], [], 1.0)
            if r:
                chunk = os.read(self.from_child, 1 << 20)
                if not chunk:
                    raise RuntimeError('the browser closed the protocol pipe (it exited: %s)' % self.tail())
                self.buf += chunk
        raw, self.buf = self.buf.split(b'\0', 1)
        m = json.loads(raw)
        if 'method' in m:
            self.events.append(m)
        return m

    def wait_event(self, method, seconds):
        deadline = time.time() + seconds
        while time.time() < deadline:
            if any(e['method'] == method for e in self.events):
                return True
            old = self.timeout
            self.timeout = max(1, int(deadline - time.time()))
            try:
                self.read()
            except TimeoutError:
                return False
            finally:
                self.timeout = old
        return False

    def tail(self):
        try:
            self.log.flush()
            with open(self.log.name) as f:
                return f.read()[-400:].replace('\n', ' | ')
        except OSError:
            return ''

    def close(self):
        try:
            os.write(self.to_child, json.dumps({'id': 0, 'method': 'Browser.close'}).encode() + b'\0')
            self.proc.wait(10)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()
        for fd in (self.to_child, self.from_child):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()
        shutil.rmtree(self.profile, ignore_errors=True)


# The share of a timeline's slice bands (below each row's event marks, right
# of the track names) that is in colour (not white, black or grey), measured
# on the screenshot (a PNG, base64) decoded by the browser's own image decoder.
SHARE_JS = """(async function (png, layout) {
  var L = layout.split(',').map(Number), axis = L[0], row = L[1], label = L[2], band = L[3], rows = L[4];
  var img = new Image(); img.src = 'data:image/png;base64,' + png; await img.decode();
  var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
  var g = c.getContext('2d'); g.drawImage(img, 0, 0);
  var px = g.getImageData(0, 0, c.width, c.height).data, n = 0, hit = 0;
  for (var r = 0; r < rows; r++)
    for (var y = axis + r * row + band; y < axis + (r + 1) * row - 1 && y < c.height; y++)
      for (var x = label; x < c.width; x++) {
        var k = 4 * (y * c.width + x), a = px[k], b = px[k + 1], d = px[k + 2];
        n++;
        if (Math.max(a, b, d) - Math.min(a, b, d) > 16) hit++;
      }
  return {share: hit / Math.max(n, 1), width: img.width, height: img.height};
})(%s, %s)"""


def shown_value(text):
    """The number a cell shows, and the unit of its last digit (None: no number)."""
    t = text.replace(',', '').replace('\u00d7', '').strip()
    m = re.fullmatch(r'(-?\d+(?:\.(\d+))?)(%?)', t)
    if not m:
        return None, None
    v = float(m.group(1))
    step = 10.0 ** -len(m.group(2) or '')
    if m.group(3):
        return v / 100.0, step / 100.0
    return v, step


def main(argv):
    ap = argparse.ArgumentParser(prog='browser_check.py')
    ap.add_argument('page')
    ap.add_argument('runs', nargs='+')
    ap.add_argument('--png', help='write a PNG of the whole page here')
    ap.add_argument('--png-timeline', help='write a PNG of the first timeline (its box) here')
    ap.add_argument('--min-drawn', type=float, default=0.005,
                    help='share of each timeline\'s slice bands that must be in colour (default 0.005)')
    ap.add_argument('--timeout', type=int, default=120, help='seconds the browser may take for a step')
    ap.add_argument('--width', type=int, default=1280)
    a = ap.parse_args(argv)
    exe = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not exe:
        print('browser-check: no Chromium: apt-get install chromium (make setup installs it)')
        return 2
    for p in [a.page] + a.runs:
        if not os.path.isfile(p):
            print('browser-check: %s: no such file' % p)
            return 2
    runs = [report.load_run(p) for p in a.runs]
    b = Browser(exe, a.timeout)
    problems, notes = [], []
    try:
        target = next(t for t in b.send('Target.getTargets', session=False)['targetInfos'] if t['type'] == 'page')
        b.session = b.send('Target.attachToTarget', {'targetId': target['targetId'], 'flatten': True},
                           session=False)['sessionId']
        for domain in ('Runtime', 'Log', 'Page', 'Network'):
            b.send(domain + '.enable')
        b.send('Emulation.setDeviceMetricsOverride', {'width': a.width, 'height': 900, 'deviceScaleFactor': 1,
                                                      'mobile': False})
        b.events.clear()
        b.send('Page.navigate', {'url': 'file://' + os.path.abspath(a.page)})
        if not b.wait_event('Page.loadEventFired', a.timeout):
            raise TimeoutError('the page did not finish loading in %d s' % a.timeout)
        ready = None
        deadline = time.time() + a.timeout
        while time.time() < deadline:
            ready = b.send('Runtime.evaluate', {'expression': 'document.body && document.body.getAttribute("data-ready")',
                                                'returnByValue': True})['result'].get('value')
            if ready == '1':
                break
            if any(e['method'] == 'Runtime.exceptionThrown' for e in b.events):
                break  # the script died: it will not finish (the exception is reported below)
            time.sleep(0.2)
        if ready != '1':
            problems.append('the page\'s script never finished (no data-ready on <body>)')
        # the numbers, as rendered
        cells = b.send('Runtime.evaluate', {'returnByValue': True, 'expression': '''
            Array.from(document.querySelectorAll("[data-run][data-json],[data-run][data-expr]")).map(function (e) {
              return {run: +e.dataset.run, path: e.dataset.json, expr: e.dataset.expr, text: e.innerText}; })'''
                                            })['result']['value']
        checked = 0
        for c in cells:
            run = runs[c['run']] if c['run'] < len(runs) else None
            if run is None:
                problems.append('a number of run %d, but %d runs given' % (c['run'], len(runs)))
                continue
            want = report.get(run, c['path']) if c.get('path') else report.evaluate(c['expr'], run)
            got, step = shown_value(c['text'])
            what = c.get('path') or c.get('expr')
            if got is None:
                if want is None and c['text'].strip() in ('\u2013', '-'):
                    continue
                problems.append('run %d %s: the page shows %r, not a number (JSON: %r)' % (c['run'], what, c['text'], want))
                continue
            if not isinstance(want, (int, float)) or abs(got - want) > step / 2 + 1e-9 * abs(want):
                problems.append('run %d %s: the page shows %s, the JSON gives %r' % (c['run'], what, c['text'], want))
            checked += 1
        if not cells:
            problems.append('no number on the page carries data-json / data-expr')
        # the timelines: a screenshot of each canvas
        boxes = b.send('Runtime.evaluate', {'returnByValue': True, 'expression': '''
            Array.from(document.querySelectorAll(".timeline canvas")).map(function (c) {
              c.scrollIntoView(); var r = c.getBoundingClientRect();
              return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height,
                      layout: c.getAttribute("data-layout"), drawn: +c.parentNode.getAttribute("data-drawn")}; })'''
                                            })['result']['value']
        for k, box in enumerate(boxes):
            if not box['w'] or not box['h']:
                problems.append('timeline %d: its canvas has no size' % k)
                continue
            shot = b.send('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                                     'clip': {'x': box['x'], 'y': box['y'], 'width': box['w'],
                                                              'height': box['h'], 'scale': 1}})
            got = b.send('Runtime.evaluate', {'returnByValue': True, 'awaitPromise': True, 'expression': SHARE_JS % (
                json.dumps(shot['data']), json.dumps(box['layout'] or '0,0,0,0,0'))})
            if 'exceptionDetails' in got:
                problems.append('timeline %d: its screenshot could not be read: %s' % (k, got['exceptionDetails'].get('text')))
                continue
            share = got['result']['value']['share']
            if k == 0 and a.png_timeline:
                whole = b.send('Runtime.evaluate', {'returnByValue': True, 'expression': '''(function () {
                  var r = document.querySelector(".timeline").getBoundingClientRect();
                  return {x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height}; })()'''
                                                    })['result']['value']
                pic = b.send('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                                       'clip': {'x': whole['x'], 'y': whole['y'], 'width': whole['w'],
                                                                'height': whole['h'], 'scale': 1}})
                with open(a.png_timeline, 'wb') as f:
                    f.write(base64.b64decode(pic['data']))
            notes.append('timeline %d: %d slices, %.1f%% of its plot drawn' % (k, box['drawn'], 100 * share))
            if share < a.min_drawn:
                problems.append('timeline %d: only %.2f%% of its plot is drawn (want >= %.1f%%)'
                                % (k, 100 * share, 100 * a.min_drawn))
        if a.png:
            m = b.send('Page.getLayoutMetrics')
            size = m.get('cssContentSize') or m['contentSize']
            shot = b.send('Page.captureScreenshot', {'format': 'png', 'captureBeyondViewport': True,
                                                     'clip': {'x': 0, 'y': 0, 'width': min(size['width'], 4000),
                                                              'height': min(size['height'], 16000), 'scale': 1}})
            with open(a.png, 'wb') as f:
                f.write(base64.b64decode(shot['data']))
        # what the console and the network said
        for e in b.events:
            m, p = e['method'], e.get('params', {})
            if m == 'Runtime.exceptionThrown':
                d = p.get('exceptionDetails', {})
                problems.append('uncaught exception: %s' % ((d.get('exception') or {}).get('description') or d.get('text')))
            elif m == 'Runtime.consoleAPICalled' and p.get('type') in ('error', 'assert', 'warning'):
                problems.append('console %s: %s' % (p['type'], ' '.join(str(x.get('value', x.get('description')))
                                                                       for x in p.get('args', []))))
            elif m == 'Log.entryAdded' and p.get('entry', {}).get('level') == 'error':
                problems.append('browser log error: %s' % p['entry'].get('text'))
            elif m == 'Network.requestWillBeSent' and not p.get('request', {}).get('url', '').startswith(('file:', 'data:', 'about:')):
                problems.append('the page asked the network for %s' % p['request']['url'])
            elif m == 'Network.loadingFailed':
                problems.append('a load failed: %s' % p.get('errorText'))
    except (TimeoutError, RuntimeError, StopIteration, OSError) as e:
        print('browser-check: %s: FAIL: %s' % (a.page, e or 'no page target'))
        b.close()
        return 2
    b.close()
    if problems:
        print('browser-check: %s: FAIL: %d problems: %s' % (a.page, len(problems), '; '.join(problems[:10])))
        return 1
    print('browser-check: %s: OK: no console error; %d numbers equal the JSON\'s; %s%s' % (
        a.page, checked, '; '.join(notes) or 'no timeline', '; PNG %s' % a.png if a.png else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
