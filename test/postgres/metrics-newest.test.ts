// edgelog_zone_newest_entry_timestamp_seconds on both stores, for several zones: each zone's gauge is
// the newest entry the simulator served it (a zone with none has no sample), and on PostgreSQL a scrape
// reads them all in one query rather than one per zone.
import { afterEach, describe, expect, it } from 'vitest';
import { startEngine, type Engine } from '../../src/engine.js';
import type { DayResult } from '../../src/ingest/day-ingestor.js';
import { silentLogger } from '../../src/logger.js';
import { newestEntriesSql } from '../../src/store/archive-reads.js';
import type { QueryStore } from '../../src/store/store.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, NOW, TODAY, type Harness } from '../support/harness.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';
import { createTestDatabase, testServer } from './support/server.js';

const server = await testServer();

let h: Harness | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await h?.close();
  engine = h = undefined;
});

const YESTERDAY = addDays(TODAY, -1);
const ZONES = { origin: [101, 102, 103], shield: [201, 202] };
/** Synced; 103 is configured but never synced: it has no entry. */
const SYNCED = [
  { source: 'origin', zone: 101 },
  { source: 'origin', zone: 102 },
  { source: 'shield', zone: 201 },
  { source: 'shield', zone: 202 },
] as const;

/**
 * Counts the read-only queries of the store that read entries (the PostgreSQL gauge's path; the scrape
 * also reads the database's size, which is not this gauge's).
 */
function countQueries(queries: QueryStore): () => number {
  let calls = 0;
  const readOnly = queries.readOnly.bind(queries);
  queries.readOnly = (...args) => {
    if (/_error_logs|_event_logs/.test(args[0])) calls++;
    return readOnly(...args);
  };
  return () => calls;
}

async function newestGauges(dialect: 'sqlite' | 'postgres') {
  const db = dialect === 'postgres' ? await createTestDatabase(server!) : undefined;
  h = await harness(
    { entriesPerDay: 400, pageSize: 200 },
    db ? { databaseUrl: db.url, onClose: () => db.drop() } : {},
  );
  engine = await startEngine(
    h.config({
      metrics: { listen: '127.0.0.1:0' },
      pullZones: ZONES.origin,
      shieldZones: ZONES.shield,
    }),
    silentLogger(),
    { now: () => NOW, metrics: true },
  );
  // Served before the sync, as edgelog run does: scraped at once, the event-loop histogram of the
  // process metrics would have no sample yet (NaN, which prom-client prints as "Nan").
  const url = (await engine.serveMetrics())!.url;
  const own = engine.privateRuntime(`sync-${Date.now()}`);
  try {
    const jobs = await own.enqueueSync(
      SYNCED.map((s) => ({ ...s, day: YESTERDAY, reason: 'sync' as const })),
    );
    own.startWorker();
    const outcomes = await own.waitFor<DayResult>(jobs);
    expect(outcomes.map((o) => o.result?.outcome)).toEqual(SYNCED.map(() => 'complete'));
  } finally {
    await own.discard();
  }
  const queries = countQueries(engine.store.queries);
  const before = queries();
  const families = parsePromText(await (await fetch(`${url}/metrics`)).text());
  return { families, queriesPerScrape: queries() - before };
}

/** The newest keyable entry the simulator served a zone yesterday, in seconds. */
function served(source: 'origin' | 'shield', zone: number): number {
  const entries = h!.sim.entries(source, zone, YESTERDAY).filter((e) => e.keyable);
  return Math.max(...entries.map((e) => e.timestamp)) / 1000;
}

const GAUGE = 'edgelog_zone_newest_entry_timestamp_seconds';

describe('the newest-entry gauge', () => {
  it('reads every zone in one statement, the same on both stores', () => {
    const sql = newestEntriesSql({ origin: [101, 102], shield: [201] })!;
    expect(sql).toContain('origin_zones(zone) AS (VALUES (101), (102))');
    expect(sql).toContain('shield_zones(zone) AS (VALUES (201))');
    expect(sql.match(/SELECT max\(e\.timestamp\)/g)).toHaveLength(2);
    expect(newestEntriesSql({ origin: [], shield: [] })).toBeNull();
    expect(newestEntriesSql({ origin: [], shield: [7] })).not.toContain('origin');
  });

  const stores = server === null ? (['sqlite'] as const) : (['sqlite', 'postgres'] as const);
  it.each(stores)(
    '%s: each zone its own newest entry; none for a zone without entries',
    async (dialect) => {
      const { families, queriesPerScrape } = await newestGauges(dialect);
      for (const { source, zone } of SYNCED) {
        expect(sampleValue(families, GAUGE, { source, zone: String(zone) }), `${source} ${zone}`).toBe(
          served(source, zone),
        );
      }
      const zones = families.get(GAUGE)!.samples.map((s) => `${s.labels.source} ${s.labels.zone}`);
      expect(zones.sort()).toEqual(SYNCED.map((s) => `${s.source} ${s.zone}`).sort());
      // Zones differ: the gauge is per zone, not one value repeated.
      expect(new Set(SYNCED.map((s) => served(s.source, s.zone))).size).toBe(SYNCED.length);
      if (dialect === 'postgres') expect(queriesPerScrape).toBe(1);
    },
    60_000,
  );
});
