// `edgelog serve`'s JSON API over real loopback HTTP, against an archive synced from the simulator's
// hostile data (one day in the history's parts, one in the store): it answers what `edgelog query`
// answers, pages by keyset without losing or repeating a line, sends archived markup and escapes as
// inert JSON, refuses writes, and answers failures as problem details.
import { request } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HOSTILE_TEXT } from '../../src/simulator/index.js';
import type { ConsoleServer } from '../../src/console/server.js';
import { encodeCursor } from '../../src/console/logs-request.js';
import { runCli } from '../support/cli.js';
import { describeStores } from '../support/stores.js';
import { consoleArchive, DAYS, serveArchive, SHIELD_201_VIEW, type ConsoleArchive } from './support.js';

interface Got {
  status: number;
  type: string | null;
  headers: Headers;
  text: string;
  json: Record<string, unknown>;
}

describeStores('edgelog serve: the API', (store) => {
  let a: ConsoleArchive;
  let server: ConsoleServer;

  beforeAll(async () => {
    a = await consoleArchive(store);
    server = await serveArchive(a);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
    await a?.h.close();
  });

  const get = async (
    path: string,
    params: Record<string, string> = {},
    headers: Record<string, string> = {},
  ): Promise<Got> => {
    const res = await fetch(new URL(`${path}?${new URLSearchParams(params).toString()}`, server.url), {
      headers,
    });
    const text = await res.text();
    let json: Record<string, unknown> = {};
    try {
      json = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // a page, not JSON
    }
    return {
      status: res.status,
      type: res.headers.get('content-type'),
      headers: res.headers,
      text,
      json,
    };
  };

  /** `edgelog query --json <sql>` as a user runs it (the built CLI). */
  const cliQuery = async (sql: string) => {
    const r = await runCli(['--config', a.configPath, 'query', '--json', sql], { cwd: a.h.dir });
    // A PostgreSQL test server's superuser draws the reader-role warning; nothing else may be said.
    expect(r.stderr.replace(/^edgelog: warning: query runs as the role .*\n/m, '')).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as unknown[];
  };

  it('answers a statement with the rows `edgelog query --json` gives', async () => {
    for (const sql of [
      'SELECT shield_zone_id, log_id, timestamp, time, url, message, country, log FROM shield_event_logs ORDER BY timestamp, log_id',
      'SELECT log_date, status_code, count(*) AS n FROM origin_error_logs GROUP BY ALL ORDER BY ALL',
      'SELECT source, zone_id, log_date, state, archived_entries FROM ingest_ledger ORDER BY ALL',
    ]) {
      const r = await get('/api/v1/query', { sql, limit: '1000' });
      expect(r.status).toBe(200);
      expect(r.json.more).toBe(false);
      expect((r.json.rows as unknown[]).length).toBeGreaterThan(0);
      expect(r.json.rows).toEqual(await cliQuery(sql));
    }
  });

  it('bounds an answer by its row limit and says there are more', async () => {
    const r = await get('/api/v1/query', { sql: 'SELECT log_id FROM origin_error_logs', limit: '5' });
    expect(r.json).toMatchObject({ count: 5, more: true, limit: 5, timeoutMs: 30_000 });
    expect(await get('/api/v1/query', { sql: 'SELECT 1', limit: '1000000' })).toMatchObject({ status: 400 });
  });

  it('sends archived markup and terminal escapes as inert JSON text, exactly as archived', async () => {
    const r = await get('/api/v1/query', {
      sql: 'SELECT url, message, log FROM shield_event_logs ORDER BY timestamp LIMIT 3',
    });
    expect(r.type).toBe('application/json; charset=utf-8');
    for (const c of ['<', '>', '\x1b', '\x07', '\u009b', '\u202e']) expect(r.text).not.toContain(c);
    expect(r.text).toContain('\\u003cscript\\u003e');
    const rows = r.json.rows as Array<{ url: string; message: string; log: string }>;
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(row.url.startsWith(HOSTILE_TEXT)).toBe(true);
      expect(row.log).toContain('<img src=x onerror=alert(2)>');
    }
  });

  it.each([
    ['a write', 'DELETE FROM origin_error_logs', 'query refused'],
    ['two statements', 'SELECT 1; SELECT 2', 'query refused'],
    ['a file outside the history', "SELECT * FROM read_text('/etc/passwd')", 'query refused'],
    ['a table that does not exist', 'SELECT * FROM nothing_here', 'query failed'],
  ])('refuses %s with a problem, no stack', async (_what, sql, title) => {
    const r = await get('/api/v1/query', { sql });
    expect(r.status).toBe(400);
    expect(r.type).toBe('application/problem+json; charset=utf-8');
    expect(r.json).toMatchObject({ status: 400, title });
    expect(r.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
    expect(await get('/api/v1/query', { sql: 'SELECT count(*) AS n FROM origin_error_logs' })).toMatchObject({
      status: 200,
    });
  });

  it("stops a statement at the server's time bound", async () => {
    const r = await get('/api/v1/query', {
      sql: 'SELECT count(*) FROM range(1000000) a, range(1000000) b',
      timeout: '200',
    });
    expect(r.status).toBe(504);
    expect(r.json.detail).toMatch(/query stopped after/);
  });

  it('pages the explorer newest first by (timestamp, log_id): every line once, as many as the histogram counts', async () => {
    const filter = SHIELD_201_VIEW;
    const seen: Array<{ timestamp: number; log_id: string }> = [];
    let cursor: string | null = null;
    let histogram: { bars: Array<{ count: number }> } | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const r = await get('/api/v1/logs', { ...filter, limit: '7', ...(cursor ? { cursor } : {}) });
      expect(r.status).toBe(200);
      if (pages === 0) histogram = r.json.histogram as typeof histogram;
      else expect(r.json.histogram).toBe(null);
      seen.push(...(r.json.lines as typeof seen));
      cursor = r.json.next as string | null;
      if (cursor === null) break;
    }
    const expected = (await cliQuery(
      `SELECT timestamp, log_id FROM shield_event_logs WHERE shield_zone_id = 201 ORDER BY timestamp DESC, log_id DESC`,
    )) as typeof seen;
    expect(expected.length).toBeGreaterThan(50);
    expect(seen.map((l) => [l.timestamp, l.log_id])).toEqual(expected.map((l) => [l.timestamp, l.log_id]));
    expect(histogram!.bars.reduce((n, b) => n + Number(b.count), 0)).toBe(expected.length);
  });

  it('tails the explorer: the lines after a cursor, oldest first, and the cursor to go on from', async () => {
    const filter = SHIELD_201_VIEW;
    type Line = { timestamp: number; log_id: string };
    const all = (await cliQuery(
      'SELECT timestamp, log_id FROM shield_event_logs WHERE shield_zone_id = 201 ORDER BY timestamp, log_id',
    )) as Line[];
    const cursor = (l: Line) => encodeCursor({ timestamp: l.timestamp, logId: l.log_id });
    const first = await get('/api/v1/logs', { ...filter, limit: '1' });
    expect(first.json.newest).toBe(cursor(all[all.length - 1]!));
    const mid = Math.floor(all.length / 2);
    const tail = await get('/api/v1/logs', { ...filter, after: cursor(all[mid]!), limit: '1000' });
    expect(tail.status).toBe(200);
    expect((tail.json.lines as Line[]).map(cursor)).toEqual(all.slice(mid + 1).map(cursor));
    expect(tail.json).toMatchObject({ histogram: null, next: null, more: false, newest: first.json.newest });
    // Bounded like a page, and told to go on at once.
    const some = await get('/api/v1/logs', { ...filter, after: cursor(all[mid]!), limit: '3' });
    expect(some.json).toMatchObject({ more: true, newest: cursor(all[mid + 3]!) });
    const none = await get('/api/v1/logs', { ...filter, after: first.json.newest as string });
    expect(none.json).toMatchObject({ lines: [], newest: first.json.newest });
    expect(
      await get('/api/v1/logs', { ...filter, after: cursor(all[0]!), cursor: cursor(all[0]!) }),
    ).toMatchObject({ status: 400 });
  });

  it('filters the explorer by field and text', async () => {
    const all = await cliQuery(
      `SELECT country, url FROM shield_event_logs WHERE timestamp >= 0 ORDER BY timestamp DESC LIMIT 1`,
    );
    const { country } = all[0] as { country: string };
    const r = await get('/api/v1/logs', { source: 'shield', from: '0', country, limit: '1000' });
    const lines = r.json.lines as Array<{ country: string }>;
    const counted = (await cliQuery(
      `SELECT count(*) AS n FROM shield_event_logs WHERE country = '${country.replaceAll("'", "''")}'`,
    )) as Array<{ n: number }>;
    expect(lines.length).toBe(counted[0]!.n);
    for (const l of lines) expect(l.country).toBe(country);
    // Text is matched as text: quotes and LIKE wildcards are nothing special.
    for (const q of ["' OR 1=1 --", '%_%']) {
      const none = await get('/api/v1/logs', { source: 'shield', from: '0', q });
      expect(none.status).toBe(200);
      expect(none.json.lines).toEqual([]);
    }
    expect(await get('/api/v1/logs', { source: 'shield', from: '0', zone: '201 OR 1=1' })).toMatchObject({
      status: 400,
    });
    expect(await get('/api/v1/logs', { source: 'shield', from: '0', nope: 'x' })).toMatchObject({
      status: 400,
    });
  });

  it('counts the top values of each field among the matches, as `edgelog query` counts them', async () => {
    const r = await get('/api/v1/facets', { source: 'shield', zone: '201', from: '0' });
    expect(r.status).toBe(200);
    const facets = r.json.facets as Record<string, Array<{ value: string | null; count: number }>>;
    expect(Object.keys(facets).sort()).toEqual([
      'asn',
      'country',
      'method',
      'region',
      'rule',
      'severity',
      'status',
    ]);
    for (const [field, column] of [
      ['country', 'country'],
      ['severity', 'severity'],
      ['rule', 'rule_id'],
    ] as const) {
      const top = await cliQuery(
        `SELECT ${column} AS value, count(*) AS count FROM shield_event_logs WHERE shield_zone_id = 201 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
      );
      expect(top.length).toBeGreaterThan(1);
      expect(facets[field]).toEqual(top);
    }
  });

  it('answers a zone dashboard by error code, by rule and with the Guardian counters, as `edgelog query` counts', async () => {
    type Bar = { hour: number; kind: string; count: number };
    const origin = await get('/api/v1/dashboard', { source: 'origin', zone: '101', from: '0' });
    expect(origin.status).toBe(200);
    const codes = (await cliQuery(
      "SELECT epoch_ms(date_trunc('hour', time)) AS hour, coalesce(error_code, 'none') AS kind, count(*) AS count " +
        'FROM origin_error_logs WHERE pull_zone_id = 101 GROUP BY 1, 2',
    )) as Bar[];
    const detail = origin.json.detail as { split: string; hourly: Bar[] };
    expect(detail.split).toBe('code');
    // At most 8 codes apart and the rest as (other): per hour the same total, per code the same count.
    const kinds = new Set(detail.hourly.map((b) => b.kind));
    expect(kinds.size).toBeGreaterThan(1);
    expect(kinds.size).toBeLessThanOrEqual(9);
    const perHour = (bars: Bar[]) => {
      const m = new Map<number, number>();
      for (const b of bars) m.set(b.hour, (m.get(b.hour) ?? 0) + b.count);
      return [...m].sort((x, y) => x[0] - y[0]);
    };
    expect(perHour(detail.hourly)).toEqual(perHour(codes));
    for (const b of detail.hourly.filter((b) => b.kind !== '(other)'))
      expect(codes.find((c) => c.hour === b.hour && c.kind === b.kind)?.count, `${b.hour} ${b.kind}`).toBe(
        b.count,
      );
    expect(origin.json.guardian).toBe(null);

    const shield = await get('/api/v1/dashboard', { source: 'shield', zone: '201', from: '0' });
    const rules = (await cliQuery(
      "SELECT epoch_ms(date_trunc('hour', time)) AS hour, coalesce(rule_id, 'none') AS kind, count(*) AS count " +
        'FROM shield_event_logs WHERE shield_zone_id = 201 GROUP BY 1, 2',
    )) as Bar[];
    const byRule = (shield.json.detail as { split: string; hourly: Bar[] }).hourly;
    expect((shield.json.detail as { split: string }).split).toBe('rule');
    expect(perHour(byRule)).toEqual(perHour(rules));
    for (const b of byRule.filter((b) => b.kind !== '(other)'))
      expect(rules.find((c) => c.hour === b.hour && c.kind === b.kind)?.count).toBe(b.count);

    const guardian = shield.json.guardian as {
      counters: string[];
      snapshots: Array<Record<string, unknown>>;
    };
    const snapshots = await cliQuery(
      'SELECT taken_at, total_blocked_requests, total_blocked_requests_delta, total_requests_inspected_delta ' +
        'FROM api_guardian_deltas WHERE shield_zone_id = 201 ORDER BY taken_at',
    );
    expect(snapshots).toHaveLength(2);
    expect(
      (snapshots[1] as { total_blocked_requests_delta: number }).total_blocked_requests_delta,
    ).toBeGreaterThan(0);
    expect(guardian.counters).toContain('total_blocked_requests');
    expect(
      guardian.snapshots.map((s) => ({
        taken_at: s.taken_at,
        total_blocked_requests: s.total_blocked_requests,
        total_blocked_requests_delta: s.total_blocked_requests_delta,
        total_requests_inspected_delta: s.total_requests_inspected_delta,
      })),
    ).toEqual(snapshots);
    // The range applies to the snapshots' time: the hour before the second leaves the first out.
    const last = await get('/api/v1/dashboard', { source: 'shield', zone: '201', last: '1h' });
    const kept = (last.json.guardian as { snapshots: Array<{ taken_at: string }> }).snapshots;
    expect(kept.map((s) => s.taken_at)).toEqual([(snapshots[1] as { taken_at: string }).taken_at]);
  });

  it("gives each zone's own Guardian counters, never their sum, when a dashboard asks for several zones", async () => {
    // Zones 201 and 202 are snapshotted at the same instants (support.ts): a sum by time would pass
    // for one zone's figures.
    const columns = ['shield_zone_id', 'taken_at', 'total_blocked_requests', 'total_blocked_requests_delta'];
    const own = (await cliQuery(
      `SELECT ${columns.join(', ')} FROM api_guardian_deltas WHERE shield_zone_id IN (201, 202) ` +
        'ORDER BY shield_zone_id, taken_at',
    )) as Array<Record<string, unknown>>;
    expect(own).toHaveLength(4);
    expect(own[0]!.taken_at).toBe(own[2]!.taken_at);
    expect(own[0]!.total_blocked_requests).not.toBe(own[2]!.total_blocked_requests);
    const both = await get('/api/v1/dashboard', { source: 'shield', zone: '201,202', from: '0' });
    expect(both.status).toBe(200);
    const snapshots = (both.json.guardian as { snapshots: Array<Record<string, unknown>> }).snapshots;
    expect(snapshots.map((s) => Object.fromEntries(columns.map((c) => [c, s[c]])))).toEqual(own);
    // One zone's dashboard: that zone's snapshots only.
    const one = await get('/api/v1/dashboard', { source: 'shield', zone: '202', from: '0' });
    const only = (one.json.guardian as { snapshots: Array<Record<string, unknown>> }).snapshots;
    expect(only.map((s) => Object.fromEntries(columns.map((c) => [c, s[c]])))).toEqual(own.slice(2));
  });

  it('answers a zone dashboard as `edgelog query` counts: per hour by status class or action, and the top values', async () => {
    type Bar = { hour: number; kind: string; count: number };
    const origin = await get('/api/v1/dashboard', { source: 'origin', zone: '101', from: '0' });
    expect(origin.status).toBe(200);
    const classes = (await cliQuery(
      "SELECT epoch_ms(date_trunc('hour', time)) AS hour, CASE WHEN status_code IS NULL THEN 'unknown' " +
        "ELSE CAST(floor(status_code / 100) AS INTEGER) || 'xx' END AS kind, count(*) AS count " +
        'FROM origin_error_logs WHERE pull_zone_id = 101 GROUP BY 1, 2 ORDER BY 1, 2',
    )) as Bar[];
    expect(classes.length).toBeGreaterThan(2);
    expect(origin.json.hourly).toEqual(classes);
    const shield = await get('/api/v1/dashboard', { source: 'shield', zone: '201', from: '0' });
    const actions: Record<string, string> = { '403': 'blocked', '200': 'logged', '429': 'rate-limited' };
    const byStatus = (await cliQuery(
      "SELECT epoch_ms(date_trunc('hour', time)) AS hour, status, count(*) AS count FROM shield_event_logs " +
        'WHERE shield_zone_id = 201 GROUP BY 1, 2',
    )) as Array<{ hour: number; status: string; count: number }>;
    const expected = byStatus
      .map((r) => ({ hour: r.hour, kind: actions[r.status] ?? r.status, count: r.count }))
      .sort((x, y) => x.hour - y.hour || (x.kind < y.kind ? -1 : x.kind > y.kind ? 1 : 0));
    expect(shield.json.hourly).toEqual(expected);
    const top = shield.json.top as Record<string, Array<{ value: string; count: number }>>;
    for (const [field, column] of [
      ['url', 'url'],
      ['country', 'country'],
      ['asn', 'asn'],
    ] as const) {
      expect(top[field]).toEqual(
        await cliQuery(
          `SELECT ${column} AS value, count(*) AS count FROM shield_event_logs WHERE shield_zone_id = 201 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 10`,
        ),
      );
    }
  });

  it('shows the ledger as a calendar with the counts `edgelog query` reads', async () => {
    const r = await get('/api/v1/ledger', { from: DAYS[0], to: DAYS[1] });
    expect(r.status).toBe(200);
    const ledger = (await cliQuery(
      `SELECT source, zone_id, log_date, state, archived_entries FROM ingest_ledger WHERE log_date BETWEEN '${DAYS[0]}' AND '${DAYS[1]}' ORDER BY ALL`,
    )) as Array<{
      source: string;
      zone_id: number;
      log_date: string;
      state: string;
      archived_entries: number;
    }>;
    const cells = (
      r.json.rows as Array<{ source: string; zone: number; cells: Array<Record<string, unknown>> }>
    ).flatMap((row) =>
      row.cells.map((c) => ({
        source: row.source,
        zone_id: row.zone,
        log_date: c.day,
        state: c.state,
        archived_entries: c.archived,
      })),
    );
    expect(cells).toEqual(ledger);
    expect(r.json.days).toEqual(DAYS);
  });

  it('lists the tables and columns of the dialect', async () => {
    const r = await get('/api/v1/schema');
    const relations = r.json.relations as Array<{ name: string; columns: Array<{ name: string }> }>;
    const shield = relations.find((t) => t.name === 'shield_event_logs');
    expect(shield?.columns.map((c) => c.name)).toEqual(expect.arrayContaining(['url', 'time', 'log']));
  });

  it('sends its security headers on pages, answers and problems', async () => {
    for (const r of [
      await get('/explorer.html'),
      await get('/api/v1/schema'),
      await get('/api/v1/nothing'),
    ]) {
      const csp = r.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe');
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await get('/api/v1/nothing')).json).toMatchObject({ status: 404, title: 'not found' });
  });

  it('answers only to loopback names (no DNS rebinding) and only reads', async () => {
    // fetch() will not send another Host: node:http does.
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const req = request(
        new URL('/api/v1/schema', server.url),
        { headers: { Host: 'evil.example:8470' } },
        (res) => {
          res.resume();
          resolve(res.statusCode);
        },
      );
      req.on('error', reject).end();
    });
    expect(status).toBe(421);
    expect((await get('/api/v1/schema', {}, {})).status).toBe(200);
    const posted = await fetch(new URL('/api/v1/query', server.url), {
      method: 'POST',
      body: 'sql=SELECT 1',
    });
    expect(posted.status).toBe(405);
  });
});
