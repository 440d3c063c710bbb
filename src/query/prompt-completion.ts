// Pure: Tab completion in the `edgelog query` prompt: the word before the cursor completed from the
// archive's table and view names, their column names and a few SQL keywords; after `\d` or `.schema`,
// table and view names only. The shape is node:readline's completer's: [candidates, the word].
import type { ArchiveRelation } from '../history/archive-schema.js';

const KEYWORDS = [
  'SELECT',
  'FROM',
  'WHERE',
  'GROUP BY',
  'ORDER BY',
  'LIMIT',
  'HAVING',
  'JOIN',
  'COUNT(*)',
  'DISTINCT',
  'DESC',
  'BETWEEN',
  'INTERVAL',
];

/** The names a statement can use: every table and view, then every distinct column name. */
export function completionNames(relations: readonly ArchiveRelation[]): {
  tables: string[];
  columns: string[];
} {
  const tables = relations.map((r) => r.name);
  const columns = [...new Set(relations.flatMap((r) => r.columns.map((c) => c.name)))].sort();
  return { tables, columns };
}

/** The candidates for the word that ends `line` (the text up to the cursor). */
export function complete(
  line: string,
  names: { tables: readonly string[]; columns: readonly string[] },
): [string[], string] {
  const word = /[A-Za-z_][\w]*$/.exec(line)?.[0] ?? '';
  const before = line.slice(0, line.length - word.length);
  const lower = word.toLowerCase();
  const starts = (s: string) => s.toLowerCase().startsWith(lower);
  if (/^\s*(\\d\+?|\.schema)\s+$/i.test(before)) return [names.tables.filter(starts), word];
  if (word === '') return [[], word];
  // After FROM or JOIN a table is meant; elsewhere a column first.
  const tableFirst = /\b(from|join)\s+$/i.test(before);
  const tables = names.tables.filter(starts);
  const columns = names.columns.filter(starts);
  const keywords = KEYWORDS.filter(starts).map((k) => (word === word.toLowerCase() ? k.toLowerCase() : k));
  const hits = tableFirst ? [...tables, ...columns] : [...columns, ...tables, ...keywords];
  return [[...new Set(hits)], word];
}
