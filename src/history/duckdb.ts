// DuckDB, loaded only by the commands that use it (loading it costs ~250 ms here: `edgelog --help` and
// the store's own queries must not pay for it), with its memory and threads bounded.
import { createRequire } from 'node:module';
import type { DuckDBConnection } from '@duckdb/node-api';

export interface DuckDbOptions {
  /** DuckDB's memory_limit, e.g. "256MB". */
  memoryLimit: string;
  /** Worker threads; the machine's cores are shared with the ingesting worker. */
  threads: number;
  /**
   * Where DuckDB spills what does not fit in memory_limit (it cannot be changed once used).
   * @defaultValue none: nothing spills until a directory is set (duckdb-guard.ts privateSpill). Never
   * DuckDB's own, `.tmp` in the working directory: DuckDB may read its temp directory whatever else it
   * is refused, and other files live there
   */
  tempDirectory?: string;
  /**
   * DuckDB hands the memory its threads freed back to the system once they hold more than `threshold`
   * after a task (allocator_flush_threshold), or `bulk` freed at once (allocator_bulk_deallocation_
   * flush_threshold). With DuckDB's defaults the blocks the Parquet writer and reader freed stayed in the
   * process: compacting a 1,000,000-entry day peaked at 378 MiB RSS while DuckDB itself accounted for
   * ~20 MiB; with 8MB/16MB, 267 MiB (docs/HISTORY.md, "Memory and spill").
   * @defaultValue DuckDB's own (128 MiB, and 512 MiB)
   */
  allocatorFlush?: { threshold: string; bulk: string };
}

export const DEFAULT_DUCKDB_OPTIONS: DuckDbOptions = { memoryLimit: '256MB', threads: 2 };

/**
 * The flush's and the merge's: they run beside ingestion in the worker, and writing a part a page at a
 * time keeps what they hold small (part-file.ts); one thread writes a file about as fast here and holds
 * one row group, not two.
 */
export const COMPACTION_DUCKDB_OPTIONS: DuckDbOptions = {
  memoryLimit: '192MB',
  threads: 1,
  allocatorFlush: { threshold: '8MB', bulk: '16MB' },
};

/** Opens a fresh DuckDB connection: openDuckDb (a test passes a counting wrapper of it). */
export type OpenDuckDb = (opts: DuckDbOptions) => Promise<DuckDBConnection>;

const SIZE = /^\d+(\.\d+)?\s*(B|KB|MB|GB|KiB|MiB|GiB)$/;

/**
 * @duckdb/node-api decodes every text value with one `new TextDecoder()` of its own, which drops a U+FEFF
 * at the start of a value (ignoreBOM defaults to false): an entry whose URL or log begins with one would
 * be shown and exported without it. That decoder is an export of the client's module (declared in its
 * types); it is swapped, once, for one that keeps the mark. test/history/query-history.test.ts fails if
 * a later client stops reading it from there.
 */
function keepByteOrderMarks(): void {
  const accessors = createRequire(import.meta.url)('@duckdb/node-api/lib/vectors/dataAccessors.js') as {
    textDecoder: { readonly ignoreBOM: boolean };
  };
  if (!accessors.textDecoder.ignoreBOM) accessors.textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });
}

/** An in-memory DuckDB connection (no database file: the history is Parquet files). */
export async function openDuckDb(opts: DuckDbOptions = DEFAULT_DUCKDB_OPTIONS): Promise<DuckDBConnection> {
  // The settings go into SQL text, so they are checked here rather than trusted.
  if (!SIZE.test(opts.memoryLimit)) throw new RangeError(`not a DuckDB memory limit: ${opts.memoryLimit}`);
  for (const size of Object.values(opts.allocatorFlush ?? {}))
    if (!SIZE.test(size)) throw new RangeError(`not a DuckDB allocator threshold: ${size}`);
  if (!Number.isInteger(opts.threads) || opts.threads < 1)
    throw new RangeError(`not a thread count: ${opts.threads}`);
  const { DuckDBInstance } = await import('@duckdb/node-api');
  keepByteOrderMarks();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  await connection.run(`SET memory_limit = '${opts.memoryLimit}'`);
  await connection.run(`SET threads = ${opts.threads}`);
  if (opts.allocatorFlush) {
    await connection.run(`SET allocator_flush_threshold = '${opts.allocatorFlush.threshold}'`);
    await connection.run(`SET allocator_bulk_deallocation_flush_threshold = '${opts.allocatorFlush.bulk}'`);
  }
  await connection.run(`SET temp_directory = '${(opts.tempDirectory ?? '').replaceAll("'", "''")}'`);
  return connection;
}
