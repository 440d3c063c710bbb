// Where a scene's archive lives. SQLite: a file in the scene's folder. PostgreSQL: a database of its own,
// `edgelog_fault_<random>`, made through EDGELOG_TEST_DATABASE_URL (test/postgres/support/server.ts) and
// dropped WITH (FORCE) when the scene closes; its URL carries the scene's database password, a secret
// the scan looks for (the test server trusts loopback and ignores it), and amcheck is installed into it
// for the integrity check where the role may.
import { copyFileSync, rmSync } from 'node:fs';
import pg from 'pg';
import type { ArchiveLocation } from '../../support/archive-reader.js';
import { createTestDatabase, testServer, type TestServer } from '../../postgres/support/server.js';
import { installAmcheck } from './integrity.js';

export type StoreName = 'sqlite' | 'postgres';

export interface SceneDatabase {
  location: ArchiveLocation;
  /** The password in the PostgreSQL URL, to be found nowhere (undefined for SQLite). */
  password?: string;
  /** Removes the database (nothing for SQLite: the scene's folder goes with it). */
  drop(): Promise<void>;
  /**
   * Keeps a copy of the archive as it is now (no process may be using it): restore() puts it back, as
   * often as asked; drop() removes the copy. SQLite: a copy of the file; PostgreSQL: a database made
   * from it as a template, and the archive made again from that one under its own name.
   */
  saveCopy(): Promise<ArchiveCopy>;
}

export interface ArchiveCopy {
  restore(): Promise<void>;
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
  if (store === 'sqlite') {
    return {
      location: { store, path: dbPath },
      drop: () => Promise.resolve(),
      saveCopy: () => Promise.resolve(sqliteCopy(dbPath)),
    };
  }
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
    return {
      location: { store, url: secret.url },
      password: secret.password,
      drop: () => db.drop(),
      saveCopy: () => postgresCopy(server, db.name),
    };
  } catch (err) {
    await db.drop();
    throw err;
  }
}

function sqliteCopy(dbPath: string): ArchiveCopy {
  const copy = `${dbPath}.copy`;
  copyFileSync(dbPath, copy);
  return {
    restore() {
      for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
      copyFileSync(copy, dbPath);
      return Promise.resolve();
    },
    drop() {
      rmSync(copy, { force: true });
      return Promise.resolve();
    },
  };
}

/** The names are the test's own (`edgelog_fault_<hex>`), never data's. */
async function postgresCopy(server: TestServer, name: string): Promise<ArchiveCopy> {
  const copy = `${name}_copy`;
  const admin = async (...statements: string[]) => {
    const c = new pg.Client({ connectionString: server.url });
    await c.connect();
    try {
      for (const sql of statements) await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await admin(`CREATE DATABASE ${copy} TEMPLATE ${name}`);
  return {
    // FORCE: a killed CLI's connections may not have been closed by the server yet.
    restore: () => admin(`DROP DATABASE ${name} WITH (FORCE)`, `CREATE DATABASE ${name} TEMPLATE ${copy}`),
    drop: () => admin(`DROP DATABASE IF EXISTS ${copy} WITH (FORCE)`),
  };
}
