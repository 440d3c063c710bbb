// One read-only statement on a SQLite archive in a child process, for a caller that must not stop: a
// sql alert rule inside the worker. better-sqlite3 cannot interrupt a statement (src/query/watchdog.ts
// says why), and a statement stuck in one step would hold the worker's event loop; a child process
// holds only itself, and is killed at the time bound. The child opens the file read-only with
// query_only on and refuses, as src/query/prepare-query.ts does, a statement that would write or
// returns no rows.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { StoreQueryError } from '../store-query-error.js';
import type { QueryValue, RowsResult, RuleRunOptions } from '../store.js';

// Integers travel as {b: digits}, bytes as {x: hex}: JSON holds neither exactly.
const SOURCE = `
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => {
  const q = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const enc = (v) => typeof v === 'bigint' ? { b: v.toString() } : Buffer.isBuffer(v) ? { x: v.toString('hex') } : v;
  let out;
  try {
    const Database = require(q.driver);
    const db = new Database(q.path, { readonly: true, fileMustExist: true });
    db.pragma('query_only = ON');
    db.pragma('busy_timeout = 5000');
    const stmt = db.prepare(q.sql);
    db.pragma('query_only = ON');
    if (!stmt.readonly) out = { refused: 'query refused: it would modify the archive (rules are read-only)' };
    else if (!stmt.reader) out = { refused: 'query refused: the statement returns no rows' };
    else {
      const columns = stmt.columns().map((c) => c.name);
      const rows = [];
      let more = false;
      let sizeBound = false;
      let chars = 0;
      // As rule-queries.ts boundedValue: a value cut to maxValue characters and one more, bytes to half.
      const cut = (v) => {
        // A copy, not a slice: V8's slice of a long string keeps the long string (values/detached-text.ts).
        if (typeof v === 'string') { if (v.length > q.maxValue + 1) v = Buffer.from(v.slice(0, q.maxValue + 1), 'utf16le').toString('utf16le'); chars += v.length; return v; }
        if (Buffer.isBuffer(v)) { const n = Math.floor(q.maxValue / 2) + 1; if (v.length > n) v = Buffer.from(v.subarray(0, n)); chars += v.length * 2; return v; }
        chars += 8;
        return v;
      };
      for (const r of stmt.raw(true).safeIntegers(true).iterate()) {
        if (rows.length === q.maxRows) { more = true; break; }
        const row = r.map(cut).map(enc);
        if (chars > q.maxResult) { more = true; sizeBound = true; break; }
        rows.push(row);
      }
      out = { columns, rows, more, sizeBound };
    }
    db.close();
  } catch (e) {
    out = { failed: String((e && e.message) || e) };
  }
  process.stdout.write(JSON.stringify(out));
});
`;

const driver = createRequire(import.meta.url).resolve('better-sqlite3');

type Decoded = QueryValue | { b: string } | { x: string };

function decode(v: Decoded): QueryValue {
  if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) {
    if ('b' in v) return BigInt(v.b);
    return new Uint8Array(Buffer.from(v.x, 'hex'));
  }
  return v;
}

/**
 * Runs `sql` on the SQLite file at `path` in a child process and returns up to `maxRows` rows; the child
 * is killed after `timeoutMs`. Failures are StoreQueryErrors: `refused`, `failed` or `timeout`.
 */
export function childQuery(path: string, sql: string, opts: RuleRunOptions): Promise<RowsResult> {
  return new Promise<RowsResult>((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', SOURCE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c.slice(0, 2000)));
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new StoreQueryError('failed', `query failed: ${e.message}`, { cause: e }));
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new StoreQueryError('timeout', `query stopped after ${opts.timeoutMs} ms`));
        return;
      }
      let r: {
        refused?: string;
        failed?: string;
        columns?: string[];
        rows?: Decoded[][];
        more?: boolean;
        sizeBound?: boolean;
      };
      try {
        r = JSON.parse(out) as typeof r;
      } catch {
        reject(
          new StoreQueryError('failed', `query failed: the query process ended (${code}) ${err.trim()}`),
        );
        return;
      }
      if (r.refused) reject(new StoreQueryError('refused', r.refused));
      else if (r.failed !== undefined) reject(new StoreQueryError('failed', `query failed: ${r.failed}`));
      else
        resolve({
          columns: r.columns!,
          rows: r.rows!.map((row) => row.map(decode)),
          more: r.more!,
          ...(r.sizeBound ? { sizeBound: true } : {}),
        });
    });
    // JSON has no Infinity: a bound not given is the largest a string may be.
    const unbounded = 2 ** 29;
    child.stdin.end(
      JSON.stringify({
        driver,
        path,
        sql,
        maxRows: opts.maxRows,
        maxValue: opts.maxValueChars ?? unbounded,
        maxResult: opts.maxResultChars ?? unbounded,
      }),
    );
  });
}
