// The stores agree (issue 17): pages whose values sit at every limit (edge-values.ts), decoded by
// ingestion and stored into SQLite and PostgreSQL through the real store code, leave identical archives —
// every stored column of the entry tables, the rollups, the quarantined entries, the ledger, Guardian
// snapshots — on a first
// fetch and on a re-fetch; the ledger's totals are the rows; every entry is a row or quarantined at its
// place, and every plainly valid one is a row. Then `migrate-store` of the SQLite archive into a fresh
// PostgreSQL database gives the PostgreSQL archive. Short in `npm test`; `npm run soak` runs it with a
// twentieth of PROPERTY_RUNS (each input is a few dozen transactions on two stores).
import fc from 'fast-check';
import type { ApiGuardianMetrics } from '../../src/api/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateStore } from '../../src/store/migrate-store/migrate-store.js';
import type { DayKey, LogSource } from '../../src/store/store.js';
import {
  ARCHIVE_TABLES,
  ledgerOf,
  openPostgres,
  openSqlite,
  storeOriginPass,
  storeShieldPass,
  tableRows,
  type OpenedStore,
  type Row,
} from '../support/page-store.js';
import { openReader } from '../support/archive-reader.js';
import { describePostgres } from '../support/stores.js';
import { DAY, DAY_START, edgeCounters, edgePages } from './edge-values.js';
import { keyable } from './arbitraries.js';
import { plainlyStorable } from './judge.js';
import { propertyParams } from './runs.js';

const NOW = DAY_START + 3 * 86_400_000;
const ENTRY_TABLE: Record<LogSource, string> = { origin: 'origin_error_logs', shield: 'shield_event_logs' };
const ROLLUP_TABLE: Record<LogSource, string> = { origin: 'origin_hourly', shield: 'shield_hourly' };
const ZONE_COLUMN: Record<LogSource, string> = { origin: 'pull_zone_id', shield: 'shield_zone_id' };

/** One input: a day of one source, its pages, and whether it is fetched a second time. */
const scenario = fc.record({
  source: fc.constantFrom<LogSource>('shield', 'origin'),
  pages: edgePages,
  refetch: fc.boolean(),
  batchSize: fc.integer({ min: 1, max: 4 }),
  counters: edgeCounters,
});

async function storePass(s: OpenedStore, key: DayKey, pages: string[][], at: number, batchSize: number) {
  if (key.source === 'shield') await storeShieldPass(s.store, key, pages, at);
  else await storeOriginPass(s.store, key, pages.flat(), at, batchSize);
}

/** A zone's rows in every table, as one store holds them. */
async function zoneArchive(s: OpenedStore, key: DayKey): Promise<Record<string, Row[]>> {
  const zone = `${ZONE_COLUMN[key.source]} = ${key.zone}`;
  const day = `source = '${key.source}' AND zone_id = ${key.zone}`;
  return {
    entries: await tableRows(s.reader, ENTRY_TABLE[key.source], zone),
    rollup: await tableRows(s.reader, ROLLUP_TABLE[key.source], zone),
    quarantine: await tableRows(s.reader, 'quarantined_entries', day),
    ledger: await tableRows(s.reader, 'ingest_ledger', day),
    snapshots: await tableRows(s.reader, 'api_guardian_snapshots', `shield_zone_id = ${key.zone}`),
  };
}

describePostgres('SQLite and PostgreSQL store pages at the limits alike', (_kind, server) => {
  let sqlite: OpenedStore;
  let postgres: OpenedStore;
  let zone = 1000;
  let entriesSent = 0;
  let plainlyValid = 0;
  beforeAll(async () => {
    sqlite = await openSqlite(() => NOW);
    postgres = await openPostgres(server, () => NOW);
  });
  afterAll(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  it('every page leaves the same archive on both, every entry a row or quarantined, valid ones rows', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async ({ source, pages, refetch, batchSize, counters }) => {
        const key: DayKey = { source, zone: ++zone, day: DAY };
        const passes = refetch ? 2 : 1;
        for (let pass = 0; pass < passes; pass++) {
          for (const s of [sqlite, postgres]) await storePass(s, key, pages, NOW + pass, batchSize);
        }
        // A Guardian snapshot of the same zone, its counters at the edges too.
        const metrics = { data: counters } as ApiGuardianMetrics;
        for (const s of [sqlite, postgres]) await s.store.guardian.add(key.zone, new Date(NOW), metrics);
        const [a, b] = [await zoneArchive(sqlite, key), await zoneArchive(postgres, key)];
        expect(b).toEqual(a);

        // The ledger's totals are the rows, and the pass counted what the API sent.
        const ledger = await ledgerOf(sqlite.store, key);
        expect(ledger.archived_entries).toBe(a.entries!.length);
        expect(ledger.quarantined_entries).toBe(a.quarantine!.length);
        const elements = source === 'shield' ? pages : [pages.flat()];
        expect(ledger.entries).toBe(elements.flat().length);

        // Every element is a row (by its key) or quarantined at its place; plainly valid ones are rows.
        const rows = new Set(a.entries!.map((r) => `${String(r.timestamp)}|${String(r.log_id)}`));
        const quarantined = new Set(a.quarantine!.map((q) => `${String(q.page)}|${String(q.position)}`));
        elements.forEach((page, p) =>
          page.forEach((text, i) => {
            const entry = JSON.parse(text) as unknown;
            const place = `${source === 'shield' ? p + 1 : 0}|${i}`;
            const row = keyable(entry) && rows.has(`${entry.timestamp}|${entry.logId}`);
            entriesSent++;
            if (plainlyStorable(entry)) {
              plainlyValid++;
              expect(row, `a plainly valid entry is archived: ${text.slice(0, 200)}`).toBe(true);
            }
            expect(row || quarantined.has(place), `accounted for: ${text.slice(0, 200)}`).toBe(true);
          }),
        );
      }),
      propertyParams(12, process.env, 20),
    );
    // The generator reaches valid entries, not only odd ones.
    expect(plainlyValid).toBeGreaterThan(entriesSent / 10);
  });

  it('migrate-store of the SQLite archive gives the PostgreSQL archive', async () => {
    const target = await openPostgres(server, () => NOW);
    try {
      const result = await migrateStore({ from: sqlite.where, to: target.where, now: () => NOW });
      expect(result.mismatches).toEqual([]);
      const reader = await openReader({ store: 'postgres', url: target.where });
      try {
        for (const table of Object.keys(ARCHIVE_TABLES)) {
          expect(await tableRows(reader, table), table).toEqual(await tableRows(postgres.reader, table));
        }
      } finally {
        await reader.close();
      }
    } finally {
      await target.close();
    }
  });
});
