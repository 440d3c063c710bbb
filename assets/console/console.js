// The console's one script (served as is, no build step). Every value from the archive is written as
// text (textContent, attribute values, SVG numbers), never as HTML: archived text was written by
// attackers. Each page keeps its view in the URL, so a reloaded or shared URL shows the same view.
import { timeSeries } from './chart-data.js';

/** An element with text and attributes; children appended as given. */
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child instanceof Node ? child : String(child ?? ''));
  return node;
}

const status = (text, isError = false) => {
  const p = document.getElementById('status');
  p.textContent = text;
  p.className = isError ? 'error' : '';
};

/** GET a JSON API; a problem (RFC 9457) becomes an Error with its detail. */
async function api(path, params) {
  const res = await fetch(`${path}?${params}`, { headers: { Accept: 'application/json' } });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(body.detail ?? `HTTP ${res.status}`);
  return body;
}

const cellText = (v) =>
  v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** A table of rows (objects) under `columns`. */
function fillTable(table, columns, rows) {
  table.replaceChildren(el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c))));
  for (const row of rows) {
    const values = Object.values(row);
    table.append(
      el(
        'tr',
        {},
        ...values.map((v) =>
          el('td', typeof v === 'number' ? { class: 'num' } : {}, v instanceof Node ? v : cellText(v)),
        ),
      ),
    );
  }
}

/** The form's fields from the URL, and the URL from the form (empty values left out). */
function formFromUrl(form) {
  const params = new URLSearchParams(location.search);
  for (const input of form.elements)
    if (input.name && params.has(input.name)) input.value = params.get(input.name);
  return params;
}
function urlFromForm(form) {
  const params = new URLSearchParams();
  for (const input of form.elements)
    if (input.name && input.value !== '') params.set(input.name, input.value);
  return params;
}

/** Links that download `path`'s answer to `params` in each format (the file's name is the server's). */
function downloadLinks(id, path, params) {
  const links = ['ndjson', 'csv', 'parquet'].map((format) => {
    const q = new URLSearchParams(params);
    q.set('format', format);
    return el('a', { href: `${path}?${q}`, download: '' }, format.toUpperCase());
  });
  document.getElementById(id).replaceChildren('Download: ', ...links.flatMap((a) => [a, ' ']));
}

// ---- Overview: the ledger calendar ----
const STATES = ['complete', 'partial', 'running', 'failed', 'expired', 'not fetched'];
const stateClass = (s) => `state-${String(s).replace(/[^a-z]+/g, '-')}`;

async function overview() {
  const form = document.getElementById('range');
  const load = async () => {
    const params = urlFromForm(form);
    history.replaceState(null, '', `?${params}`);
    status('loading…');
    try {
      const cal = await api('/api/v1/ledger', params);
      renderCalendar(cal);
      form.elements.from.value = cal.from;
      form.elements.to.value = cal.to;
      status(`${cal.rows.length} zones, ${cal.from} to ${cal.to}`);
    } catch (err) {
      status(err.message, true);
    }
  };
  formFromUrl(form);
  void api('/api/v1/overview', '').then(renderHealth, (err) => status(err.message, true));
  document
    .getElementById('legend')
    .replaceChildren(...STATES.map((s) => el('span', { class: stateClass(s) }, s)));
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  await load();
}

/** A span of time as people read it: 42 s, 7 min, 3 h 12 min, 2 d 4 h. */
function span(ms) {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

const iso = (ms) => (ms === null || ms === undefined ? '' : new Date(Number(ms)).toISOString());

/** A link to a zone's dashboard (the zone is a number from the ledger, the source a fixed word). */
function zoneLink(source, zone) {
  const link = el('a', {}, zone);
  link.href = `/dashboard.html?${new URLSearchParams({ source, zone: String(zone), last: '7d' })}`;
  return link;
}

/** Lag per zone, the alerts firing, the history's size, the queue (GET /api/v1/overview). */
function renderHealth(o) {
  fillTable(
    document.getElementById('lag'),
    ['source', 'zone', 'covered until', 'behind', 'last complete day'],
    o.zones.map((z) => ({
      source: z.source,
      zone: zoneLink(z.source, z.zone),
      covered: iso(z.coveredUntil),
      behind: z.lagMs === null ? 'never covered' : span(z.lagMs),
      complete: z.lastCompleteDay ?? '',
    })),
  );
  const firing = document.getElementById('firing');
  if (o.firing.length === 0) firing.replaceChildren(el('caption', {}, 'none'));
  else
    fillTable(
      firing,
      ['rule', 'source', 'zone or labels', 'since', 'value', 'threshold'],
      o.firing.map((f) => ({ ...f, since: iso(f.since) })),
    );
  const h = o.history;
  document.getElementById('history-size').textContent =
    h && h.days > 0
      ? `${h.days} zone-days merged, ${h.entries} entries, ${h.bytes} bytes` +
        (h.bytesPerEntry === null ? '' : ` (${h.bytesPerEntry} bytes per entry)`)
      : 'nothing merged yet';
  const q = o.queue;
  document.getElementById('queue').textContent =
    q === null
      ? 'not known (the console was not told where Redis is)'
      : q.up
        ? `${q.redis}: ` +
          Object.entries(q.counts)
            .map(([state, n]) => `${n} ${state}`)
            .join(', ')
        : 'Redis does not answer';
}

function renderCalendar(cal) {
  const table = document.getElementById('calendar');
  table.replaceChildren(
    el(
      'tr',
      {},
      el('th', {}, 'source'),
      el('th', {}, 'zone'),
      ...cal.days.map((d) => el('th', { scope: 'col' }, d.slice(5))),
    ),
  );
  for (const row of cal.rows) {
    const cells = row.cells.map((c) => {
      const hover =
        `${row.source} ${row.zone} ${c.day}: ${c.state}; ${c.archived} archived` +
        (c.quarantined ? `, ${c.quarantined} quarantined` : '') +
        (c.lastError ? `; ${c.lastError}` : '');
      const link = el('a', { title: hover, 'aria-label': hover }, '');
      const to = new Date(Date.parse(`${c.day}T00:00:00Z`) + 86400000).toISOString();
      link.href = `/explorer.html?${new URLSearchParams({ source: row.source, zone: String(row.zone), from: `${c.day}T00:00:00Z`, to })}`;
      return el('td', { class: stateClass(c.state) }, link);
    });
    table.append(el('tr', {}, el('td', {}, row.source), el('td', { class: 'num' }, row.zone), ...cells));
  }
}

// ---- Explorer ----
const FIELDS = {
  origin: ['status', 'code', 'region'],
  shield: ['status', 'rule', 'severity', 'country', 'asn', 'method', 'region'],
};

/** How often the live tail asks for newer lines, ms. */
const TAIL_MS = 2000;

async function explorer() {
  const form = document.getElementById('filters');
  const fields = document.getElementById('fields');
  const more = document.getElementById('more');
  const live = document.getElementById('live');
  let next = null;
  // Where the live tail goes on from (the newest line shown), and which search it belongs to.
  let newest = null;
  let generation = 0;
  let timer = null;
  const drawFields = () => {
    const source = form.elements.source.value;
    fields.replaceChildren(
      ...FIELDS[source].map((f) => el('label', {}, f, el('input', { name: f, size: 8 }))),
    );
  };
  const shownCount = () => document.querySelectorAll('#lines tr.line').length;
  /** The page's URL: the filter, and whether the tail is live. */
  const remember = () => {
    const params = urlFromForm(form);
    if (live.checked) params.set('live', '1');
    history.replaceState(null, '', `?${params}`);
  };
  const search = async (append) => {
    const params = urlFromForm(form);
    if (!append) {
      remember();
      generation++;
    }
    if (append && next) params.set('cursor', next);
    status('loading…');
    try {
      const page = await api('/api/v1/logs', params);
      if (page.histogram) drawHistogram(page.histogram, page.from, page.to);
      if (!append) void api('/api/v1/facets', urlFromForm(form)).then((f) => drawFacets(f, form, search));
      drawLines(page, append ? 'append' : 'replace');
      if (!append) {
        newest = page.newest;
        // The result shown: its range as the server fixed it (a preset would move on by the click).
        const shown = urlFromForm(form);
        shown.delete('last');
        shown.set('from', String(page.from));
        shown.set('to', String(page.to));
        downloadLinks('downloads', '/api/v1/logs/download', shown);
        startTail();
      }
      next = page.next;
      more.hidden = next === null;
      status(`${shownCount()} lines shown${next ? ', more below' : ''}`);
    } catch (err) {
      status(err.message, true);
    }
  };
  /** Live tail: the lines stored since, newest on top, asked for every TAIL_MS while it is on. */
  const tail = async () => {
    timer = null;
    const mine = generation;
    if (!live.checked || newest === null) return;
    const params = urlFromForm(form);
    params.set('after', newest);
    params.set('limit', '1000');
    let wait = TAIL_MS;
    try {
      const page = await api('/api/v1/logs', params);
      if (mine !== generation) return;
      drawLines(page, 'prepend');
      newest = page.newest;
      if (page.lines.length > 0) status(`${shownCount()} lines shown; ${page.lines.length} new (live)`);
      if (page.more) wait = 0;
    } catch (err) {
      status(err.message, true);
      wait = TAIL_MS * 5;
    }
    if (mine === generation && timer === null) timer = setTimeout(() => void tail(), wait);
  };
  const startTail = () => {
    if (live.checked && timer === null) timer = setTimeout(() => void tail(), TAIL_MS);
  };
  const params = new URLSearchParams(location.search);
  form.elements.source.value = params.get('source') === 'shield' ? 'shield' : 'origin';
  drawFields();
  formFromUrl(form);
  live.checked = params.get('live') === '1';
  if (!params.has('last') && !params.has('from')) form.elements.last.value = '24h';
  form.elements.source.addEventListener('change', drawFields);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void search(false);
  });
  live.addEventListener('change', () => {
    remember();
    startTail();
  });
  more.addEventListener('click', () => void search(true));
  await search(false);
}

const SVG = 'http://www.w3.org/2000/svg';
const CHART_WIDTH = 1000;

/** A chart of `height` units stretched to its box; bars are added with bar(). */
function chart(height) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${CHART_WIDTH} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  return svg;
}

/** A bar (numbers only as attributes) with its tooltip (as text). */
function bar(svg, { x, y, width, height, tip, cls }) {
  const rect = document.createElementNS(SVG, 'rect');
  rect.setAttribute('x', String(Math.max(0, x)));
  rect.setAttribute('y', String(y));
  rect.setAttribute('width', String(width));
  rect.setAttribute('height', String(height));
  if (cls) rect.setAttribute('class', cls);
  const title = document.createElementNS(SVG, 'title');
  title.textContent = tip;
  rect.append(title);
  svg.append(rect);
}

/**
 * Lines (SVG polylines, numbers only as attributes) of `data` (chart-data.js's shape: series of [ms,
 * value] points, the extent of both axes) into `figure`, with the axes' ends and a legend as text.
 */
function drawLineChart(figure, data, caption) {
  const height = 160;
  const svg = chart(height);
  svg.classList.add('lines');
  const span = Math.max(1, data.to - data.from);
  const range = Math.max(1, data.max - data.min);
  data.series.forEach((s, i) => {
    const line = document.createElementNS(SVG, 'polyline');
    const points = s.points.map(([t, v]) => {
      const x = ((t - data.from) / span) * CHART_WIDTH;
      const y = height - ((v - data.min) / range) * height;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    });
    line.setAttribute('points', points.join(' '));
    line.setAttribute('class', `series-${i % 6}`);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = s.name;
    line.append(title);
    svg.append(line);
    // Few points: each a dot with its figures (one point alone draws no line).
    if (s.points.length <= 100)
      for (const [t, v] of s.points) {
        const dot = document.createElementNS(SVG, 'circle');
        dot.setAttribute('cx', (((t - data.from) / span) * CHART_WIDTH).toFixed(1));
        dot.setAttribute('cy', (height - ((v - data.min) / range) * height).toFixed(1));
        dot.setAttribute('r', '3');
        dot.setAttribute('class', `series-${i % 6}`);
        const tip = document.createElementNS(SVG, 'title');
        tip.textContent = `${iso(t)} ${s.name}: ${v}`;
        dot.append(tip);
        svg.append(dot);
      }
  });
  figure.replaceChildren(
    el('div', { class: 'axis' }, String(data.max)),
    svg,
    el('div', { class: 'axis' }, `${data.min}`, el('span', {}, `${iso(data.from)} – ${iso(data.to)}`)),
    el('figcaption', {}, caption),
    el(
      'div',
      { class: 'legend' },
      ...data.series.map((s, i) => el('span', { class: `kind-${i % 6}` }, s.name)),
    ),
  );
}

function drawHistogram(h, from, to) {
  const height = 90;
  const svg = chart(height);
  const max = Math.max(1, ...h.bars.map((b) => Number(b.count)));
  const span = Math.max(1, to - from);
  const width = Math.max(1, (h.bucketMs / span) * CHART_WIDTH - 1);
  for (const b of h.bars) {
    const y = height - (Number(b.count) / max) * height;
    bar(svg, {
      x: ((Number(b.bucket) - from) / span) * CHART_WIDTH,
      y,
      width,
      height: height - y,
      tip: `${new Date(Number(b.bucket)).toISOString()}: ${b.count}`,
    });
  }
  const total = h.bars.reduce((n, b) => n + Number(b.count), 0);
  document.getElementById('histogram').replaceChildren(svg, el('figcaption', {}, `${total} matches`));
}

/** The top values of each field; a click filters on one. */
function drawFacets(f, form, search) {
  const lists = Object.entries(f.facets).map(([field, values]) =>
    el(
      'details',
      { open: '' },
      el('summary', {}, field),
      el(
        'ul',
        {},
        ...values.map((v) => {
          const button = el(
            'button',
            { type: 'button' },
            `${v.value ?? '(none)'} `,
            el('span', { class: 'count' }, v.count),
          );
          if (v.value === null) button.disabled = true;
          button.addEventListener('click', () => {
            form.elements[field].value = v.value;
            void search(false);
          });
          return el('li', {}, button);
        }),
      ),
    ),
  );
  document.getElementById('facets').replaceChildren(...lists);
}

/** The raw log pretty-printed when it is JSON, as received otherwise. */
function prettyLog(log) {
  try {
    return JSON.stringify(JSON.parse(log), null, 2);
  } catch {
    return String(log ?? '');
  }
}

/** Lines into the table: a new page, the next page below, or the live tail's newer lines on top. */
function drawLines(page, mode) {
  const table = document.getElementById('lines');
  const shown = page.columns.filter((c) => c !== 'log' && c !== 'timestamp');
  if (mode === 'prepend' && table.rows.length === 0) return;
  if (mode === 'replace')
    table.replaceChildren(
      el('tr', {}, el('th', {}, 'time'), ...shown.map((c) => el('th', { scope: 'col' }, c))),
    );
  for (const line of page.lines) {
    const row = lineRow(line, shown);
    // The tail's lines come oldest first: each goes on top of the one before.
    if (mode === 'prepend') {
      row.classList.add('new');
      table.rows[0].after(row);
    } else table.append(row);
  }
}

function lineRow(line, shown) {
  const row = el(
    'tr',
    { class: 'line', tabindex: 0, 'aria-expanded': 'false' },
    el('td', {}, new Date(Number(line.timestamp)).toISOString()),
    ...shown.map((c) => el('td', {}, cellText(line[c]))),
  );
  const toggle = () => {
    const open = row.nextElementSibling?.classList.contains('detail');
    if (open) row.nextElementSibling.remove();
    else
      row.after(
        el(
          'tr',
          { class: 'detail' },
          el('td', { colspan: shown.length + 1 }, el('pre', {}, prettyLog(line.log))),
        ),
      );
    row.setAttribute('aria-expanded', String(!open));
  };
  row.addEventListener('click', toggle);
  row.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      toggle();
    }
  });
  return row;
}

// ---- SQL ----
async function sqlPage() {
  const form = document.getElementById('statement');
  const run = async () => {
    const sql = form.elements.sql.value;
    history.replaceState(null, '', `?${new URLSearchParams({ sql })}`);
    status('running…');
    const started = performance.now();
    try {
      const r = await api('/api/v1/query', new URLSearchParams({ sql }));
      fillTable(document.getElementById('result'), r.columns, r.rows);
      drawResultChart(r.columns, r.rows);
      downloadLinks('downloads', '/api/v1/query/download', new URLSearchParams({ sql }));
      document.getElementById('bounds').textContent = `limit ${r.limit} rows, timeout ${r.timeoutMs / 1000}s`;
      const ms = Math.round(performance.now() - started);
      status(`${r.count} rows${r.more ? ` (the first ${r.limit}; there are more)` : ''} in ${ms} ms`);
    } catch (err) {
      status(err.message, true);
    }
  };
  formFromUrl(form);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  const relations = schemaPanel();
  void relations.then((r) => editor(form.elements.sql, r));
  if (form.elements.sql.value.trim() !== '') await run();
}

/**
 * CodeMirror in place of the textarea (the bundle /sql-editor.js, built by `npm run build`). Loaded
 * apart, so the other pages never pay for it; when it cannot load, the textarea stays, and works.
 */
async function editor(textarea, relations) {
  try {
    const { sqlEditor } = await import('/sql-editor.js');
    sqlEditor(textarea, relations);
    document.body.dataset.editor = 'codemirror';
  } catch {
    document.body.dataset.editor = 'textarea';
  }
}

/** The schema panel; the relations, for the editor's completion ([] when the schema cannot be read). */
async function schemaPanel() {
  try {
    const { relations } = await api('/api/v1/schema', '');
    document
      .getElementById('schema')
      .replaceChildren(
        ...relations.map((r) =>
          el(
            'details',
            {},
            el('summary', { title: r.about }, r.name),
            el('ul', {}, ...r.columns.map((c) => el('li', {}, `${c.name} ${c.type}`))),
          ),
        ),
      );
    return relations;
  } catch (err) {
    status(err.message, true);
    return [];
  }
}

/** A line per numeric column against the result's time column (chart-data.js), or none. */
function drawResultChart(columns, rows) {
  const figure = document.getElementById('chart');
  const data = timeSeries(columns, rows);
  figure.hidden = data === null;
  if (data === null) return figure.replaceChildren();
  drawLineChart(figure, data, `${data.series.map((s) => s.name).join(', ')} by ${data.time} (UTC)`);
}

// ---- Alerts and silences ----
/** POST JSON with the page's CSRF token (the server also checks the Origin and the session cookie). */
async function write(path, body, csrf) {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Edgelog-CSRF': csrf },
    body: JSON.stringify(body),
  });
  const answer = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(answer.detail ?? `HTTP ${res.status}`);
  return answer;
}

/** The silence form as the API takes it: zones and matchers as lists. */
function silenceForm(form) {
  return {
    rule: form.elements.rule.value,
    zones: form.elements.zone.value.split(/[\s,]+/).filter(Boolean),
    match: form.elements.match.value
      .split('\n')
      .map((m) => m.trim())
      .filter(Boolean),
    for: form.elements.for.value,
    comment: form.elements.comment.value || null,
  };
}

async function alertsPage() {
  const form = document.getElementById('silence');
  const { csrf } = await api('/api/v1/session', '');
  if (csrf === null) {
    for (const input of form.elements) input.disabled = true;
    status('this console has no token, so it only reads: make silences with edgelog alerts silence');
  }
  const load = async () => {
    try {
      const v = await api('/api/v1/alerts', '');
      if (form.elements.rule.options.length === 0)
        form.elements.rule.replaceChildren(...v.rules.map((r) => el('option', { value: r.name }, r.name)));
      fillTable(
        document.getElementById('states'),
        ['rule', 'source', 'zone', 'state', 'since', 'value', 'threshold'],
        v.states.map((s) => ({ ...s, since: iso(s.since) })),
      );
      drawSilences(v.silences);
      fillTable(
        document.getElementById('notices'),
        ['id', 'hook', 'rule', 'zone', 'status', 'created', 'delivered', 'attempts', 'last error'],
        v.notices.map((n) => ({ ...n, created_at: iso(n.created_at), delivered_at: iso(n.delivered_at) })),
      );
    } catch (err) {
      status(err.message, true);
    }
  };
  const drawSilences = (silences) => {
    const table = document.getElementById('silences');
    fillTable(
      table,
      ['id', 'matchers', 'state', 'ends', 'comment', ''],
      silences.map((s) => ({
        id: s.id,
        matchers: s.matchers,
        state: s.state,
        ends: iso(s.endsAt),
        comment: s.comment,
      })),
    );
    silences.forEach((s, i) => {
      const button = el('button', { type: 'button' }, 'Expire');
      button.disabled = csrf === null || s.state === 'expired';
      button.addEventListener('click', async () => {
        try {
          await write('/api/v1/silences/expire', { id: s.id }, csrf);
          status(`silence ${s.id} expired`);
          await load();
        } catch (err) {
          status(err.message, true);
        }
      });
      table.rows[i + 1].append(el('td', {}, button));
    });
  };
  // The live preview: the alerts the silence would hold now, as the form changes.
  let pending = null;
  const preview = async () => {
    const f = silenceForm(form);
    const params = new URLSearchParams({ rule: f.rule, for: f.for });
    for (const z of f.zones) params.append('zone', z);
    for (const m of f.match) params.append('match', m);
    try {
      const p = await api('/api/v1/silences/preview', params);
      document.getElementById('preview').textContent =
        `${p.silence.matchers} would hold ${p.alerts.length} alert${p.alerts.length === 1 ? '' : 's'} now`;
      fillTable(
        document.getElementById('held'),
        ['rule', 'state', 'labels'],
        p.alerts.map((a) => ({ rule: a.rule, state: a.state, labels: JSON.stringify(a.labels) })),
      );
    } catch (err) {
      document.getElementById('preview').textContent = err.message;
    }
  };
  form.addEventListener('input', () => {
    clearTimeout(pending);
    pending = setTimeout(() => void preview(), 250);
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    try {
      const s = await write('/api/v1/silences', silenceForm(form), csrf);
      status(`silence ${s.id} made: ${s.matchers}`);
      await load();
    } catch (err) {
      status(err.message, true);
    }
  });
  await load();
  if (form.elements.rule.options.length > 0) await preview();
}

// ---- Zone dashboards ----
/** What each source's second panel splits by, as its heading says. */
const DETAIL_TITLES = {
  code: 'origin errors per hour by error code',
  rule: 'Shield events per hour by rule',
};

async function dashboardPage() {
  const form = document.getElementById('zone');
  const load = async () => {
    const params = urlFromForm(form);
    history.replaceState(null, '', `?${params}`);
    status('loading…');
    try {
      const d = await api('/api/v1/dashboard', params);
      drawStacked('hourly', d.hourly, d.from, d.to);
      document.getElementById('detail-title').textContent = DETAIL_TITLES[d.detail.split];
      drawStacked('hourly-detail', d.detail.hourly, d.from, d.to);
      drawGuardian(d.guardian, d.zones);
      document.getElementById('top').replaceChildren(
        ...Object.entries(d.top).map(([field, values]) => {
          const table = el('table', {});
          fillTable(table, [field, 'count'], values);
          return el('section', {}, el('h2', {}, `top ${field}`), table);
        }),
      );
      const total = d.hourly.reduce((n, b) => n + Number(b.count), 0);
      status(`${total} ${d.source === 'origin' ? 'origin errors' : 'Shield events'}`);
    } catch (err) {
      status(err.message, true);
    }
  };
  const params = formFromUrl(form);
  if (!params.has('last') && !params.has('from')) form.elements.last.value = '7d';
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void load();
  });
  if (form.elements.zone.value !== '') await load();
}

/** Each hour's total per kind, its kinds, and the total of each kind over the range. */
function drawStacked(id, bars, from, to) {
  const height = 120;
  const svg = chart(height);
  const hours = new Map();
  for (const b of bars) hours.set(Number(b.hour), (hours.get(Number(b.hour)) ?? 0) + Number(b.count));
  const max = Math.max(1, ...hours.values());
  const span = Math.max(1, to - from);
  const kinds = [...new Set(bars.map((b) => b.kind))].sort();
  const totals = new Map(kinds.map((k) => [k, 0]));
  const stacked = new Map();
  for (const b of bars) {
    const hour = Number(b.hour);
    const below = stacked.get(hour) ?? 0;
    stacked.set(hour, below + Number(b.count));
    totals.set(b.kind, totals.get(b.kind) + Number(b.count));
    const h = (Number(b.count) / max) * height;
    bar(svg, {
      x: ((hour - from) / span) * CHART_WIDTH,
      y: height - (below / max) * height - h,
      width: Math.max(1, (3_600_000 / span) * CHART_WIDTH - 1),
      height: h,
      tip: `${new Date(hour).toISOString()} ${b.kind}: ${b.count}`,
      cls: `kind-${kinds.indexOf(b.kind) % 6}`,
    });
  }
  // The legend says each kind's total over the range, so a panel's figures can be read, not only seen.
  document.getElementById(id).replaceChildren(
    svg,
    el('figcaption', {}, 'per hour (UTC)'),
    el(
      'div',
      { class: 'legend' },
      ...kinds.map((k, i) =>
        // <bdi>: a kind is archived text, whose bidirectional controls must not reorder the count.
        el(
          'span',
          { class: `kind-${i % 6}`, 'data-kind': k },
          el('bdi', {}, k),
          ' ',
          el('b', {}, totals.get(k)),
        ),
      ),
    ),
  );
}

/** Readable names of the Guardian counters (api_guardian_snapshots' columns). */
const GUARDIAN_NAMES = {
  total_requests_inspected: 'inspected',
  total_blocked_requests: 'blocked',
  total_logged_requests: 'logged',
  total_rate_limited: 'rate limited',
  total_failed_request_validation: 'failed validation',
  total_failed_authentication_enforcement: 'failed authentication',
};

/**
 * The Guardian counters of each Shield zone asked for, a block each (never summed: they are a zone's own,
 * one API call per zone): each counter's growth per snapshot as lines, and a table of each counter's
 * latest value and its growth over the range (the sum of its deltas). Hidden for origin.
 */
function drawGuardian(g, zones) {
  const section = document.getElementById('guardian');
  section.hidden = g === null;
  if (g === null) return;
  const byZone = new Map(zones.map((z) => [z, []]));
  for (const s of g.snapshots) {
    const zone = Number(s.shield_zone_id);
    if (!byZone.has(zone)) byZone.set(zone, []);
    byZone.get(zone).push(s);
  }
  document.getElementById('guardian-zones').replaceChildren(
    ...[...byZone].map(([zone, snaps]) => {
      const figure = el('figure', { class: 'chart' });
      const table = el('table', {});
      drawZoneGuardian(g.counters, snaps, figure, table);
      return el(
        'section',
        { class: 'guardian-zone', 'data-zone': zone },
        el('h3', {}, `zone ${zone}`),
        figure,
        table,
      );
    }),
  );
}

/** One zone's snapshots (oldest first) as its chart and table. */
function drawZoneGuardian(counters, snaps, figure, table) {
  const name = (c) => GUARDIAN_NAMES[c] ?? c;
  const rows = snaps.map((s) => ({
    taken_at: s.taken_at,
    ...Object.fromEntries(counters.map((c) => [name(c), s[`${c}_delta`]])),
  }));
  const data = timeSeries(['taken_at', ...counters.map(name)], rows);
  if (data === null)
    figure.replaceChildren(el('figcaption', {}, `${snaps.length} snapshots in the range: too few to draw`));
  else drawLineChart(figure, data, 'growth since the previous snapshot');
  const latest = snaps[snaps.length - 1];
  fillTable(
    table,
    ['counter', 'latest', 'growth in the range'],
    counters.map((c) => ({
      counter: name(c),
      latest: latest?.[c] ?? '',
      growth: snaps.reduce((n, s) => n + Number(s[`${c}_delta`] ?? 0), 0),
    })),
  );
}

const PAGES = { overview, explorer, sql: sqlPage, alerts: alertsPage, dashboard: dashboardPage };
void PAGES[document.body.dataset.page]?.();
