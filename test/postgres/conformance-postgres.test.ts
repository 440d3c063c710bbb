// The store conformance suite against the PostgreSQL store, on a database of its own.
import pg from 'pg';
import { describe, it } from 'vitest';
import { openReader } from '../../src/store/open-reader.js';
import { openPostgresStore } from '../../src/store/postgres/postgres-store.js';
import type { ArchiveStore } from '../../src/store/store.js';
import { NOW, storeConformance } from './conformance.js';
import { createTestDatabase, testServer } from './support/server.js';

const server = await testServer();

if (server === null) {
  describe.skip('ArchiveStore conformance: PostgreSQL (no server: see EDGELOG_TEST_DATABASE_URL)', () => {
    it('needs a PostgreSQL server', () => {});
  });
} else {
  storeConformance('PostgreSQL', async () => {
    const db = await createTestDatabase(server);
    const open = () => openPostgresStore({ url: db.url, max: 4, now: () => NOW });
    const store = await open();
    const others: ArchiveStore[] = [];
    return {
      store,
      async another() {
        const other = await open();
        others.push(other);
        return other;
      },
      async exec(sql) {
        const client = new pg.Client({ connectionString: db.url });
        await client.connect();
        try {
          await client.query(sql);
        } finally {
          await client.end();
        }
      },
      reader: () =>
        openReader({ path: '', url: db.url, readerUrl: null }, { applicationName: 'conformance' }),
      async cleanup() {
        await Promise.all([store, ...others].map((s) => s.close()));
        await db.drop();
      },
    };
  });
}
