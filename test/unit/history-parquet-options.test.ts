// The history files' Parquet options (src/history/parquet-options.ts): each table's defaults, and values that
// would go into SQL text refused.
import { describe, expect, it } from 'vitest';
import { DEFAULT_PARQUET_OPTIONS, parquetOptionsSql } from '../../src/history/parquet-options.js';

describe('the history files Parquet options', () => {
  it.each([
    // Shield's files are most of a compaction's DuckDB time: level 1 (0.87× the raw JSON's gzip).
    ['shield_event_logs', 1],
    // Origin's at level 1 would be as large as the gzip: level 6.
    ['origin_error_logs', 6],
    ['quarantined_entries', 6],
  ] as const)('%s: zstd level %i, V2 pages', (table, level) => {
    const sql = parquetOptionsSql(DEFAULT_PARQUET_OPTIONS[table]);
    expect(sql).toContain(`COMPRESSION zstd, COMPRESSION_LEVEL ${level}, PARQUET_VERSION V2`);
  });

  it.each([
    [{ zstdLevel: 0 }, /zstd level/],
    [{ zstdLevel: 23 }, /zstd level/],
    [{ zstdLevel: 1.5 }, /zstd level/],
    [{ version: 'V3' }, /Parquet version/],
    [{ rowGroupSize: 100 }, /row group size/],
  ] as const)('refuses %o', (change, message) => {
    const options = { ...DEFAULT_PARQUET_OPTIONS.origin_error_logs, ...change } as Parameters<
      typeof parquetOptionsSql
    >[0];
    expect(() => parquetOptionsSql(options)).toThrow(message);
  });
});
