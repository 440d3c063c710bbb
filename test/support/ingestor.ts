// A DayIngestor wired as the engine wires it (archive, client, optionally a page thread), for tests that
// drive single passes: leases, checkpoints, failures of the store.
import { createApiClient } from '../../src/api/index.js';
import { DayIngestor, type DayIngestorDeps } from '../../src/ingest/day-ingestor.js';
import { PageThreads } from '../../src/ingest/page-threads.js';
import { silentLogger } from '../../src/logger.js';
import { openArchive, type Archive } from '../../src/store/archive.js';
import type { ConfigInput } from '../../src/config/index.js';
import { NOW, type Harness } from './harness.js';

export interface TestIngestor {
  ingestor: DayIngestor;
  archive: Archive;
  threads: PageThreads | undefined;
  close(): Promise<void>;
}

export async function testIngestor(
  h: Harness,
  opts: { pageThreads?: number; config?: ConfigInput; deps?: Partial<DayIngestorDeps> } = {},
): Promise<TestIngestor> {
  const config = h.config(opts.config);
  const archive = openArchive(h.dbPath);
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
    db: archive.db,
    ledger: archive.ledger,
    origin: archive.origin,
    shield: archive.shield,
    quarantine: archive.quarantine,
    logger: silentLogger(),
    now: () => NOW,
    pageCap: config.api.pageCap,
    finalizeDelayMs: config.schedule.finalizeDelay,
    ...opts.deps,
  });
  return {
    ingestor,
    archive,
    threads,
    async close() {
      await threads?.close();
      await api.close();
      await archive.close();
    },
  };
}
