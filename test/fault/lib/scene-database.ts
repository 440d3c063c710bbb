// Where a scene's archive lives. SQLite: a file in the scene's folder. PostgreSQL: a database of its own,
// `edgelog_fault_<random>`, made through EDGELOG_TEST_DATABASE_URL (test/postgres/support/server.ts) and
// dropped WITH (FORCE) when the scene closes; its URL carries the scene's database password, a secret
// the scan looks for (the test server trusts loopback and ignores it), and amcheck is installed into it
// for the integrity check where the role may.
import type { ArchiveLocation } from '../../support/archive-reader.js';
import { createTestDatabase, testServer } from '../../postgres/support/server.js';
import { installAmcheck } from './integrity.js';

export type StoreName = 'sqlite' | 'postgres';

export interface SceneDatabase {
  location: ArchiveLocation;
  /** The password in the PostgreSQL URL, to be found nowhere (undefined for SQLite). */
  password?: string;
  /** Removes the database (nothing for SQLite: the scene's folder goes with it). */
  drop(): Promise<void>;
}

/** A PostgreSQL URL with `password` in it, unless it holds one already (then that one is the secret). */
function withPassword(url: string, password: string): { url: string; password: string } {
  const u = new URL(url);
  if (u.password !== '') return { url, password: decodeURIComponent(u.password) };
  u.password = password;
  return { url: u.href, password };
}

export async function openSceneDatabase(
  store: StoreName,
  dbPath: string,
  password: string,
): Promise<SceneDatabase> {
  if (store === 'sqlite') return { location: { store, path: dbPath }, drop: () => Promise.resolve() };
  const server = await testServer();
  if (server === null) {
    throw new Error(
      'a PostgreSQL scene needs a server: set EDGELOG_TEST_DATABASE_URL=postgres://user@host:port/db ' +
        '(a role that may CREATE DATABASE)',
    );
  }
  const db = await createTestDatabase(server, 'edgelog_fault');
  try {
    // Without amcheck (not on the server, or not this role's to install) the check says it has none.
    await installAmcheck(db.url);
    const secret = withPassword(db.url, password);
    return { location: { store, url: secret.url }, password: secret.password, drop: () => db.drop() };
  } catch (err) {
    await db.drop();
    throw err;
  }
}
