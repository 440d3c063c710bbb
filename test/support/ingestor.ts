// A DayIngestor wired as the engine wires it (archive, client, optionally a page thread), for tests that
// drive single passes: leases, checkpoints, failures of the store.
import { afterEach } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { DayIngestor, type DayIngestorDeps } from '../../src/ingest/day-ingestor.js';
import { PageThreads } from '../../src/ingest/page-threads.js';
import { silentLogger } from '../../src/logger.js';
import type { Archive } from '../../src/store/sqlite/archive.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { ConfigInput } from '../../src/config/index.js';
import { NOW, type Harness } from './harness.js';

export interface TestIngestor {
  ingestor: DayIngestor;
  /** The SQLite store the ingestor writes, and its repositories (for synchronous checks). */
  store: SqliteStore;
  archive: Archive;
  threads: PageThreads | undefined;
  close(): Promise<void>;
}

export async function testIngestor(
  h: Harness,
  opts: { pageThreads?: number; config?: ConfigInput; deps?: Partial<DayIngestorDeps> } = {},
): Promise<TestIngestor> {
  const config = h.config(opts.config);
  const store = openSqliteStore(h.dbPath);
  const archive = store.archive;
  const api = createApiClient(config.api, silentLogger());
  const threads = opts.pageThreads
    ? new PageThreads({ threads: 1, api: config.api, logger: silentLogger() })
    : undefined;
  await threads?.warm();
  const ingestor = new DayIngestor({
    client: api.client,
    ...(threads
      ? { pages: threads.shieldPages.bind(threads), originDays: threads.streamOriginDay.bind(threads) }
      : {}),
    store,
    logger: silentLogger(),
    now: () => NOW,
    pageCap: config.api.pageCap,
    finalizeDelayMs: config.schedule.finalizeDelay,
    ...opts.deps,
  });
  return {
    ingestor,
    store,
    archive,
    threads,
    async close() {
      await threads?.close();
      await api.close();
      await store.close();
    },
  };
}

/** A test's harness and ingestor (reading one before the test set it throws). */
export interface IngestorScope {
  h: Harness;
  t: TestIngestor;
}

/**
 * The harness and ingestor of each test of a file, both closed after it (the ingestor first). Call
 * once at the top of the file; each test sets `h` and then `t`.
 */
export function ingestorPerTest(): IngestorScope {
  let h: Harness | undefined;
  let t: TestIngestor | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
    await h?.close();
    h = undefined;
  });
  const unset = (what: string) => new Error(`this test has not set its ${what} yet`);
  return {
    get h() {
      if (!h) throw unset('harness');
      return h;
    },
    set h(value) {
      h = value;
    },
    get t() {
      if (!t) throw unset('ingestor');
      return t;
    },
    set t(value) {
      t = value;
    },
  };
}
