// The SQL functions that key a term as src/store/terms.ts does, registered on every connection: the
// backfill migration (migrations/sqlite/0008_*.sql), the merge of new entries into term_hourly and a
// judgement's live count of the entries not merged yet (terms.ts) all call them, so rows counted by any
// of them fall under the same keys.
import type Database from 'better-sqlite3';
import { rollupKey } from '../../values/storable.js';
import { pathPrefix } from '../path-prefix.js';

export function registerTermFunctions(db: Database.Database): void {
  // SQLite hands these text (or NULL); a number in a TEXT column arrives as its text already.
  db.function('edgelog_rollup_key', { deterministic: true }, (v: string | number | null) =>
    v === null ? null : rollupKey(String(v)),
  );
  db.function('edgelog_path_prefix', { deterministic: true }, (url: string | null, depth: number) =>
    url === null || url === '' ? null : pathPrefix(url, depth),
  );
  // edgelog_rollup_key(edgelog_path_prefix(url, depth)) in one call: a term merge or judgement makes it
  // for every row it counts.
  db.function('edgelog_path_key', { deterministic: true }, (url: string | null, depth: number) =>
    url === null || url === '' ? null : rollupKey(pathPrefix(url, depth)),
  );
}
