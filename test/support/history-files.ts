// The history as the worker and `edgelog compact` make it, for the readers' tests: one history pass
// (flush, merge of the settled days, pruning past hotDays) over a harness's archive, and the reads a test
// makes of it.
import { join } from 'node:path';
import { compactionPageRows, SCRATCH_DIR, type HistoryDeps } from '../../src/history/compact-day.js';
import { COMPACTION_DUCKDB_OPTIONS, openDuckDb } from '../../src/history/duckdb.js';
import { historyPass, type PassSummary } from '../../src/history/history-pass.js';
import { expireArchive } from '../../src/history/retention.js';
import { DEFAULT_PARQUET_OPTIONS } from '../../src/history/parquet-options.js';
import type { DayFilter } from '../../src/history/plan.js';
import { openStore } from '../../src/store/open-store.js';
import { postgresQueries } from '../../src/store/postgres/postgres-store.js';
import { sqliteReader } from '../../src/store/sqlite/reader.js';
import type { QueryStore } from '../../src/store/store.js';
import type { Harness } from './harness.js';

/** The harness's store, read as `edgelog query --engine store` reads it. */
export function storeQueries(h: Pick<Harness, 'dbPath' | 'databaseUrl'>): QueryStore {
  return h.databaseUrl === undefined
    ? sqliteReader(h.dbPath).queries
    : postgresQueries({ url: h.databaseUrl });
}

/** The harness's history directory (the default: beside the SQLite file). */
export const historyRoot = (h: Pick<Harness, 'dir'>): string => join(h.dir, 'history');

export interface PassOn {
  /** @defaultValue every day */
  filter?: DayFilter;
  /** history.hotDays: null keeps every row in the store. @defaultValue null */
  hotDays?: number | null;
  /** @defaultValue 3 */
  originLookbackDays?: number;
  /** @defaultValue the harness's NOW */
  now?: () => number;
  /** @defaultValue historyRoot(h) */
  root?: string;
  /** Called with the pass's dependencies before it runs (hooks, say). */
  tune?: (deps: HistoryDeps) => void;
}

/** One history pass over the harness's archive, as `edgelog compact` runs it. */
export async function compactArchive(
  h: Pick<Harness, 'dir' | 'dbPath' | 'databaseUrl'>,
  now: () => number,
  opts: PassOn = {},
): Promise<PassSummary> {
  const store = await openStore({
    path: h.dbPath,
    url: h.databaseUrl ?? null,
    readerUrl: null,
    retentionDays: null,
  } as Parameters<typeof openStore>[0]);
  const root = opts.root ?? historyRoot(h);
  const duck = await openDuckDb({ ...COMPACTION_DUCKDB_OPTIONS, tempDirectory: join(root, SCRATCH_DIR) });
  try {
    const deps: HistoryDeps = {
      store: store,
      root,
      duck,
      owner: `test-${process.pid}`,
      now: opts.now ?? now,
      leaseMs: 60_000,
      parquet: DEFAULT_PARQUET_OPTIONS,
      pageRows: compactionPageRows(store.dialect),
    };
    opts.tune?.(deps);
    return await historyPass(deps, {
      ...(opts.filter ? { filter: opts.filter } : {}),
      hotDays: opts.hotDays ?? null,
      originLookbackDays: opts.originLookbackDays ?? 3,
    });
  } finally {
    duck.closeSync();
    await store.close();
  }
}

/** Retention over the whole archive (store and history), as the worker's maintenance job runs it. */
export async function expireAll(
  h: Pick<Harness, 'dir'>,
  store: Parameters<typeof expireArchive>[0]['store'],
  beforeMs: number,
  now: number,
): Promise<void> {
  await expireArchive(
    { store, root: historyRoot(h), owner: `test-retention-${process.pid}`, now: () => now, leaseMs: 60_000 },
    beforeMs,
  );
}
