// Pure: the archive's tables and views (history/archive-schema.ts) as `edgelog query --schema` and the
// prompt's `.tables` and `\d` show them, and the lookup of one by name.
import { formatTable } from '../format/table.js';
import { safeText } from '../format/terminal-text.js';
import { UsageError } from '../errors/usage-error.js';
import type { ArchiveRelation } from '../history/archive-schema.js';

/** Where the dialect and every table are described. */
const DOCS = 'docs/SQL.md';

/** One line per table and view: its name, kind, column count and what it holds. */
export function relationsList(relations: readonly ArchiveRelation[]): string {
  return formatTable(
    [
      { header: 'name', value: (r: ArchiveRelation) => r.name },
      { header: 'kind', value: (r) => r.kind },
      { header: 'columns', value: (r) => r.columns.length, right: true },
      { header: 'what', value: (r) => r.about, flexible: true },
    ],
    relations,
    { maxCell: Infinity },
  );
}

/** One table or view: its header line, then its columns and types, indented. */
export function relationText(relation: ArchiveRelation): string {
  const columns = formatTable(
    [
      { header: '', value: (c: { name: string; type: string }) => c.name },
      { header: '', value: (c) => c.type },
    ],
    relation.columns,
    { maxCell: Infinity },
  );
  const lines = columns.split('\n').slice(1);
  return [
    `${safeText(relation.name)} (${relation.kind}): ${safeText(relation.about)}`,
    ...lines.map((l) => `  ${l}`),
  ].join('\n');
}

/** Every table and view with its columns, a blank line between them, and where the dialect is described. */
export function schemaText(relations: readonly ArchiveRelation[]): string {
  return `${relations.map(relationText).join('\n\n')}\n\nThe dialect, and what each column holds: ${DOCS}\n`;
}

/** The table or view called `name` (case-insensitive, as SQL names are); a UsageError naming the real ones. */
export function findRelation(relations: readonly ArchiveRelation[], name: string): ArchiveRelation {
  const wanted = name
    .trim()
    .replace(/^"(.*)"$/, '$1')
    .toLowerCase();
  const found = relations.find((r) => r.name.toLowerCase() === wanted);
  if (found) return found;
  throw new UsageError(
    `no table or view named ${JSON.stringify(safeText(name))}; the archive's tables and views: ` +
      `${relations.map((r) => r.name).join(', ')} (${DOCS})`,
  );
}

/** The relations as rows for json, ndjson and csv: one row per column. */
export function schemaRows(relations: readonly ArchiveRelation[]): Array<[string, string, string, string]> {
  return relations.flatMap((r) =>
    r.columns.map((c) => [r.name, r.kind, c.name, c.type] as [string, string, string, string]),
  );
}

export const SCHEMA_COLUMNS = ['table_name', 'kind', 'column_name', 'data_type'] as const;
