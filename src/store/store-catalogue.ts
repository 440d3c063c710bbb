// The store's own tables and views with their columns, in its dialect's names and types, read from its
// catalogue through the read-only query path (a role that may only read can list them): what
// `edgelog query --engine store`'s prompt lists and completes (query/store-schema.ts).
import type { QueryStore, StoreDialect } from './store.js';

/** One catalogue row: relation, its kind ('table' or 'view'), one column and its type. */
export type CatalogueRow = readonly [name: string, kind: string, column: string, type: string];

/** Each dialect's catalogue: the schema's own tables and views (no partitions), columns in order. */
const CATALOGUE: Record<StoreDialect, string> = {
  sqlite: `SELECT m.name, m.type, p.name, p.type
           FROM sqlite_master m JOIN pragma_table_info(m.name) p
           WHERE m.type IN ('table', 'view') AND m.name NOT LIKE 'sqlite!_%' ESCAPE '!'
           ORDER BY m.name, p.cid`,
  // A partition holds rows of its partitioned table: not a table of its own to a reader.
  postgres: `SELECT c.relname, CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END,
                    a.attname, format_type(a.atttypid, a.atttypmod)
             FROM pg_class c
             JOIN pg_namespace n ON n.oid = c.relnamespace
             JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
             WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p', 'v', 'm') AND NOT c.relispartition
             ORDER BY c.relname, a.attnum`,
};

/** Every column of every table and view of the store, ordered by relation then column. */
export async function readCatalogue(queries: QueryStore, timeoutMs: number): Promise<CatalogueRow[]> {
  // QueryStore's dialect defaults to PostgreSQL's (store.ts).
  const sql = CATALOGUE[queries.dialect ?? 'postgres'];
  return queries.readOnly(sql, { timeoutMs }, async (cursor) => {
    const all: CatalogueRow[] = [];
    for (let batch = await cursor.next(1000); batch.length > 0; batch = await cursor.next(1000))
      all.push(
        ...batch.map(
          ([name, kind, column, type]) => [String(name), String(kind), String(column), String(type)] as const,
        ),
      );
    return all;
  });
}
