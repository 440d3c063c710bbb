// A worker killed mid-day with SIGKILL, then run again, ends with exactly the oracle: none lost, none
// twice. On each store: SQLite always, PostgreSQL when a server answers (a skip line otherwise).
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import type { LedgerRow } from '../../src/store/ledger-types.js';
import { addDays } from '../../src/time/utc-day.js';
import { notCreatedYet } from '../fault/lib/progress.js';
import { waitFor } from '../fault/lib/wait.js';
import { postgresReader, sqliteReader, type ArchiveReader } from '../support/archive-reader.js';
import { runCli, startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { NOW, redisUrl, TODAY, type Harness } from '../support/harness.js';
import { describeStores, storeHarness } from '../support/stores.js';

let h: Harness;
let first: StartedCli | undefined;
afterEach(async () => {
  if (first && first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
  await first?.done;
  await h?.close();
});

const PAGES = "SELECT pages FROM ingest_ledger WHERE source = 'shield'";

/** Pages the day's ledger row counts so far; 0 before the worker has created the archive. */
async function pagesStored(h: Harness): Promise<number> {
  let reader: ArchiveReader | undefined;
  try {
    reader = h.databaseUrl ? await postgresReader(h.databaseUrl) : sqliteReader(h.dbPath);
    return Number((await reader.value(PAGES)) ?? 0);
  } catch (err) {
    // SQLite: no file or table yet; PostgreSQL: the table is not migrated yet (42P01).
    if (notCreatedYet(err) || (err as { code?: string }).code === '42P01') return 0;
    throw err; // any other database error is a failure, not "not yet"
  } finally {
    await reader?.close();
  }
}

describeStores('crash safety', (store) => {
  it('SIGKILL mid-day, then a re-run: the archive equals the oracle', async () => {
    // 40 pages of 500 entries, 25 ms each: the kill lands well inside the day.
    h = await storeHarness(store, { entriesPerDay: 20_000, pageSize: 500, latencyMs: 25 });
    const day = addDays(TODAY, -1);
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms' },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      history: { path: join(h.dir, 'history') },
      shieldZones: [201],
      log: { level: 'warn' },
    });
    const args = ['--config', config, 'sync', '--date', day, '--source', 'shield', '--json', '--no-progress'];
    const env = h.databaseUrl ? { EDGELOG_DATABASE_URL: h.databaseUrl } : {};

    first = startCli(args, { cwd: h.dir, env });
    const pages = await waitFor(
      '8 pages stored',
      async () => {
        const n = await pagesStored(h);
        return n >= 8 ? n : undefined;
      },
      { timeoutMs: 45_000, everyMs: 20 },
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(pages).toBeGreaterThanOrEqual(8);

    const db = await h.reader();
    const [atKill] = await db.all<LedgerRow>("SELECT * FROM ingest_ledger WHERE source = 'shield'");
    expect(atKill!.state).toBe('running');
    expect(atKill!.next_token).not.toBeNull();
    expect(atKill!.pages).toBeLessThan(40);
    // Entries and checkpoint committed together: exactly the pages the ledger counts are stored.
    expect(await db.value('SELECT count(*) FROM shield_event_logs')).toBe(atKill!.pages * 500);

    const second = await runCli(args, { cwd: h.dir, env });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as SyncSummary;
    expect(summary.results[0]).toMatchObject({ outcome: 'complete', state: 'complete', resumed: true });

    const want = h.sim
      .entries('shield', 201, day, NOW)
      .map((e) => e.logId)
      .sort();
    const got = (await db.all<{ log_id: string }>('SELECT log_id FROM shield_event_logs'))
      .map((r) => r.log_id)
      .sort();
    expect(got.length).toBe(20_000);
    expect(got).toEqual(want);
    expect(await db.value('SELECT sum(count) FROM shield_hourly')).toBe(20_000);
  }, 120_000);
});
