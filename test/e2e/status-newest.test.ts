// `edgelog status` after a re-fetch that failed, on each store: the day keeps its rows, and the zone's
// newest entry is still the newest row archived (a pass that fails starts with no entries of its own).
import { afterEach, expect, it } from 'vitest';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';
import { redisUrl, type Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

interface StatusJson {
  zones: Array<{
    source: string;
    zone: number;
    newestEntry: number | null;
    lastError: { error: string } | null;
  }>;
  ledger: Array<{
    source: string;
    log_date: string;
    state: string;
    archived_entries: number;
    last_ts: number | null;
  }>;
}

describeStores('edgelog status after a failed re-fetch', (store) => {
  it('shows the newest entry the archive holds, not "none yet"', async () => {
    // The real clock: sync and status judge days against now.
    h = await storeHarness(store, { entriesPerDay: 300, now: Date.now });
    const yesterday = addDays(dayOf(Date.now()), -1);
    const config = (accessKey: string, name: string) =>
      writeConfig(
        h!.dir,
        {
          api: { ...h!.urls, accessKey, retryAttempts: 1 },
          redis: { url: redisUrl(), prefix: h!.prefix, embedded: false },
          database: { path: h!.dbPath, ...(h!.databaseUrl ? { url: h!.databaseUrl } : {}) },
          pullZones: [101],
          shieldZones: [],
          log: { level: 'silent' },
        },
        name,
      );
    const good = config(h.sim.accessKey, 'good.json');
    const sync = (file: string) =>
      runCli(['--config', file, 'sync', '--date', yesterday, '--source', 'origin', '--no-progress'], {
        cwd: h!.dir,
      });
    expect((await sync(good)).code).toBe(0);
    const reader = await h.reader();
    const newest = Number(await reader.value('SELECT max(timestamp) FROM origin_error_logs'));
    expect(newest).toBeGreaterThan(0);

    // The same day fetched again with a key the API refuses: the pass fails, the day keeps its rows.
    const refused = await sync(config('not-the-key', 'refused.json'));
    expect(refused.code).toBe(1);

    const status = JSON.parse(
      (await runCli(['--config', good, 'status', '--json'], { cwd: h.dir })).stdout,
    ) as StatusJson;
    const day = status.ledger.find((r) => r.source === 'origin' && r.log_date === yesterday)!;
    expect(day).toMatchObject({ state: 'complete', last_ts: null });
    expect(day.archived_entries).toBeGreaterThan(0);
    const zone = status.zones.find((z) => z.source === 'origin' && z.zone === 101)!;
    expect(zone.lastError?.error).toContain('401');
    expect(zone.newestEntry).toBe(newest);

    const text = (await runCli(['--config', good, 'status'], { cwd: h.dir })).stdout;
    const line = text.split('\n').find((l) => /^origin +101 /.test(l))!;
    expect(line).not.toContain('none yet');
    expect(line).toContain(new Date(newest).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  });
});
