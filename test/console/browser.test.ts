// The console's pages in a real browser (playwright-core driving Debian's /usr/bin/chromium, headless)
// over the simulator's hostile data: every archived string carries <script> and <img onerror> markup
// and terminal escapes. The pages show them as text: no dialog opens, no script of theirs runs, no
// element of theirs exists, the console logs no error; and the numbers shown are the query layer's.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { NOW, TODAY } from '../support/harness.js';
import { consoleArchive, DAYS, serveArchive, storeDay, type ConsoleArchive } from './support.js';

const MARKUP = '<script>alert(1)</script><img src=x onerror=alert(2)>';

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
    await page.locator('#lines tr.line').first().waitFor();
    const [{ m }] = (await api(
      `SELECT count(*) AS m FROM shield_event_logs WHERE shield_zone_id = 201 AND rule_id = '${rule.replaceAll("'", "''")}'`,
    )) as [{ m: number }];
    await expect.poll(() => page.locator('#histogram figcaption').innerText()).toBe(`${m} matches`);
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
    await expect.poll(() => page.locator('#status').innerText()).toBe(`${n} Shield events`);
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
