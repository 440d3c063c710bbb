// HealthStore and the status reads on the PostgreSQL archive (the statements: ../archive-reads.ts), each
// a bounded read-only query.
import { newestByZone, newestEntriesSql, statusReads } from '../archive-reads.js';
import { readMigrations } from '../migration-files.js';
import type { HealthStore, LedgerStore, QueryStore, StatusReads } from '../store.js';
import { POSTGRES_MIGRATIONS_DIR } from './migrate.js';
import { asPostgresStoreError } from './postgres-error.js';

/** Every row of `sql` (bounded by `timeoutMs`), as arrays. */
async function allRows(queries: QueryStore, sql: string, timeoutMs: number): Promise<unknown[][]> {
  return queries.readOnly(sql, { timeoutMs }, async (cursor) => {
    const rows: unknown[][] = [];
    for (let b = await cursor.next(1000); b.length > 0; b = await cursor.next(1000)) rows.push(...b);
    return rows;
  });
}

/** The health of the archive at `location`, reached through `ledger` (the pool) and `queries`. */
export function postgresHealth(
  ledger: Pick<LedgerStore, 'get'>,
  queries: QueryStore,
  location: string,
): HealthStore {
  return {
    async writable() {
      // A server: one round trip through the pool answers whether it is reachable.
      try {
        await ledger.get({ source: 'origin', zone: 0, day: '1970-01-01' });
      } catch (err) {
        throw asPostgresStoreError(err, location, 'writing');
      }
    },
    async migrations(timeoutMs) {
      const applied = await queries.readOnly(
        'SELECT id, checksum FROM schema_migrations',
        { timeoutMs },
        async (c) => (await c.next(10_000)).map((r) => ({ id: Number(r[0]), checksum: String(r[1]) })),
      );
      return { files: readMigrations(POSTGRES_MIGRATIONS_DIR), applied };
    },
    // The archive's own database (one per archive); its WAL is the server's, shared, not edgelog's.
    size: () =>
      queries.readOnly(
        'SELECT pg_database_size(current_database())',
        { timeoutMs: 1_000 },
        async (cursor) => ({ database: Number((await cursor.next(1))[0]?.[0] ?? 0) }),
      ),
    newestEntries(zones) {
      const sql = newestEntriesSql(zones);
      if (sql === null) return () => Promise.resolve(new Map());
      return async () => newestByZone(await allRows(queries, sql, 5_000));
    },
  };
}

/** What `edgelog status` reads, through the readers' read-only queries. */
export function postgresStatusReads(queries: QueryStore): StatusReads {
  return statusReads({
    arrays: (sql) => allRows(queries, sql, 30_000),
    async objects(sql) {
      return queries.readOnly(sql, { timeoutMs: 30_000 }, async (cursor) => {
        const rows: unknown[][] = [];
        for (let b = await cursor.next(1000); b.length > 0; b = await cursor.next(1000)) rows.push(...b);
        const names = cursor.columns;
        return rows.map((r) =>
          Object.fromEntries(r.map((v, i) => [names[i]!, typeof v === 'bigint' ? Number(v) : v])),
        );
      });
    },
  });
}
