// openDuckDb (src/history/duckdb.ts) on a real DuckDB: compaction's connection hands freed memory back
// early (the allocator thresholds, without which its peak RSS was 378 MiB instead of 267 on a
// 1,000,000-entry day), and a setting that is not a size never reaches SQL text.
import { describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { COMPACTION_DUCKDB_OPTIONS, DEFAULT_DUCKDB_OPTIONS, openDuckDb } from '../../src/history/duckdb.js';

async function setting(duck: DuckDBConnection, name: string): Promise<string> {
  const reader = await duck.runAndReadAll(`SELECT current_setting('${name}')`);
  return String(reader.getRows()[0]?.[0]);
}

describe('openDuckDb', () => {
  it("sets compaction's allocator flush thresholds, and leaves DuckDB's own elsewhere", async () => {
    const duck = await openDuckDb(COMPACTION_DUCKDB_OPTIONS);
    const plain = await openDuckDb(DEFAULT_DUCKDB_OPTIONS);
    try {
      expect(COMPACTION_DUCKDB_OPTIONS.allocatorFlush).toEqual({ threshold: '8MB', bulk: '16MB' });
      // DuckDB prints sizes in binary units: 8 MB is 7.6 MiB.
      expect(await setting(duck, 'allocator_flush_threshold')).toBe('7.6 MiB');
      expect(await setting(duck, 'allocator_bulk_deallocation_flush_threshold')).toBe('15.2 MiB');
      expect(await setting(plain, 'allocator_flush_threshold')).toBe('128.0 MiB');
      expect(await setting(plain, 'allocator_bulk_deallocation_flush_threshold')).toBe('512.0 MiB');
      expect(await setting(duck, 'memory_limit')).toBe('183.1 MiB');
      expect(await setting(duck, 'threads')).toBe('1');
    } finally {
      duck.closeSync();
      plain.closeSync();
    }
  });

  it('refuses a threshold that is not a size before any SQL is built from it', async () => {
    await expect(
      openDuckDb({
        ...COMPACTION_DUCKDB_OPTIONS,
        allocatorFlush: { threshold: "8MB'; SELECT 1; --", bulk: '16MB' },
      }),
    ).rejects.toThrow(/not a DuckDB allocator threshold/);
    await expect(
      openDuckDb({ ...COMPACTION_DUCKDB_OPTIONS, allocatorFlush: { threshold: '8MB', bulk: 'lots' } }),
    ).rejects.toThrow(/not a DuckDB allocator threshold: lots/);
  });
});
