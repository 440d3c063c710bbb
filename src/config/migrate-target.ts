// Pure: the PostgreSQL URL `edgelog migrate-store` writes to. A password on the command line is readable
// by every user of the host (ps, /proc/<pid>/cmdline) and kept in shell history, so the target may come
// from the environment or the configuration instead: `--to` left out takes `database.url` (or
// EDGELOG_DATABASE_URL), and a `--to` without a password takes the configured one when it names the
// same server and user. Otherwise node-postgres reads PGPASSWORD (or ~/.pgpass) itself.
import { UsageError } from '../errors/usage-error.js';

export interface MigrateTarget {
  url: string;
  /** The password came on the command line: the command warns. */
  passwordInArgv: boolean;
}

export function migrateTarget(to: string | undefined, configured: string | null): MigrateTarget {
  if (to === undefined) {
    if (configured === null) {
      throw new UsageError(
        'no PostgreSQL archive to copy into: pass --to postgres://user@host:port/database (the password in ' +
          'PGPASSWORD), or set EDGELOG_DATABASE_URL or database.url',
      );
    }
    return { url: configured, passwordInArgv: false };
  }
  const given = parse(to);
  if (!given) return { url: to, passwordInArgv: false }; // the store names what is wrong with it
  if (given.password !== '') return { url: to, passwordInArgv: true };
  const known = configured === null ? null : parse(configured);
  if (!known || known.password === '' || !sameLogin(given, known)) return { url: to, passwordInArgv: false };
  given.password = known.password;
  return { url: given.href, passwordInArgv: false };
}

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The same role on the same server: a role's password holds for every database of the server. */
function sameLogin(a: URL, b: URL): boolean {
  const port = (u: URL) => u.port || '5432';
  return (
    a.hostname.toLowerCase() === b.hostname.toLowerCase() && port(a) === port(b) && a.username === b.username
  );
}
