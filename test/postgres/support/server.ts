// The PostgreSQL server the store tests run against, and a fresh database per test file.
//
// EDGELOG_TEST_DATABASE_URL names a maintenance connection (a role that may CREATE DATABASE); without it
// a local server at postgres://postgres@127.0.0.1:5432/postgres is used when one answers. With neither,
// the PostgreSQL tests are skipped with a line saying how to enable them. A URL that is given but does
// not answer fails the run instead (CI gives one, so it always runs this suite).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const DEFAULT_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestServer {
  /** The maintenance URL. */
  url: string;
}

async function answers(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return (err as Error).message;
  } finally {
    await client.end().catch(() => {});
  }
}

/** The server to test against, or null (and a line on stderr) when the suite is to be skipped. */
export async function testServer(): Promise<TestServer | null> {
  const given = process.env.EDGELOG_TEST_DATABASE_URL;
  const url = given || DEFAULT_URL;
  const problem = await answers(url);
  if (problem === null) return { url };
  if (given) throw new Error(`no PostgreSQL server answers at EDGELOG_TEST_DATABASE_URL: ${problem}`);
  process.stderr.write(
    `PostgreSQL store tests skipped: no server at ${url} (${problem}). ` +
      'Set EDGELOG_TEST_DATABASE_URL=postgres://user@host:port/db (a role that may CREATE DATABASE) to run them.\n',
  );
  return null;
}

export interface TestDatabase {
  /** The URL of the new database. */
  url: string;
  name: string;
  /** Drops the database (closing any connection still open to it). */
  drop(): Promise<void>;
}

/**
 * Creates `<prefix>_<random>` on the server (`edgelog_test_…` by default); with `icuLocale`, text sorts in
 * that ICU collation (as a production database in `en_US.UTF-8` does) rather than the server's default.
 */
export async function createTestDatabase(
  server: TestServer,
  prefix = 'edgelog_test',
  opts: { icuLocale?: 'en-US' } = {},
): Promise<TestDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix)) throw new RangeError(`not a plain database name prefix: ${prefix}`);
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  try {
    const locale = opts.icuLocale
      ? ` TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE '${opts.icuLocale}'`
      : '';
    await admin.query(`CREATE DATABASE ${name}${locale}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server.url);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    name,
    async drop() {
      const c = new pg.Client({ connectionString: server.url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}
