// A silence made in the alerts page holds a notice at a real webhook receiver (issue 31): a 5xx spike in
// zone 101, the engine and its queues on the archive the console serves, a receiver on loopback counting
// deliveries. The page makes the silence before the spike is evaluated; the evaluation finds the alert
// firing and the receiver gets nothing. The page expires the silence; the next evaluation sends the one
// firing notice, and one more sends nothing again.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfigInput } from '../../src/config/index.js';
import { readerConfigOf } from '../../src/config/reader-config.js';
import { configuredOptions } from '../../src/console/configured.js';
import { startConsole } from '../../src/console/console.js';
import type { ConsoleServer } from '../../src/console/server.js';
import type { Engine } from '../../src/engine.js';
import { silentLogger } from '../../src/logger.js';
import { executeSync } from '../../src/sync/execute-sync.js';
import { syncPlan } from '../../src/sync/sync-plan.js';
import { at, clock } from '../support/clock.js';
import type { Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { storeHarness } from '../support/stores.js';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';

const TOKEN = 'a-console-token-silence-0123';
/** How long a poll waits for the page (a loaded machine: expect.poll's own 1 s is too short). */
const WAIT = { timeout: 10_000 };

function alertConfig(url: string): ConfigInput {
  return {
    pullZones: [101, 102],
    shieldZones: [],
    alerts: {
      hooks: { ops: { type: 'webhook', url } },
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          severity: 'critical',
          hooks: ['ops'],
        },
      ],
      retryDelay: '100ms',
      maxRetryDelay: '300ms',
    },
  };
}

/** Syncs today (the clock's) and evaluates the rules, as the worker's pass does. */
const syncToday = (engine: Engine) => executeSync(engine, syncPlan(engine.config, {}, engine.now()));

describe.skipIf(!HAS_CHROMIUM)('a silence made in the page, checked at a webhook receiver', () => {
  const c = clock(at(10.5));
  let h: Harness;
  let receiver: Receiver;
  let engine: Engine;
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let events: string[] = [];

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await storeHarness('SQLite', {
      entriesPerDay: 2_400,
      now: c.now,
      spikes: [{ source: 'origin', zone: 101, from: at(10), to: at(11), count: 1000, statusCode: 503 }],
    });
    engine = await h.engine(alertConfig(receiver.url), c.now);
    // The console as `edgelog serve` starts it from the worker's configuration, on the same clock.
    const config = h.config(alertConfig(receiver.url));
    server = await startConsole(readerConfigOf(config), {
      ...configuredOptions(config, { host: '127.0.0.1', port: 0 }, silentLogger(), {
        EDGELOG_CONSOLE_TOKEN: TOKEN,
      }),
      now: c.now,
    });
    ({ browser, page, events } = await watchedBrowser());
    page.setDefaultTimeout(10_000);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await h?.close();
    await receiver?.close();
  });

  const state101 = async () =>
    (await engine.alerts.repo.listStates()).find((s) => s.zone_id === 101 && s.rule === 'origin-5xx-spike');

  it('holds the firing notice while it lasts; expiring it sends the one notice that follows', async () => {
    await page.goto(new URL('/login.html', server.url).href);
    await page.locator('input[name=token]').fill(TOKEN);
    await page.locator('button[type=submit]').click();
    await page.waitForURL((u) => u.pathname === '/');
    await page.goto(new URL('/alerts.html', server.url).href);
    await expect.poll(() => page.locator('#silence select[name=rule] option').count(), WAIT).toBe(1);
    await page.locator('#silence input[name=zone]').fill('101');
    await page.locator('#silence input[name=for]').fill('2h');
    await page.locator('#silence input[name=comment]').fill('deploy of zone 101');
    // Nothing is stored about the spike yet: the preview holds no alert.
    await expect
      .poll(() => page.locator('#preview').innerText(), WAIT)
      .toBe('alertname="origin-5xx-spike", zone="101" would hold 0 alerts now');
    await page.locator('#silence button[type=submit]').click();
    await expect.poll(() => page.locator('#status').innerText(), WAIT).toMatch(/^silence \d{12} made: /);
    const id = /^silence (\d{12})/.exec(await page.locator('#status').innerText())![1]!;

    // The spike is evaluated: the alert fires, the silence holds its notice.
    const first = await syncToday(engine);
    expect(first.summary.alerts).toMatchObject({ notices: 0 });
    expect(await state101()).toMatchObject({ state: 'firing' });
    const checked = await engine.alerts.check({ zone: 101 });
    expect(checked).toMatchObject([{ rule: 'origin-5xx-spike', state: 'firing', silencedBy: [id] }]);
    expect(receiver.received).toHaveLength(0);
    // The page shows the alert it holds.
    await page.reload();
    await page.locator('#silences button:text-is("Expire")').waitFor();
    await page.locator('#silence input[name=zone]').fill('101');
    await expect
      .poll(() => page.locator('#preview').innerText(), WAIT)
      .toBe('alertname="origin-5xx-spike", zone="101" would hold 1 alert now');

    // Expired in the page: the next evaluation sends the firing notice, once.
    c.set(at(10.75));
    await page.locator('#silences button:text-is("Expire")').click();
    await expect.poll(() => page.locator('#status').innerText(), WAIT).toBe(`silence ${id} expired`);
    c.set(at(10.8));
    const after = await syncToday(engine);
    expect(after.summary.alerts).toMatchObject({ notices: 1, delivered: 1 });
    expect(receiver.received).toHaveLength(1);
    const alert = (receiver.received[0]!.json.alerts as Array<Record<string, unknown>>)[0]!;
    expect(alert).toMatchObject({ status: 'firing', startsAt: new Date(at(10.5)).toISOString() });
    expect(alert.labels).toMatchObject({ alertname: 'origin-5xx-spike', zone: '101' });
    // Later evaluations while it still fires tell the receiver nothing new.
    c.set(at(10.9));
    await engine.alerts.check();
    await syncToday(engine);
    expect(await state101()).toMatchObject({ state: 'firing' });
    expect(receiver.received).toHaveLength(1);
    expect(events).toEqual([]);
  });
});
