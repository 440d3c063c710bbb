// Retention: entries (and their rollup hours) older than database.retentionDays go; the rest stays.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { parseOriginEntry, parseShieldEntry } from '../../src/ingest/parse-entries.js';
import { silentLogger } from '../../src/logger.js';
import { runMaintenance, type HandlerDeps } from '../../src/queue/handlers.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { addDays, dayStartMs, type Day } from '../../src/time/utc-day.js';

let dir: string;
let store: SqliteStore | undefined;
afterEach(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const TODAY = '2026-11-22' as Day;
const entry = (day: Day, i: number) => ({
  logId: `${day}-${i}`,
  timestamp: dayStartMs(day) + i * 3_600_000,
  log: '{"StatusCode":502,"ErrorCode":"dns_lookup","RequestUrl":"https://x/"}',
  labels: { ruleId: '1', severity: 'critical', status: '403' },
});

describe('retention', () => {
  it.each([
    [null, 5, 5],
    [2, 3, 3], // today and the two days before
  ])('retentionDays %j keeps %i days of each table', async (retentionDays, originDays, shieldDays) => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-retention-'));
    store = openSqliteStore(join(dir, 'a.db'));
    const a = store.archive;
    for (let d = 0; d < 5; d++) {
      const day = addDays(TODAY, -d);
      a.db.transaction(() => {
        a.origin.storeRows(
          101,
          day,
          [0, 1, 2].map((i) => parseOriginEntry(entry(day, i))),
        );
        a.shield.storeRows(
          201,
          day,
          [0, 1].map((i) => parseShieldEntry(entry(day, i))),
        );
      })();
    }
    const config = parseConfig({ database: { path: join(dir, 'a.db'), retentionDays } });
    const deps = {
      config,
      store,
      logger: silentLogger(),
      now: () => Date.parse('2026-11-22T10:00:00Z'),
    };
    const result = await runMaintenance(deps as unknown as HandlerDeps);
    const count = (sql: string) => a.db.prepare(sql).pluck().get() as number;
    expect(count('SELECT count(DISTINCT log_date) FROM origin_error_logs')).toBe(originDays);
    expect(count('SELECT count(DISTINCT log_date) FROM shield_event_logs')).toBe(shieldDays);
    expect(count('SELECT sum(count) FROM origin_hourly')).toBe(originDays * 3);
    expect(count('SELECT sum(count) FROM shield_hourly')).toBe(shieldDays * 2);
    expect(count('SELECT min(log_date) FROM origin_error_logs')).toBe(addDays(TODAY, 1 - originDays));
    expect(result).toEqual(
      retentionDays === null
        ? { prunedOrigin: 0, prunedShield: 0, cutoffDay: null }
        : { prunedOrigin: 6, prunedShield: 4, cutoffDay: '2026-11-20' },
    );
  });
});
