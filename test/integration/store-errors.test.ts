// A day whose writes the archive refuses, against the simulator over loopback and a real archive: the
// error names the file and the cause, the ledger says it and agrees with the rows, and when the ledger
// itself cannot be written (it shares the file), the day is still released as soon as it can be.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { ownerId } from '../../src/ingest/day-ingestor.js';
import { createLogger } from '../../src/logger.js';
import { StoreError } from '../../src/store/store-error.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, TODAY } from '../support/harness.js';
import { ingestorPerTest, testIngestor } from '../support/ingestor.js';

const s = ingestorPerTest();

const key = { source: 'shield' as const, zone: 201, day: addDays(TODAY, -1) };
const rows = () => s.t.archive.db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get() as number;
const FULL = (file: string) =>
  `disk full writing ${file} (SQLITE_FULL: database or disk is full): free space on its filesystem; ` +
  'the day is kept at its last checkpoint and ingestion resumes by itself';

/** Lets the archive grow by `pages` pages only: SQLite then answers SQLITE_FULL, as on a full disk. */
function limitPages(pages: number): void {
  const db = s.t.archive.db;
  db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + pages}`);
}

describe('the archive refuses a write', () => {
  it('the error names the file and the cause; the ledger records it and counts only what is stored', async () => {
    s.h = await harness({ entriesPerDay: 6_000, pageSize: 500 });
    s.t = await testIngestor(s.h);
    limitPages(150);
    const err = await s.t.ingestor.run(key, { owner: ownerId('job-1') }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({
      code: 'SQLITE_FULL',
      failure: 'full',
      retryable: true,
      location: s.h.dbPath,
    });
    expect((err as Error).message).toBe(FULL(s.h.dbPath));
    const row = s.t.archive.ledger.get(key)!;
    expect(row).toMatchObject({ state: 'running', last_error: FULL(s.h.dbPath), lease_owner: null });
    expect(row.next_token).not.toBeNull();
    expect(row.archived_entries).toBe(rows());
    expect(rows()).toBeGreaterThan(0);
    expect(rows()).toBeLessThan(6_000);
    expect(s.t.archive.db.pragma('integrity_check', { simple: true })).toBe('ok');

    s.t.archive.db.pragma('max_page_count = 1073741823');
    const again = await s.t.ingestor.run(key, { owner: ownerId('job-2') });
    expect(again).toMatchObject({ outcome: 'complete', resumed: true, archived: 6_000 });
    expect(rows()).toBe(6_000);
  });

  it('when the ledger cannot record the failure either: logged, the same error thrown, the day released once it can be', async () => {
    s.h = await harness({ entriesPerDay: 6_000, pageSize: 500 });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    s.t = await testIngestor(s.h, { deps: { logger } });
    limitPages(150);
    // The ledger's own write fails as well (SQLite refuses it through a trigger, as a full disk would).
    s.t.archive.db.exec(`CREATE TRIGGER refuse_stop BEFORE UPDATE OF last_error ON ingest_ledger
      WHEN NEW.last_error IS NOT NULL BEGIN SELECT RAISE(ABORT, 'no room for the ledger'); END`);
    const err = await s.t.ingestor.run(key, { owner: ownerId('job-1') }).catch((e: unknown) => e);
    expect((err as Error).message).toBe(FULL(s.h.dbPath)); // the day's error, not the ledger's
    const logged = lines.map(
      (l) => JSON.parse(l) as { level: number; msg: string; err: string; ledgerErr: string },
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'day failed, and the ledger could not record it yet; trying again every second',
        err: FULL(s.h.dbPath),
        ledgerErr: expect.stringContaining('no room for the ledger') as string,
      }),
    );
    const held = s.t.archive.ledger.get(key)!;
    expect(held.lease_owner).not.toBeNull(); // not released yet
    expect(held.archived_entries).toBe(rows()); // pages and checkpoint committed together all the same

    s.t.archive.db.exec('DROP TRIGGER refuse_stop');
    for (let i = 0; i < 40 && s.t.archive.ledger.get(key)!.lease_owner !== null; i++) await sleep(100);
    expect(s.t.archive.ledger.get(key)).toMatchObject({ lease_owner: null, last_error: FULL(s.h.dbPath) });
    s.t.archive.db.pragma('max_page_count = 1073741823');
    const again = await s.t.ingestor.run(key, { owner: ownerId('job-2') });
    expect(again).toMatchObject({ outcome: 'complete', resumed: true, archived: 6_000 });
  });
});
