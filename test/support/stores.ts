// The acceptance tests that hold for every store run on both: SQLite always, PostgreSQL when a server
// answers (test/postgres/support/server.ts); without one, a skipped test says how to enable it.
import { describe, it } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { createTestDatabase, testServer, type TestServer } from '../postgres/support/server.js';
import { harness, type Harness } from './harness.js';

export type StoreKind = 'SQLite' | 'PostgreSQL';

const server = await testServer();

/**
 * `describe(`${title} on PostgreSQL`)`, its body given the server to make databases on; without a
 * server, a skipped test saying how to enable it.
 */
export function describePostgres(
  title: string,
  body: (store: 'PostgreSQL', server: TestServer) => void,
): void {
  if (server === null) {
    describe.skip(`${title} on PostgreSQL (no server: see EDGELOG_TEST_DATABASE_URL)`, () => {
      it('needs a PostgreSQL server', () => {});
    });
  } else {
    const given = server;
    describe(`${title} on PostgreSQL`, () => body('PostgreSQL', given));
  }
}

/** `describe(`${title} on ${store}`)` for each store (PostgreSQL as describePostgres). */
export function describeStores(title: string, body: (store: StoreKind) => void): void {
  describe(`${title} on SQLite`, () => body('SQLite'));
  describePostgres(title, body);
}

/** A harness whose archive is the temp SQLite file, or a fresh PostgreSQL database dropped on close. */
export async function storeHarness(store: StoreKind, sim: SimulatorOptions = {}): Promise<Harness> {
  if (store === 'SQLite') return harness(sim);
  if (server === null) throw new Error('no PostgreSQL server (see EDGELOG_TEST_DATABASE_URL)');
  const db = await createTestDatabase(server);
  try {
    return await harness(sim, { databaseUrl: db.url, onClose: () => db.drop() });
  } catch (err) {
    await db.drop();
    throw err;
  }
}
