// The PostgreSQL server's answers that an operator meets when the archive's setup is the trouble, not
// the data: a server it cannot reach, a login refused, a missing database, a full disk, a read-only
// database, no connection left, a missing privilege, TLS that cannot be agreed. `pg` reports them as
// bare errors ("connect ECONNREFUSED …", "permission denied for schema public") that say neither which
// archive nor what to do; here they become StoreErrors that name the archive by its URL (never with its
// password), the server's code and message, and the fix.
import { coerceError } from '../../errors/coerce-error.js';
import { redact } from '../../redact.js';
import { retriedNote, StoreError, type StoreAction, type StoreFailure } from '../store-error.js';

/** A failure of PostgreSQL's, and which of its fixes applies. */
export interface PostgresFailure {
  failure: StoreFailure;
  /** The code shown: the SQLSTATE, Node's (ECONNREFUSED), or `timeout` for a connection timeout. */
  code: string;
  /** TLS only: the server has it off, the server requires it, or its certificate is not trusted. */
  tls?: 'server-off' | 'server-requires' | 'certificate';
}

const BY_SQLSTATE: Readonly<Record<string, StoreFailure>> = {
  '28P01': 'auth', // invalid_password
  '28000': 'auth', // invalid_authorization_specification: no such role, no pg_hba.conf entry
  '3D000': 'no-database', // invalid_catalog_name
  '53100': 'full', // disk_full
  '25006': 'readonly', // read_only_sql_transaction: a hot standby, default_transaction_read_only
  '53300': 'too-many-connections', // too_many_connections, also a role's or database's CONNECTION LIMIT
  '42501': 'privilege', // insufficient_privilege
  '57P01': 'unreachable', // admin_shutdown: the server is stopping
  '57P03': 'unreachable', // cannot_connect_now: starting up, shutting down, in recovery
};

/** Node's codes for a connection that was never made or that broke. */
const NETWORK = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNRESET',
]);

/** Node's codes for a server certificate it does not trust. */
const CERTIFICATE = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/** Pure: the failure a `pg` error stands for, if it is one of these. */
export function postgresFailure(err: { code?: unknown; message?: unknown }): PostgresFailure | undefined {
  const code = typeof err.code === 'string' ? err.code : undefined;
  const message = typeof err.message === 'string' ? err.message : '';
  if (code === '28000' && /no encryption|SSL off/.test(message))
    return { failure: 'tls', code, tls: 'server-requires' };
  if (code !== undefined && BY_SQLSTATE[code]) return { failure: BY_SQLSTATE[code], code };
  if (code !== undefined && NETWORK.has(code)) return { failure: 'unreachable', code };
  if (code !== undefined && CERTIFICATE.has(code)) return { failure: 'tls', code, tls: 'certificate' };
  // pg's own errors carry no code: the pool's and the client's connection timeouts, a server without TLS.
  if (/timeout exceeded when trying to connect|connection timeout/i.test(message))
    return { failure: 'unreachable', code: 'timeout' };
  if (/does not support SSL connections/.test(message))
    return { failure: 'tls', code: 'tls-off', tls: 'server-off' };
  return undefined;
}

/** Pure: the message for `f` at the archive `location`; `detail` is the server's own code and text. */
export function postgresErrorMessage(
  f: PostgresFailure,
  location: string,
  detail: string,
  action: StoreAction,
): string {
  const retried = retriedNote(action);
  switch (f.failure) {
    case 'unreachable':
      return (
        `cannot reach the PostgreSQL server of ${location} (${detail}): check that it runs, that ` +
        `database.url names its host and port, and that no firewall drops the connection${retried}`
      );
    case 'auth':
      return (
        `PostgreSQL refused the login to ${location} (${detail}): check the user and password in ` +
        'database.url (or PGPASSWORD), and that pg_hba.conf lets that user in from this host'
      );
    case 'no-database':
      return (
        `the database of ${location} does not exist (${detail}): create it (createdb, or CREATE DATABASE ` +
        'as a superuser), or correct its name in database.url'
      );
    case 'full':
      return `disk full ${action} ${location} (${detail}): free space on the server's data and WAL disks${retried}`;
    case 'readonly':
      return (
        `the database ${location} accepts no writes (${detail}): point database.url at the primary, not ` +
        'a standby, and turn default_transaction_read_only off (ALTER DATABASE … RESET ' +
        `default_transaction_read_only)${retried}`
      );
    case 'too-many-connections':
      return (
        `the PostgreSQL server of ${location} refused another connection (${detail}): edgelog holds its ` +
        'concurrency + 3 connections; lower worker.concurrency, or raise max_connections or the ' +
        `CONNECTION LIMIT of the role or database${retried}`
      );
    case 'privilege':
      return (
        `the user of ${location} lacks a privilege (${detail}): edgelog creates its tables and each ` +
        "day's partitions as it goes, so its user must own them: run edgelog as the user that created " +
        "them, or, on a new database, make edgelog's user its owner (ALTER DATABASE … OWNER TO …)"
      );
    case 'tls':
      return f.tls === 'server-off'
        ? `TLS to ${location} failed (${detail}): the server has TLS off; turn ssl on at the server, or ` +
            'remove sslmode=require from database.url (and database.ssl) on a network you trust'
        : f.tls === 'server-requires'
          ? `the server of ${location} requires TLS (${detail}): add ?sslmode=require to database.url, or ` +
            'set database.ssl (with ca: the CA of its certificate)'
          : `the certificate of the server of ${location} is not trusted (${detail}): set database.ssl.ca ` +
            "to its CA's certificate (a managed database's CA bundle)";
    default:
      return `${location}: ${detail}`;
  }
}

/**
 * `err` as a StoreError naming `location` (a URL without its password), when it is PostgreSQL's answer
 * to one of the failures above (already one: unchanged); any other error unchanged.
 */
export function asPostgresStoreError(err: unknown, location: string, action: StoreAction): Error {
  const e = coerceError(err) as Error & { code?: unknown; errors?: unknown };
  if (e instanceof StoreError) return e;
  const f = postgresFailure(e);
  if (!f) return e;
  return new StoreError(
    f.failure,
    location,
    f.code,
    postgresErrorMessage(f, location, detail(e, f), action),
    err,
  );
}

/** The server's code and text; an AggregateError (every address of a host refused) has an empty message. */
function detail(e: Error & { errors?: unknown }, f: PostgresFailure): string {
  let text = e.message;
  if (!text && Array.isArray(e.errors))
    text = e.errors.map((x) => String((x as { message?: unknown }).message)).join('; ');
  text = redact(text);
  return text ? `${f.code}: ${text}` : f.code;
}
