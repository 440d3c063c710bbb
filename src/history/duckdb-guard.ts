// What a history query's DuckDB may touch, and what a statement may make it build. A statement is the
// user's (and its strings are archived text an attacker wrote), so once the views exist DuckDB may read
// their files and nothing else, its settings cannot change, and:
// - it spills to a directory of its own, private, under the history's scratch, removed when the query
//   ends: DuckDB adds its temp directory to the paths it may read, and its default is `.tmp` in the
//   working directory, where other files are (`read_text('.tmp/x')` read them);
// - the string functions that build a value many times their input (repeat, lpad, rpad) are bounded per
//   value: DuckDB's memory_limit does not cover the strings a function builds, and `repeat(log, 4000000)`
//   took the process past 1 GB (20 GB on a wider table) before any bound applied. The bounded forms are
//   macros that shadow the built-ins; a statement may not name a function by schema (`system.main.
//   repeat`), which would reach the built-in past them.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import type { DuckDBConnection } from '@duckdb/node-api';
import { StoreQueryError } from '../store/store-query-error.js';
import { sqlStringLiteral } from './statement-tables.js';

/** Characters (list elements) one call of a bounded function may build: 2,048 rows of it are 32 MiB. */
export const MAX_BUILT_CHARS = 16_384;

/** Under the history's root: the scratch directory queries spill to, a directory each. */
export const QUERY_SPILL_DIR = join('.scratch', 'query');

const bound = (fn: string) =>
  `error('${fn}: the result would be over ${MAX_BUILT_CHARS} characters (edgelog bounds what one call may build)')`;

/** The built-ins shadowed, each checking its result's size before building it. */
const BOUNDED_FUNCTIONS = [
  `CREATE MACRO repeat(s, n) AS CASE WHEN length(s) * greatest(n, 0) > ${MAX_BUILT_CHARS} THEN ${bound('repeat')} ELSE system.main.repeat(s, n) END`,
  `CREATE MACRO lpad(s, n, f) AS CASE WHEN n > ${MAX_BUILT_CHARS} THEN ${bound('lpad')} ELSE system.main.lpad(s, n, f) END`,
  `CREATE MACRO rpad(s, n, f) AS CASE WHEN n > ${MAX_BUILT_CHARS} THEN ${bound('rpad')} ELSE system.main.rpad(s, n, f) END`,
];

/** Spill directories by connection: removed when the query closes its connection (closeGuarded). */
const spills = new WeakMap<DuckDBConnection, string>();

/**
 * Before anything else runs on `conn`: its spill directory, made private (0700) under `root`'s scratch,
 * and returned (removed by closeGuarded); none when there is no history root (nothing spills then).
 */
export async function privateSpill(conn: DuckDBConnection, root: string | null): Promise<string | null> {
  if (root === null) {
    await conn.run(`SET temp_directory = ''`);
    return null;
  }
  let dir: string;
  try {
    const parent = join(root, QUERY_SPILL_DIR);
    mkdirSync(parent, { recursive: true, mode: 0o700 });
    dir = mkdtempSync(join(parent, 'q-'));
  } catch {
    // A reader may read a history it may not write (another host's mount, a read-only directory): its
    // spill goes to a private directory of the system's temporary one instead.
    dir = mkdtempSync(join(tmpdir(), 'edgelog-query-'));
  }
  spills.set(conn, dir);
  await conn.run(`SET temp_directory = ${sqlStringLiteral(dir)}`);
  return dir;
}

/**
 * After the views exist: DuckDB may read `files` (and its own spill directory) and nothing else, the
 * string functions are bounded, and its configuration is locked. Refuses a statement that names a
 * function by schema or catalog (`statements`: its parse tree).
 */
export async function lockDownDuckDb(
  conn: DuckDBConnection,
  files: readonly string[],
  statements: unknown,
): Promise<void> {
  const qualified = qualifiedFunction(statements);
  if (qualified !== null)
    throw new StoreQueryError(
      'refused',
      `query refused: name functions without a schema (${qualified}): the history engine bounds some of them`,
    );
  for (const macro of BOUNDED_FUNCTIONS) await conn.run(macro);
  if (files.length > 0) await conn.run(`SET allowed_paths = [${files.map(sqlStringLiteral).join(', ')}]`);
  await conn.run('SET enable_external_access = false');
  await conn.run('SET lock_configuration = true');
}

/** Closes the connection and removes its spill directory. */
export function closeGuarded(conn: DuckDBConnection): void {
  conn.closeSync();
  const dir = spills.get(conn);
  spills.delete(conn);
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
}

/** The first function call of a parse tree that names a schema or catalog (`system.main.repeat`), or null. */
export function qualifiedFunction(node: unknown): string | null {
  if (Array.isArray(node)) {
    for (const n of node) {
      const found = qualifiedFunction(n);
      if (found !== null) return found;
    }
    return null;
  }
  if (node === null || typeof node !== 'object') return null;
  const o = node as Record<string, unknown>;
  // `main.f` is the default schema (where the bounded macros are; DuckDB writes a row constructor
  // `(a, b)` as main.row): only another schema or a catalog reaches past them.
  if (o.class === 'FUNCTION' && (o.catalog || (o.schema && o.schema !== 'main')))
    return [o.catalog, o.schema, o.function_name].filter(Boolean).join('.');
  for (const v of Object.values(o)) {
    const found = qualifiedFunction(v);
    if (found !== null) return found;
  }
  return null;
}
