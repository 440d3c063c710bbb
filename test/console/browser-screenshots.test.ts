// Screenshots of each console page (issue 31), over an archive synced from the simulator's plain data
// (not the hostile text): each page is drawn with its data and no error, then photographed at 1200×800.
// Every run checks the PNGs; with EDGELOG_SCREENSHOTS=1 they are also written to docs/img/console-*.png
// (the README shows them), so that CI does not rewrite tracked files.
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';
import {
  consoleArchive,
  SHIELD_201_VIEW,
  serveConfigured,
  withFiringAlert,
  type ConsoleArchive,
} from './support.js';

const TOKEN = 'a-console-token-screenshots-01';
const VIEWPORT = { width: 1200, height: 800 };
const DOCS_IMG = fileURLToPath(new URL('../../docs/img/', import.meta.url));
const WRITE_DOCS = process.env.EDGELOG_SCREENSHOTS === '1';

/** A PNG's width and height, from its IHDR chunk (after the 8-byte signature and the chunk's header). */
function pngSize(file: Buffer): { width: number; height: number } {
  expect(file.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(file.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: file.readUInt32BE(16), height: file.readUInt32BE(20) };
}

describe.skipIf(!HAS_CHROMIUM)('screenshots of the console (Debian chromium)', () => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let events: string[] = [];
  let shots: string;

  beforeAll(async () => {
    a = await consoleArchive('SQLite', { entriesPerDay: 1_500 });
    server = await serveConfigured(await withFiringAlert(a), TOKEN);
    // A silence, so the alerts page shows one.
    const made = await fetch(new URL('/api/v1/silences', server.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rule: 'origin-5xx', zones: [101], for: '2h', comment: 'deploy of zone 101' }),
    });
    expect(made.status).toBe(201);
    ({ browser, page, events } = await watchedBrowser());
    page.setDefaultTimeout(10_000);
    await page.setViewportSize(VIEWPORT);
    await page.goto(new URL('/login.html', server.url).href);
    await page.locator('input[name=token]').fill(TOKEN);
    await page.locator('button[type=submit]').click();
    await page.waitForURL((u) => u.pathname === '/');
    shots = mkdtempSync(join(tmpdir(), 'edgelog-shots-'));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await a?.h.close();
    if (shots) rmSync(shots, { recursive: true, force: true });
  });

  const view = new URLSearchParams(SHIELD_201_VIEW).toString();
  const sql =
    'SELECT log_date, count(*) AS events, count(DISTINCT country) AS countries FROM shield_event_logs GROUP BY log_date ORDER BY log_date';
  /** Each page, and what shows that its data is drawn. */
  const PAGES: Array<[string, string, string[]]> = [
    ['overview', '/', ['#calendar td a', '#lag td a', '#firing td']],
    ['explorer', `/explorer.html?${view}`, ['#lines tr.line', '#histogram rect', '#facets button']],
    ['sql', `/sql.html?${new URLSearchParams({ sql }).toString()}`, ['#result td', '#schema summary']],
    ['dashboard', `/dashboard.html?${view}`, ['#hourly rect', '#top table td']],
    ['alerts', '/alerts.html', ['#states td', '#silences td', '#preview:not(:empty)']],
  ];

  it.each(PAGES)('%s: drawn with its data, photographed at 1200×800', async (name, path, drawn) => {
    await page.goto(new URL(path, server.url).href);
    for (const selector of drawn) await page.locator(selector).first().waitFor();
    expect(await page.locator('#status.error').count()).toBe(0);
    const file = join(shots, `console-${name}.png`);
    await page.screenshot({ path: file });
    const png = readFileSync(file);
    expect(pngSize(png)).toEqual(VIEWPORT);
    // Small enough to keep in the repository.
    expect(png.length).toBeLessThan(400_000);
    if (WRITE_DOCS) {
      mkdirSync(DOCS_IMG, { recursive: true });
      copyFileSync(file, join(DOCS_IMG, `console-${name}.png`));
    }
    expect(events).toEqual([]);
  });
});
