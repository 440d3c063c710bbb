// runBoundedQuery: the query in this process, stopped at the --timeout deadline by its check between
// rows (a statement stuck in one step is the watchdog thread's: test/e2e/query-timeout.test.ts).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EdgelogError } from '../../src/errors/index.js';
import { OutputClosedError, type Output } from '../../src/format/output.js';
import { QueryError } from '../../src/query/query-error.js';
import { runBoundedQuery, type QueryRequest } from '../../src/query/run-bounded.js';
import { QueryTimeoutError } from '../../src/query/query-timeout-error.js';
import {
  memoryOutput,
  originEntry,
  storeOrigin,
  tempArchive,
  times,
  type TempArchive,
} from '../report/fixture.js';

let t: TempArchive;
beforeEach(() => {
  t = tempArchive();
  storeOrigin(
    t.archive,
    101,
    times(3, () => originEntry('2024-10-15T10:15:00Z', { status: 502 })),
  );
});
afterEach(() => t.cleanup());

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';
const request = (sql: string, more: Partial<QueryRequest> = {}): QueryRequest => ({
  path: t.path,
  sql,
  ...more,
});

/** Runs it and returns what it threw (or null), what it wrote, and how long it took. */
async function attempt(req: QueryRequest, timeoutMs: number, out: Output = memoryOutput()) {
  const started = performance.now();
  const err = await runBoundedQuery(req, out, { timeoutMs })
    .then(() => null)
    .catch((e: unknown) => e);
  return { err, ms: performance.now() - started, text: 'text' in out ? (out.text as () => string)() : '' };
}

describe('runBoundedQuery', () => {
  it('writes the result', async () => {
    const out = memoryOutput();
    const result = await runBoundedQuery(request('SELECT count(*) AS n FROM origin_error_logs'), out);
    expect(out.text()).toBe('n\n3\n(1 row)\n');
    expect(result).toEqual({ columns: ['n'], rows: 1, more: false });
  });

  it('the table format ends an endless result at --limit, well within the timeout', async () => {
    const out = memoryOutput();
    expect(await runBoundedQuery(request(ENDLESS, { limit: 2 }), out, { timeoutMs: 10_000 })).toEqual({
      columns: ['x'],
      rows: 2,
      more: true,
    });
  });

  it('stops an endless stream at the deadline; what was written stays written', async () => {
    const r = await attempt(request(ENDLESS, { format: 'ndjson' }), 1000);
    expect(r.err).toBeInstanceOf(QueryTimeoutError);
    expect((r.err as Error).message).toMatch(
      /^query stopped after 1s \(--timeout\); the output above is incomplete: /,
    );
    expect(r.text.startsWith('{"x":1}\n{"x":2}\n')).toBe(true);
    expect(r.ms).toBeLessThan(8000);
  });

  it('time spent waiting for a slow reader does not count', async () => {
    const slow = memoryOutput();
    const out: Output = {
      write: async (text) => {
        await new Promise((resolve) => setTimeout(resolve, 250));
        return slow.write(text);
      },
    };
    // Several 64 KiB chunks: the reader takes well over a second, the query a few milliseconds.
    const sql =
      'WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s WHERE i < 30000) SELECT i FROM s';
    const r = await attempt(request(sql, { format: 'ndjson' }), 1000, out);
    expect(r.err).toBeNull();
    expect(slow.chunks.length).toBeGreaterThan(4);
    expect(r.ms).toBeGreaterThan(1000);
    expect(slow.text().split('\n')).toHaveLength(30_001);
  });

  it('a closed output stops the query at once', async () => {
    const closed: Output = { write: () => Promise.reject(new OutputClosedError('output closed')) };
    const started = performance.now();
    await expect(
      runBoundedQuery(request(ENDLESS, { format: 'csv' }), closed, { timeoutMs: 0 }),
    ).rejects.toThrow(OutputClosedError);
    expect(performance.now() - started).toBeLessThan(8000);
  });

  it('its errors are typed, for the CLI to print as one line', async () => {
    const refused = await attempt(request('DELETE FROM origin_error_logs'), 0);
    expect(refused.err).toBeInstanceOf(QueryError);
    expect((refused.err as Error).message).toBe(
      'query refused: it would modify the archive (edgelog query is read-only)',
    );
    const failed = await attempt(request('SELECT * FROM nope'), 0);
    expect(failed.err).toBeInstanceOf(QueryError);
    expect(((failed.err as Error).cause as Error).message).toBe('no such table: nope');
    const missing = await attempt({ path: `${t.dir}/missing.db`, sql: 'SELECT 1' }, 0);
    expect(missing.err).toBeInstanceOf(EdgelogError);
    expect((missing.err as Error).message).toMatch(/^cannot open the database .*missing\.db: no such file/);
  });
});
