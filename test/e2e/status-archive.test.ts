// `edgelog status` says what the archive holds, on each store: after a re-fetch that failed, the zone's
// newest entry is still the newest row archived (a pass that fails starts with no entries of its own);
// a Guardian snapshot whose error object says success is not shown as failed.
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
  guardian: Array<{ zone: number; lastSnapshot: string | null; lastError: string | null }>;
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
          // Yesterday is complete at once, also in the first hour after midnight (the default 1h delay).
          schedule: { finalizeDelay: '0s' },
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

describeStores('edgelog status and the Guardian snapshots', (store) => {
  it('a snapshot whose error object says success is not a failure; one that says failure is', async () => {
    h = await storeHarness(store, { entriesPerDay: 50, now: Date.now });
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey, retryAttempts: 1 },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath, ...(h.databaseUrl ? { url: h.databaseUrl } : {}) },
      pullZones: [],
      // 201 is the simulator's; 999 is a zone it does not know (a 2xx whose error says so).
      shieldZones: [201, 999],
      log: { level: 'silent' },
    });
    const today = dayOf(Date.now());
    await runCli(['--config', config, 'sync', '--date', today, '--source', 'guardian', '--no-progress'], {
      cwd: h.dir,
    });
    const reader = await h.reader();
    // What the API answered is kept as it came: the success object of zone 201 too.
    expect(await reader.value('SELECT error FROM api_guardian_snapshots WHERE shield_zone_id = 201')).toMatch(
      /"success":true/,
    );

    const status = JSON.parse(
      (await runCli(['--config', config, 'status', '--json'], { cwd: h.dir })).stdout,
    ) as StatusJson;
    const byZone = new Map(status.guardian.map((g) => [g.zone, g]));
    expect(byZone.get(201)).toMatchObject({ lastError: null });
    expect(byZone.get(201)!.lastSnapshot).not.toBeNull();
    expect(byZone.get(999)!.lastError).toMatch(/"success":false/);

    const text = (await runCli(['--config', config, 'status'], { cwd: h.dir })).stdout.split('\n');
    expect(text.find((l) => l.startsWith('guardian 201:'))).toMatch(/^guardian 201: last snapshot \S+$/);
    expect(text.find((l) => l.startsWith('guardian 999:'))).toContain('(failed: ');
  });
});
