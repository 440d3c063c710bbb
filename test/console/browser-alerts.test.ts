// The alerts page in a real browser (Debian's chromium) on a console with a token: log in with the form,
// see the firing alert, watch the silence form's live preview hold it, make the silence (the page's
// session cookie, Origin and CSRF token), see it in the archive's store, expire it. Archived and typed
// text stays text; a page of another site cannot make one.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { NOW } from '../support/harness.js';
import { consoleArchive, serveConfigured, withFiringAlert, type ConsoleArchive } from './support.js';

const TOKEN = 'a-console-token-0123456789';
const MARKUP = '<img src=x onerror=alert(3)>';

describe.skipIf(!HAS_CHROMIUM)('the alerts page in a browser (Debian chromium)', () => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let events: string[] = [];

  beforeAll(async () => {
    a = await consoleArchive('SQLite');
    server = await serveConfigured(await withFiringAlert(a), TOKEN);
    ({ browser, page, events } = await watchedBrowser());
    page.setDefaultTimeout(10_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await a?.h.close();
  });

  const silences = async () => {
    const res = await fetch(
      new URL(
        `/api/v1/query?${new URLSearchParams({ sql: 'SELECT id, comment, ends_at FROM alert_silences' }).toString()}`,
        server.url,
      ),
      { headers: { Authorization: `Bearer ${TOKEN}` } },
    );
    return ((await res.json()) as { rows: Array<{ id: string; comment: string; ends_at: number }> }).rows;
  };

  it('logs in, previews, makes and expires a silence', async () => {
    await page.goto(new URL('/alerts.html', server.url).href);
    await page.waitForURL(/login\.html/);
    await page.locator('input[name=token]').fill(TOKEN);
    await page.locator('button[type=submit]').click();
    // The login form's POST carries this page's Origin (Referrer-Policy same-origin, not no-referrer).
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(new URL('/alerts.html', server.url).href);
    await page.locator('#states td').first().waitFor();
    expect(await page.locator('#states').innerText()).toContain('firing');
    await expect
      .poll(() => page.locator('#preview').innerText())
      .toBe('alertname="origin-5xx" would hold 1 alert now');
    await page.locator('#silence input[name=zone]').fill('102');
    await expect
      .poll(() => page.locator('#preview').innerText())
      .toBe('alertname="origin-5xx", zone="102" would hold 0 alerts now');
    await page.locator('#silence input[name=zone]').fill('101');
    await expect.poll(() => page.locator('#preview').innerText()).toContain('would hold 1 alert now');
    await page.locator('#silence input[name=for]').fill('2h');
    await page.locator('#silence input[name=comment]').fill(MARKUP);
    await page.locator('#silence button[type=submit]').click();
    await page.locator('#silences td').first().waitFor();
    const [made] = await silences();
    expect(made).toEqual({
      id: expect.stringMatching(/^\d{12}$/) as unknown,
      comment: MARKUP,
      ends_at: NOW + 7_200_000,
    });
    // The comment is shown as text.
    expect(await page.locator('#silences').innerText()).toContain(MARKUP);
    expect(await page.locator('main img').count()).toBe(0);
    await page.locator('#silences button:text-is("Expire")').click();
    await expect.poll(() => page.locator('#status').innerText()).toBe(`silence ${made!.id} expired`);
    expect((await silences())[0]!.ends_at).toBe(NOW);
    expect(events).toEqual([]);
  });

  it("refuses a silence posted by another origin's page, though the browser sends it the session cookie", async () => {
    // The classic JSON CSRF: a form of another origin (127.0.0.1 on another port: the same site, so the
    // SameSite=Strict cookie goes along) posting text/plain that reads as JSON.
    const target = new URL(server.url);
    const form =
      `<form method="post" enctype="text/plain" action="${target.origin}/api/v1/silences">` +
      `<input name='{"rule":"origin-5xx","zones":[101],"x":"' value='"}'></form>` +
      '<script>document.forms[0].submit()</script>';
    const attacker = createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(form),
    );
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (attacker.address() as AddressInfo).port;
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForURL(/\/api\/v1\/silences$/);
      expect(await page.locator('body').innerText()).toContain(
        'a write from another site (its Origin) is refused',
      );
    } finally {
      attacker.close();
    }
    expect(await silences()).toHaveLength(1);
  });
});
