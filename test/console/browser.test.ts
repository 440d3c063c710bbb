// The console's pages in a real browser (playwright-core driving Debian's /usr/bin/chromium, headless)
// over the simulator's hostile data: every archived string carries <script> and <img onerror> markup
// and terminal escapes. The pages show them as text: no dialog opens, no script of theirs runs, no
// element of theirs exists, the console logs no error; and the numbers shown are the query layer's.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { runCli } from '../support/cli.js';
import { NOW, TODAY } from '../support/harness.js';
import { consoleArchive, DAYS, serveArchive, storeDay, type ConsoleArchive } from './support.js';

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

/** The page's window, as far as a function run in it reads it (the tests have no DOM types). */
interface Styled {
  getComputedStyle(e: unknown): Record<string, string>;
}

/** An element or shadow root, as far as the completion wait reads it. */
interface PageNode {
  querySelector(
    selector: string,
  ): (PageNode & { shadowRoot?: PageNode | null; textContent: string | null }) | null;
}

/** The page's window as the completion wait reads it, and what it keeps between its polls. */
interface CompletionWatch {
  document: PageNode;
  performance: { now(): number };
  edgelogCompletion?: { list: unknown; since: number };
}

describe.skipIf(!HAS_CHROMIUM)('edgelog serve in a browser (Debian chromium)', () => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  /** What would betray markup taken for HTML (browser-support.ts). */
  let events: string[] = [];

  beforeAll(async () => {
    a = await consoleArchive('SQLite');
    server = await serveArchive(a);
    ({ browser, page, events } = await watchedBrowser());
    page.setDefaultTimeout(10_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await a?.h.close();
  });

  const api = async (sql: string) => {
    const res = await fetch(new URL(`/api/v1/query?${new URLSearchParams({ sql }).toString()}`, server.url));
    return ((await res.json()) as { rows: Array<Record<string, unknown>> }).rows;
  };

  it('explorer: hostile lines shown as text, the raw log pretty-printed, the histogram counting every match', async () => {
    const view = `source=shield&zone=201&from=${DAYS[0]}T00:00:00Z&to=${DAYS[1]}T23:59:59Z`;
    await page.goto(new URL(`/explorer.html?${view}`, server.url).href);
    await page.locator('#lines tr.line').first().waitFor();
    const first = page.locator('#lines tr.line').first();
    expect(await first.innerText()).toContain(MARKUP);
    // Nothing archived became an element.
    expect(await page.locator('main img, main script, #lines a').count()).toBe(0);
    await first.click();
    const raw = await page.locator('#lines tr.detail pre').innerText();
    expect(raw).toContain(MARKUP);
    expect(raw.split('\n').length).toBeGreaterThan(3);
    const [{ n }] = (await api('SELECT count(*) AS n FROM shield_event_logs WHERE shield_zone_id = 201')) as [
      { n: number },
    ];
    expect(await page.locator('#histogram figcaption').innerText()).toBe(`${n} matches`);
    expect(await page.locator('#lines tr.line').count()).toBe(Math.min(n, 100));
    // A facet value filters by it, and the filter goes into the URL.
    const facet = page.locator('#facets details:has(summary:text-is("rule")) button').first();
    await facet.waitFor();
    const rule = (await facet.innerText()).replace(/ \d+$/, '');
    await facet.click();
    await page.waitForURL(/rule=/);
    const [{ m }] = (await api(
      `SELECT count(*) AS m FROM shield_event_logs WHERE shield_zone_id = 201 AND rule_id = '${rule.replaceAll("'", "''")}'`,
    )) as [{ m: number }];
    // The filtered search's answer drawn (its histogram and lines together): the lines shown until then
    // are the unfiltered ones, so waiting for a line would wait for nothing. The page's 10 s, not
    // poll's default second: the search and the facets are two statements in the one query lane.
    await expect
      .poll(() => page.locator('#histogram figcaption').innerText(), { timeout: 10_000 })
      .toBe(`${m} matches`);
    expect(await page.locator('#lines tr.line').count()).toBe(Math.min(m, 100));
    await page.goto(new URL(`/explorer.html?${view}`, server.url).href);
    await page.locator('#lines tr.line').first().waitFor();
    // The view is in the URL: a reload shows it again.
    expect(page.url()).toContain('zone=201');
    await page.reload();
    await page.locator('#lines tr.line').first().waitFor();
    expect(await page.locator('#histogram figcaption').innerText()).toBe(`${n} matches`);
    expect(events).toEqual([]);
  });

  /** Clicks a download link; the file's name and text. */
  const downloaded = async (link: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), page.locator(link).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') };
  };

  it('explorer and SQL: the result downloads as NDJSON and CSV, as many rows as shown', async () => {
    const view = `source=shield&zone=201&from=${DAYS[0]}T00:00:00Z&to=${DAYS[1]}T23:59:59Z`;
    await page.goto(new URL(`/explorer.html?${view}`, server.url).href);
    await page.locator('#downloads a').first().waitFor();
    const [{ n }] = (await api('SELECT count(*) AS n FROM shield_event_logs WHERE shield_zone_id = 201')) as [
      { n: number },
    ];
    const ndjson = await downloaded('#downloads a:text-is("NDJSON")');
    expect(ndjson.name).toMatch(/^edgelog-shield-\d{8}T\d{6}Z\.ndjson$/);
    expect(ndjson.text.split('\n').filter(Boolean)).toHaveLength(n);
    // An attachment (never shown by the browser), with the archived text as it was archived.
    expect(ndjson.text).toContain(MARKUP);
    const sql = 'SELECT url, message FROM shield_event_logs ORDER BY timestamp LIMIT 3';
    await page.goto(new URL(`/sql.html?${new URLSearchParams({ sql }).toString()}`, server.url).href);
    await page.locator('#downloads a').first().waitFor();
    const csv = await downloaded('#downloads a:text-is("CSV")');
    expect(csv.name).toMatch(/^edgelog-query-\d{8}T\d{6}Z\.csv$/);
    expect(csv.text.split('\r\n').filter(Boolean)).toHaveLength(4);
    expect(events).toEqual([]);
  });

  it('SQL: the statement from the URL, its rows as text', async () => {
    const sql = 'SELECT url, message FROM shield_event_logs ORDER BY timestamp LIMIT 3';
    await page.goto(new URL(`/sql.html?${new URLSearchParams({ sql }).toString()}`, server.url).href);
    await page.locator('#result td').first().waitFor();
    expect(await page.locator('#result tr').count()).toBe(4);
    expect(await page.locator('#result td').first().innerText()).toContain(MARKUP);
    expect(await page.locator('#sql').inputValue()).toBe(sql);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(events).toEqual([]);
  });

  /** `edgelog query --json <sql>` as a user runs it (the built CLI). */
  const cliQuery = async (sql: string) => {
    const r = await runCli(['--config', a.configPath, 'query', '--json', sql], { cwd: a.h.dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  };

  it('SQL: the editor (CodeMirror, under the CSP) highlights and completes table and column names', async () => {
    await page.goto(new URL('/sql.html', server.url).href);
    await page.locator('body[data-editor="codemirror"]').waitFor();
    // Its styles applied (CodeMirror's base theme makes the editor a flex column): the CSP let them in.
    expect(
      await page
        .locator('.cm-editor')
        .evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).display),
    ).toBe('flex');
    expect(await page.locator('#sql').isHidden()).toBe(true);
    await page.locator('.cm-content').click();
    await page.keyboard.type('SELECT count(*) AS n FROM shield_ev');
    /**
     * Accepts `name` with Enter once CodeMirror will take it, then waits for the editor's text to be
     * `text`. CodeMirror ignores an Enter that comes within `interactionDelay` (75 ms) of its completion
     * list opening (an Enter typed as the list opens stays a newline): the page itself watches the list,
     * and the wait ends when the list has shown `name` chosen for that long, counted from when the page
     * first saw it (the list's own clock started earlier), not after a sleep guessed for a loaded machine.
     */
    const accept = async (name: string, text: string) => {
      await page.waitForFunction(
        ({ name, delay }) => {
          const w = globalThis as unknown as CompletionWatch;
          const list = w.document
            .querySelector('.sql-editor')
            ?.shadowRoot?.querySelector('.cm-tooltip-autocomplete');
          const chosen = list?.querySelector('li[aria-selected="true"]');
          if (!list || !chosen?.textContent?.includes(name)) {
            w.edgelogCompletion = undefined;
            return false;
          }
          // A list that closed and opened again starts its delay again.
          if (w.edgelogCompletion?.list !== list) w.edgelogCompletion = { list, since: w.performance.now() };
          return w.performance.now() - w.edgelogCompletion.since >= delay;
        },
        { name, delay: 75 },
        { polling: 10 },
      );
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('#sql').inputValue()).toBe(text);
    };
    await accept('shield_event_logs', 'SELECT count(*) AS n FROM shield_event_logs');
    await page.keyboard.type(' WHERE shield_event_logs.coun');
    await accept('country', 'SELECT count(*) AS n FROM shield_event_logs WHERE shield_event_logs.country');
    await page.keyboard.type(" <> ''");
    // A keyword is drawn in its own colour (a name is plain text in the line's colour).
    const color = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((e) => (globalThis as unknown as Styled).getComputedStyle(e).color);
    const keyword = await color('.cm-line span:text-is("SELECT")');
    expect(keyword).not.toBe(await color('.cm-line'));
    expect(await color('.cm-line span:text-is("WHERE")')).toBe(keyword);
    // Ctrl-Enter runs it, with the editor's text.
    await page.keyboard.press('Control+Enter');
    await page.locator('#result td').first().waitFor();
    const sql = "SELECT count(*) AS n FROM shield_event_logs WHERE shield_event_logs.country <> ''";
    expect(new URL(page.url()).searchParams.get('sql')).toBe(sql);
    const [{ n }] = (await cliQuery(sql)) as [{ n: number }];
    expect(await page.locator('#result td').first().innerText()).toBe(String(n));
    expect(events).toEqual([]);
  });

  it('SQL: without its editor bundle the page keeps the textarea, and runs', async () => {
    await page.route('**/sql-editor.js', (route) => route.abort());
    try {
      const sql = 'SELECT count(*) AS n FROM origin_error_logs';
      await page.goto(new URL('/sql.html', server.url).href);
      await page.locator('body[data-editor="textarea"]').waitFor();
      await page.locator('#sql').fill(sql);
      await page.locator('#statement button[type=submit]').click();
      await page.locator('#result td').first().waitFor();
      const [{ n }] = (await cliQuery(sql)) as [{ n: number }];
      expect(await page.locator('#result td').first().innerText()).toBe(String(n));
    } finally {
      await page.unroute('**/sql-editor.js');
    }
    // The aborted request is the only thing the console said.
    expect(events.filter((e) => !e.includes('sql-editor.js') && !e.includes('ERR_FAILED'))).toEqual([]);
    events.length = 0;
  });

  it('SQL: a time column and numeric columns are drawn as lines, one a column; other results draw none', async () => {
    const sql =
      'SELECT log_date, count(*) AS n, count(DISTINCT country) AS countries FROM shield_event_logs GROUP BY 1 ORDER BY 1';
    await page.goto(new URL(`/sql.html?${new URLSearchParams({ sql }).toString()}`, server.url).href);
    await page.locator('#chart polyline').first().waitFor({ state: 'attached' });
    const rows = (await cliQuery(sql)) as Array<{ log_date: string; n: number; countries: number }>;
    expect(rows.length).toBeGreaterThan(1);
    expect(await page.locator('#chart polyline').count()).toBe(2);
    expect(await page.locator('#chart .legend span').allInnerTexts()).toEqual(['n', 'countries']);
    // A point a row, each with its figures.
    const n = page.locator('#chart polyline').first();
    expect((await n.getAttribute('points'))!.split(' ')).toHaveLength(rows.length);
    const tips = await page.locator('#chart circle.series-0 title').allTextContents();
    expect(tips).toEqual(rows.map((r) => `${r.log_date}T00:00:00.000Z n: ${r.n}`));
    await page.goto(
      new URL(
        `/sql.html?${new URLSearchParams({ sql: 'SELECT url, message FROM shield_event_logs LIMIT 3' }).toString()}`,
        server.url,
      ).href,
    );
    await page.locator('#result td').first().waitFor();
    expect(await page.locator('#chart').isHidden()).toBe(true);
    expect(events).toEqual([]);
  });

  it('overview: the ledger calendar with each day linked to the explorer', async () => {
    await page.goto(new URL(`/?from=${DAYS[0]}&to=${DAYS[1]}`, server.url).href);
    await page.locator('#calendar td.state-complete').first().waitFor();
    const ledger = await api(
      `SELECT count(*) AS n FROM ingest_ledger WHERE state = 'complete' AND log_date BETWEEN '${DAYS[0]}' AND '${DAYS[1]}'`,
    );
    expect(await page.locator('#calendar td.state-complete').count()).toBe(ledger[0]!.n);
    // Lag per zone and the history's size, as the query layer counts them.
    await page.locator('#lag td').first().waitFor();
    const zones = await api('SELECT DISTINCT source, zone_id FROM ingest_ledger');
    expect(await page.locator('#lag tr').count()).toBe(zones.length + 1);
    const [h] = (await api(
      'SELECT count(*) AS days, sum(entries) AS entries, sum(bytes) AS bytes FROM history_days WHERE compacted_at IS NOT NULL',
    )) as [{ days: number; entries: number; bytes: number }];
    expect(await page.locator('#history-size').innerText()).toContain(
      `${h.days} zone-days merged, ${h.entries} entries, ${h.bytes} bytes`,
    );
    expect(await page.locator('#firing').innerText()).toBe('none');
    const link = page.locator('#calendar td.state-complete a').first();
    expect(await link.getAttribute('href')).toMatch(
      /^\/explorer\.html\?source=(origin|shield)&zone=\d+&from=/,
    );
    expect(events).toEqual([]);
  });

  it("zone dashboard: from the overview's lag table, per hour by action and the top values, as the query layer counts them", async () => {
    await page.goto(new URL(`/?from=${DAYS[0]}&to=${DAYS[1]}`, server.url).href);
    await page.locator('#lag a[href*="source=shield"]').first().click();
    await page.waitForURL(/\/dashboard\.html\?source=shield&zone=201&last=7d$/);
    const [{ n }] = (await api(
      `SELECT count(*) AS n FROM shield_event_logs WHERE shield_zone_id = 201 AND timestamp >= ${NOW - 7 * 86_400_000} AND timestamp < ${NOW}`,
    )) as [{ n: number }];
    // Four statements in the one query lane: a busy machine takes more than poll's default second.
    await expect
      .poll(() => page.locator('#status').innerText(), { timeout: 10_000 })
      .toBe(`${n} Shield events`);
    const [top] = (await api(
      'SELECT url, count(*) AS c FROM shield_event_logs WHERE shield_zone_id = 201 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1',
    )) as [{ url: string; c: number }];
    const first = page.locator('#top section:has(h2:text-is("top url")) tr').nth(1);
    expect(await first.locator('td').nth(0).innerText()).toBe(top.url);
    expect(await first.locator('td').nth(1).innerText()).toBe(String(top.c));
    expect(top.url).toContain(MARKUP);
    expect(await page.locator('#hourly rect').count()).toBeGreaterThan(0);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(events).toEqual([]);
  });

  it("zone dashboard: per hour by rule or error code, and the Guardian counters, with `edgelog query`'s totals", async () => {
    const since = NOW - 7 * 86_400_000;
    const range = `timestamp >= ${since} AND timestamp < ${NOW}`;
    /** The legend's total of each kind (kind → count). */
    const legend = async (id: string) => {
      const spans = page.locator(`#${id} .legend span`);
      const out: Record<string, number> = {};
      for (let i = 0; i < (await spans.count()); i++) {
        const span = spans.nth(i);
        out[(await span.getAttribute('data-kind'))!] = Number(await span.locator('b').innerText());
      }
      return out;
    };
    for (const [source, zone, table, zoneColumn, column, title] of [
      ['shield', 201, 'shield_event_logs', 'shield_zone_id', 'rule_id', 'Shield events per hour by rule'],
      [
        'origin',
        101,
        'origin_error_logs',
        'pull_zone_id',
        'error_code',
        'origin errors per hour by error code',
      ],
    ] as const) {
      await page.goto(new URL(`/dashboard.html?source=${source}&zone=${zone}&last=7d`, server.url).href);
      await page.locator('#hourly-detail rect').first().waitFor({ state: 'attached' });
      expect(await page.locator('#detail-title').innerText()).toBe(title);
      const kinds = (await cliQuery(
        `SELECT coalesce(${column}, 'none') AS kind, count(*) AS n FROM ${table} WHERE ${zoneColumn} = ${zone} AND ${range} GROUP BY 1 ORDER BY 2 DESC, 1`,
      )) as Array<{ kind: string; n: number }>;
      expect(kinds.length).toBeGreaterThan(1);
      const shown = await legend('hourly-detail');
      const kept = kinds.slice(0, 8);
      const expected: Record<string, number> = Object.fromEntries(kept.map((k) => [k.kind, k.n]));
      const rest = kinds.slice(8).reduce((n, k) => n + k.n, 0);
      if (rest > 0) expected['(other)'] = rest;
      expect(shown).toEqual(expected);
      // Each kind (archived text, with bidirectional controls) isolated from its count.
      expect(await page.locator('#hourly-detail .legend span > bdi').count()).toBe(
        Object.keys(expected).length,
      );
    }
    // Origin zones have no Guardian: the panel is hidden.
    expect(await page.locator('#guardian').isHidden()).toBe(true);

    /** A zone's Guardian figures as `edgelog query` counts them. */
    const guardianOf = async (zone: number) => {
      const [g] = (await cliQuery(
        'SELECT sum(total_blocked_requests_delta) AS growth, max(total_blocked_requests) AS latest, count(*) AS snapshots ' +
          `FROM api_guardian_deltas WHERE shield_zone_id = ${zone} AND taken_at >= '${new Date(since).toISOString()}' AND taken_at < '${new Date(NOW).toISOString()}'`,
      )) as [{ growth: number; latest: number; snapshots: number }];
      expect(g.snapshots).toBe(2);
      expect(g.growth).toBeGreaterThan(0);
      return g;
    };
    /** The panel's block of one zone shows that zone's own figures: its latest value and growth. */
    const showsOwn = async (zone: number) => {
      const block = page.locator(`#guardian section.guardian-zone[data-zone="${zone}"]`);
      expect(await block.locator('h3').innerText()).toBe(`zone ${zone}`);
      const g = await guardianOf(zone);
      const blocked = block.locator('tr', { has: page.locator('td:text-is("blocked")') });
      expect(await blocked.locator('td').nth(1).innerText()).toBe(String(g.latest));
      expect(await blocked.locator('td').nth(2).innerText()).toBe(String(g.growth));
      // Six counters, a line each; the second snapshot's growth a dot each (the first has no previous one).
      expect(await block.locator('figure polyline').count()).toBe(6);
      expect(await block.locator('figure circle').count()).toBe(6);
    };
    await page.goto(new URL('/dashboard.html?source=shield&zone=201&last=7d', server.url).href);
    await page.locator('#guardian section.guardian-zone td').first().waitFor();
    // Zone 202, snapshotted at the same instants (support.ts), is not in zone 201's dashboard.
    expect(await page.locator('#guardian section.guardian-zone').count()).toBe(1);
    await showsOwn(201);
    // Two zones asked for: a block each, each zone's own figures, never their sum.
    await page.goto(new URL('/dashboard.html?source=shield&zone=201,202&last=7d', server.url).href);
    await page.locator('#guardian section.guardian-zone[data-zone="202"] td').first().waitFor();
    expect(
      await page
        .locator('#guardian section.guardian-zone')
        .evaluateAll((s) => s.map((e) => (e as unknown as { dataset: { zone: string } }).dataset.zone)),
    ).toEqual(['201', '202']);
    await showsOwn(201);
    await showsOwn(202);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(events).toEqual([]);
  });

  // Last: it stores a day the tests above do not count.
  it('explorer, live tail: entries stored after the page opened appear on top, newest first', async () => {
    await page.goto(new URL('/explorer.html?source=shield&zone=201&last=7d&live=1', server.url).href);
    await page.locator('#lines tr.line').first().waitFor();
    expect(await page.locator('#live').isChecked()).toBe(true);
    const before = await page.locator('#lines tr.line').count();
    await storeDay(a.h, TODAY);
    const [{ n, newest }] = (await api(
      `SELECT count(*) AS n, max(timestamp) AS newest FROM shield_event_logs WHERE shield_zone_id = 201 AND log_date = '${TODAY}' AND timestamp < ${NOW}`,
    )) as [{ n: number; newest: number }];
    expect(n).toBeGreaterThan(0);
    await expect.poll(() => page.locator('#lines tr.line.new').count(), { timeout: 20_000 }).toBe(n);
    expect(await page.locator('#lines tr.line').count()).toBe(before + n);
    const top = await page.locator('#lines tr.line').first().locator('td').first().innerText();
    expect(Date.parse(top)).toBe(newest);
    // The live view is in the URL.
    expect(page.url()).toContain('live=1');
    expect(events).toEqual([]);
  });
});
