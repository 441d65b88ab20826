/**
 * The dashboard's one page: plain HTML, CSS and JavaScript served as they are written here (no framework, no build
 * step; docs/adr/0083). The script polls the JSON endpoints of server.ts and draws with the DOM (text only: nothing
 * the cluster says is parsed as HTML); the run's token travels in a data block the script reads.
 */

/** What the page is told when it is served. */
export interface PageConfig {
  token: string;
  context: string;
  scope: string;
  jaeger: string | null;
  refreshMs: number;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The HTML of `/`: the config as a JSON data block (`<` escaped so no value can end the element). */
export function pageHtml(config: PageConfig): string {
  const data = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Regatta dashboard · ${escapeHtml(config.context)}</title>
<link rel="stylesheet" href="/app.css">
<script type="application/json" id="config">${data}</script>
<script src="/app.js" defer></script>
</head>
<body>
<header>
  <h1>Regatta</h1>
  <span class="meta">context <b>${escapeHtml(config.context)}</b> · ${escapeHtml(config.scope)}</span>
  <span class="meta" id="phases"></span>
  <span class="meta right">updated <span id="updated">–</span></span>
</header>
<div id="errors" role="alert" hidden></div>
<main>
  <section id="list">
    <table id="workloads">
      <thead><tr><th>NAMESPACE</th><th>WORKLOAD</th><th>DESIRED</th><th>UPDATED</th><th>READY</th><th>AVAILABLE</th><th>ROLLOUT</th><th>AGE</th><th></th></tr></thead>
      <tbody></tbody>
    </table>
    <p id="empty" hidden>No Regatta workloads found.</p>
  </section>
  <section id="detail" hidden>
    <div class="detail-head">
      <h2 id="detail-title"></h2>
      <span id="detail-phase" class="phase"></span>
      <button id="detail-action" type="button"></button>
    </div>
    <pre id="summary"></pre>
    <h3>Rollout trace <span id="trace-id" class="meta"></span></h3>
    <p id="trace-note" class="meta"></p>
    <div id="waterfall"></div>
    <p id="totals" class="meta"></p>
    <h3>Pods</h3>
    <pre id="pods"></pre>
  </section>
</main>
</body>
</html>
`;
}

export const APP_CSS = `
:root { --fg: #1d2330; --muted: #5d6778; --line: #dfe3ea; --bg: #f6f7f9; --card: #fff;
  --blue: #2f6fdf; --green: #1f9d55; --amber: #c98a00; --red: #d33c3c; --purple: #7c4dce; --teal: #138a8a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; gap: 16px; align-items: baseline; padding: 10px 20px; background: #14213d; color: #fff; }
header h1 { margin: 0; font-size: 18px; letter-spacing: .5px; }
header .meta { color: #c9d3e6; }
header .right { margin-left: auto; }
.meta { color: var(--muted); font-weight: normal; font-size: 13px; }
#errors { margin: 12px 20px 0; padding: 10px 14px; border: 1px solid var(--red); border-radius: 6px; background: #fdeeee; color: #8a1f1f; white-space: pre-wrap; }
main { padding: 12px 20px 24px; display: grid; gap: 16px; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 8px; padding: 12px 14px; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; }
th { text-align: left; font-size: 12px; color: var(--muted); font-weight: 600; padding: 4px 8px; border-bottom: 1px solid var(--line); }
td { padding: 6px 8px; border-bottom: 1px solid var(--line); white-space: nowrap; }
tbody tr { cursor: pointer; }
tbody tr:hover { background: #f0f4fb; }
tbody tr.selected { background: #e4ecfb; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.phase { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; background: var(--muted); }
.phase.Progressing { background: var(--blue); }
.phase.Paused { background: var(--amber); }
.phase.Completed { background: var(--green); }
.phase.Degraded { background: var(--red); }
button { font: inherit; padding: 2px 12px; border-radius: 5px; border: 1px solid var(--line); background: #fff; cursor: pointer; }
button:hover { border-color: var(--blue); }
button:disabled { opacity: .5; cursor: default; }
.detail-head { display: flex; gap: 12px; align-items: center; }
.detail-head h2 { margin: 0; font-size: 16px; }
h3 { font-size: 14px; margin: 14px 0 6px; }
pre { margin: 0; padding: 8px 10px; background: #f3f5f8; border-radius: 6px; font: 12px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; overflow-x: auto; }
#waterfall { display: grid; grid-template-columns: max-content max-content max-content max-content max-content minmax(240px, 1fr); column-gap: 10px; row-gap: 3px; font: 12px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; align-items: center; }
#waterfall .head { color: var(--muted); font-weight: 600; }
.track { position: relative; height: 14px; background: #f3f5f8; border-radius: 3px; }
.bar { position: absolute; top: 2px; bottom: 2px; border-radius: 2px; background: var(--muted); min-width: 2px; }
.bar.rollout, .bar.resumed { background: #14213d; }
.bar.pod-update { background: var(--green); }
.bar.pod-update.recreate { background: var(--amber); }
.bar.subset { background: var(--teal); }
.bar.hold { background: repeating-linear-gradient(45deg, #b9c0cc 0 4px, #e3e7ee 4px 8px); }
.bar.hook-wait { background: var(--purple); }
.bar.open { border-top-right-radius: 0; border-bottom-right-radius: 0; mask-image: linear-gradient(to right, #000 85%, transparent); }
.axis { display: flex; justify-content: space-between; color: var(--muted); font-size: 11px; }
`;

/** The page's script: polls /api/workloads (and the selected workload, and its trace) every refreshMs. */
export const APP_JS = `'use strict';
(function () {
  var config = JSON.parse(document.getElementById('config').textContent);
  var errors = {};
  var selected = decodeURIComponent(location.hash.slice(1));
  var busy = false;
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, className, text) {
    var e = document.createElement(tag);
    if (className) e.className = className;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }

  function setError(key, message) {
    if (message) errors[key] = message; else delete errors[key];
    var box = $('errors');
    var all = Object.keys(errors).map(function (k) { return errors[k]; });
    box.hidden = all.length === 0;
    box.textContent = all.join('\\n');
  }

  function call(path, init) {
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) {
        var body;
        try { body = JSON.parse(text); } catch (e) { body = { error: text || res.statusText }; }
        if (!res.ok) throw new Error(body.error || (res.status + ' ' + res.statusText));
        return body;
      });
    });
  }

  function refOf(id) {
    var parts = id.split('/');
    var q = new URLSearchParams({ kind: parts[1] || '', name: parts.slice(2).join('/') });
    if (parts[0] && parts[0] !== '-') q.set('namespace', parts[0]);
    return q;
  }

  function act(id, action) {
    if (busy) return;
    busy = true;
    var q = refOf(id);
    var body = { kind: q.get('kind'), name: q.get('name') };
    if (q.get('namespace')) body.namespace = q.get('namespace');
    call('/api/' + action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-regatta-token': config.token },
      body: JSON.stringify(body),
    }).then(function () { setError('action', ''); }, function (e) {
      setError('action', action + ' ' + id.split('/').slice(1).join('/') + ': ' + e.message);
    }).then(function () { busy = false; refresh(); });
  }

  function actionButton(id, action) {
    var b = el('button', 'action', action === 'pause' ? 'Pause' : 'Resume');
    b.type = 'button';
    b.dataset.action = action;
    b.addEventListener('click', function (ev) { ev.stopPropagation(); act(id, action); });
    return b;
  }

  function select(id) {
    selected = id;
    history.replaceState(null, '', '#' + encodeURIComponent(id));
    refresh();
  }

  function renderList(view) {
    var body = document.querySelector('#workloads tbody');
    body.textContent = '';
    view.items.forEach(function (w) {
      var tr = el('tr');
      tr.dataset.id = w.id;
      if (w.id === selected) tr.className = 'selected';
      [w.namespace || '', w.kind + '/' + w.name].forEach(function (t) { tr.appendChild(el('td', '', t)); });
      [w.desired, w.updated, w.ready, w.available === undefined ? '-' : w.available].forEach(function (n) {
        tr.appendChild(el('td', 'num', n));
      });
      var phase = el('td');
      phase.appendChild(el('span', 'phase ' + w.phase, w.phase));
      tr.appendChild(phase);
      tr.appendChild(el('td', '', w.age));
      var cell = el('td');
      if (w.action) cell.appendChild(actionButton(w.id, w.action));
      tr.appendChild(cell);
      tr.addEventListener('click', function () { select(w.id); });
      body.appendChild(tr);
    });
    $('empty').hidden = view.items.length > 0;
    $('phases').textContent = Object.keys(view.phases).map(function (p) { return view.phases[p] + ' ' + p; }).join(' · ');
  }

  function renderDetail(d) {
    $('detail').hidden = false;
    $('detail').dataset.id = d.item.id;
    $('detail-title').textContent = d.item.title + ' ' + (d.item.namespace ? d.item.namespace + '/' : '') + d.item.name;
    var phase = $('detail-phase');
    phase.className = 'phase ' + d.item.phase;
    phase.textContent = d.item.phase;
    var button = $('detail-action');
    var action = d.paused ? 'resume' : 'pause';
    button.hidden = !d.item.pausable;
    button.textContent = d.paused ? 'Resume' : 'Pause';
    button.dataset.action = action;
    button.onclick = function () { act(d.item.id, action); };
    $('summary').textContent = d.summary;
    $('pods').textContent = d.pods.join('\\n');
  }

  function renderTrace(t) {
    var box = $('waterfall');
    box.textContent = '';
    $('trace-id').textContent = t.traceId ? t.traceId + (t.spans ? ' · ' + t.spans + ' spans' : '') : '';
    $('trace-note').textContent = t.message || (t.done ? '' : 'rollout in progress');
    $('totals').textContent = t.waterfall ? t.waterfall.totals : '';
    if (!t.waterfall) return;
    ['START', 'DURATION', 'SPAN', 'POD/SUBSET', 'DETAIL', ''].forEach(function (h) { box.appendChild(el('span', 'head', h)); });
    t.waterfall.bars.forEach(function (b) {
      [b.start, b.duration, b.name, b.target || '-', b.detail || '-'].forEach(function (c) { box.appendChild(el('span', 'cell', c)); });
      var track = el('div', 'track');
      var bar = el('div', 'bar ' + b.kind + (b.detail === 'recreate' ? ' recreate' : '') + (b.open ? ' open' : ''));
      bar.style.left = b.leftPct + '%';
      bar.style.width = b.widthPct + '%';
      bar.title = b.name + (b.target ? ' ' + b.target : '') + ': ' + b.duration;
      track.appendChild(bar);
      box.appendChild(track);
    });
    for (var i = 0; i < 5; i++) box.appendChild(el('span'));
    var axis = el('div', 'axis');
    t.waterfall.ticks.forEach(function (tick) { axis.appendChild(el('span', '', tick)); });
    box.appendChild(axis);
  }

  var timer;
  var generation = 0;
  function refresh() {
    clearTimeout(timer);
    var mine = ++generation;
    var jobs = [call('/api/workloads').then(function (v) { setError('list', ''); if (mine === generation) renderList(v); }, function (e) {
      setError('list', 'workloads: ' + e.message);
    })];
    if (selected) {
      var q = refOf(selected).toString();
      jobs.push(call('/api/workload?' + q).then(function (d) { setError('detail', ''); if (mine === generation) renderDetail(d); }, function (e) {
        setError('detail', selected.split('/').slice(1).join('/') + ': ' + e.message);
        $('detail').hidden = true;
      }));
      jobs.push(call('/api/trace?' + q).then(function (t) { setError('trace', ''); if (mine === generation) renderTrace(t); }, function (e) {
        setError('trace', 'trace: ' + e.message);
      }));
    } else {
      $('detail').hidden = true;
    }
    Promise.all(jobs).then(function () {
      $('updated').textContent = new Date().toLocaleTimeString();
      // a refresh started meanwhile (a click) schedules the next one
      if (mine === generation) timer = setTimeout(refresh, config.refreshMs);
    });
  }

  window.addEventListener('hashchange', function () {
    selected = decodeURIComponent(location.hash.slice(1));
    refresh();
  });
  refresh();
})();
`;
