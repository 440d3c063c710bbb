// A worker killed mid-day with SIGKILL, then run again, ends with exactly the oracle: none lost, none twice.
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/commands/sync.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import type { LedgerRow } from '../../src/store/sqlite/ledger.repository.js';
import { addDays } from '../../src/time/utc-day.js';
import { notCreatedYet } from '../fault/lib/progress.js';
import { waitFor } from '../fault/lib/wait.js';
import { runCli, startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { harness, NOW, redisUrl, TODAY, type Harness } from '../support/harness.js';

let h: Harness;
let first: StartedCli | undefined;
afterEach(async () => {
  if (first && first.child.exitCode === null && first.child.signalCode === null) first.child.kill('SIGKILL');
  await first?.done;
  await h?.close();
});

/** Pages the day's ledger row counts so far; 0 before the worker has created the archive. */
function pagesStored(path: string): number {
  let db;
  try {
    db = openDatabase(path, { readonly: true });
    const row = db.prepare("SELECT pages FROM ingest_ledger WHERE source = 'shield'").get() as
      Pick<LedgerRow, 'pages'> | undefined;
    return row?.pages ?? 0;
  } catch (err) {
    if (notCreatedYet(err)) return 0;
    throw err; // any other database error is a failure, not "not yet"
  } finally {
    db?.close();
  }
}

describe('crash safety', () => {
  it('SIGKILL mid-day, then a re-run: the archive equals the oracle', async () => {
    // 40 pages of 500 entries, 25 ms each: the kill lands well inside the day.
    h = await harness({ entriesPerDay: 20_000, pageSize: 500, latencyMs: 25 });
    const day = addDays(TODAY, -1);
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms' },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      shieldZones: [201],
      log: { level: 'warn' },
    });
    const args = ['--config', config, 'sync', '--date', day, '--source', 'shield', '--json'];

    first = startCli(args, { cwd: h.dir });
    const pages = await waitFor(
      '8 pages stored',
      () => {
        const n = pagesStored(h.dbPath);
        return n >= 8 ? n : undefined;
      },
      { timeoutMs: 45_000, everyMs: 20 },
    );
    first.child.kill('SIGKILL');
    const killed = await first.done;
    expect(killed.signal).toBe('SIGKILL');
    expect(pages).toBeGreaterThanOrEqual(8);

    const db = openDatabase(h.dbPath, { readonly: true });
    const atKill = db.prepare("SELECT * FROM ingest_ledger WHERE source = 'shield'").get() as LedgerRow;
    expect(atKill.state).toBe('running');
    expect(atKill.next_token).not.toBeNull();
    expect(atKill.pages).toBeLessThan(40);
    // Entries and checkpoint committed together: exactly the pages the ledger counts are stored.
    expect(db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get()).toBe(atKill.pages * 500);

    const second = await runCli(args, { cwd: h.dir });
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    const summary = JSON.parse(second.stdout) as SyncSummary;
    expect(summary.results[0]).toMatchObject({ outcome: 'complete', state: 'complete', resumed: true });

    const want = h.sim
      .entries('shield', 201, day, NOW)
      .map((e) => e.logId)
      .sort();
    const got = db.prepare('SELECT log_id FROM shield_event_logs ORDER BY log_id').pluck().all() as string[];
    expect(got.length).toBe(20_000);
    expect(got).toEqual(want);
    expect(db.prepare('SELECT sum(count) FROM shield_hourly').pluck().get()).toBe(20_000);
    db.close();
  }, 120_000);
});
