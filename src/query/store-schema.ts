// The store's tables and views as the prompt lists them (`.tables`, `\d`) and completes them, for
// `edgelog query --engine store`: its own names and types, from its catalogue (store/store-catalogue.ts).
import type { ArchiveRelation } from '../history/archive-schema.js';
import { STORE_TABLES } from '../store/archive-tables.js';
import { readCatalogue, type CatalogueRow } from '../store/store-catalogue.js';
import type { QueryStore } from '../store/store.js';

/** Pure: catalogue rows (ordered by relation) as relations, each described when edgelog knows it. */
export function storeRelations(rows: readonly CatalogueRow[]): ArchiveRelation[] {
  const byName = new Map<string, ArchiveRelation>();
  for (const [name, kind, column, type] of rows) {
    let relation = byName.get(name);
    if (relation === undefined) {
      const about = (STORE_TABLES as Record<string, { about: string } | undefined>)[name]?.about ?? '';
      relation = { name, kind: kind === 'view' ? 'view' : 'table', about, columns: [] };
      byName.set(name, relation);
    }
    relation.columns.push({ name: column, type });
  }
  return [...byName.values()];
}

/** The store's relations, read from its catalogue within `timeoutMs`. */
export async function readStoreSchema(queries: QueryStore, timeoutMs: number): Promise<ArchiveRelation[]> {
  return storeRelations(await readCatalogue(queries, timeoutMs));
}
