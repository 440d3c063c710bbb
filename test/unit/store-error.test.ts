// SQLite's result codes and PostgreSQL's answers sorted into the archive failures edgelog names, and the
// messages they get.
import { describe, expect, it } from 'vitest';
import { clearSecrets, registerSecret } from '../../src/redact.js';
import { asPostgresStoreError, postgresFailure } from '../../src/store/postgres/postgres-error.js';
import { asStoreError, storeFailure, StoreError, type SqliteFailure } from '../../src/store/store-error.js';

describe('storeFailure', () => {
  it.each<[string, SqliteFailure | undefined]>([
    ['SQLITE_FULL', 'full'],
    ['SQLITE_READONLY', 'readonly'],
    ['SQLITE_READONLY_DIRECTORY', 'readonly'],
    ['SQLITE_READONLY_DBMOVED', 'readonly'],
    ['SQLITE_IOERR', 'ioerr'],
    ['SQLITE_IOERR_WRITE', 'ioerr'],
    ['SQLITE_BUSY', 'busy'],
    ['SQLITE_BUSY_SNAPSHOT', 'busy'],
    ['SQLITE_CANTOPEN', 'cantopen'],
    ['SQLITE_CONSTRAINT_UNIQUE', undefined],
    ['SQLITE_ERROR', undefined],
    ['SQLITE_CORRUPT', undefined],
  ])('%s', (code, failure) => expect(storeFailure(code)).toBe(failure));
});

const sqliteError = (code: string, message: string) => Object.assign(new Error(message), { code });
const FILE = '/var/lib/edgelog/edgelog.db';

describe('asStoreError', () => {
  it.each<[string, string, boolean, RegExp]>([
    [
      'SQLITE_FULL',
      'database or disk is full',
      true,
      /^disk full writing \/var\/lib\/edgelog\/edgelog\.db \(SQLITE_FULL: database or disk is full\): free space on its filesystem; the day is kept at its last checkpoint and ingestion resumes by itself$/,
    ],
    [
      'SQLITE_READONLY',
      'attempt to write a readonly database',
      true,
      /^the archive \/var\/lib\/edgelog\/edgelog\.db is read-only \(SQLITE_READONLY: .*\): let the user edgelog runs as write the file and its directory \(SQLite keeps edgelog\.db-wal and -shm beside it\)/,
    ],
    [
      'SQLITE_IOERR_WRITE',
      'disk I/O error',
      true,
      /^I\/O error writing \/var\/lib\/edgelog\/edgelog\.db \(SQLITE_IOERR_WRITE: disk I\/O error\): check the disk/,
    ],
    [
      'SQLITE_BUSY',
      'database is locked',
      true,
      /^the archive \/var\/lib\/edgelog\/edgelog\.db stayed locked by another connection beyond the busy timeout \(SQLITE_BUSY: database is locked\)/,
    ],
    [
      'SQLITE_CANTOPEN',
      'unable to open database file',
      false,
      /^cannot open the archive \/var\/lib\/edgelog\/edgelog\.db or the edgelog\.db-wal and -shm beside it \(SQLITE_CANTOPEN: unable to open database file\): check that its directory exists/,
    ],
  ])('%s: names the file, the cause and the fix', (code, text, retryable, message) => {
    const cause = sqliteError(code, text);
    const err = asStoreError(cause, FILE);
    expect(err).toBeInstanceOf(StoreError);
    expect(err).toMatchObject({ code, location: FILE, retryable, cause });
    expect(err.message).toMatch(message);
  });

  it('at start, it does not promise that ingestion resumes', () => {
    const err = asStoreError(sqliteError('SQLITE_FULL', 'database or disk is full'), FILE, 'opening');
    expect(err.message).toBe(
      `disk full opening ${FILE} (SQLITE_FULL: database or disk is full): free space on its filesystem`,
    );
  });

  it('leaves other errors, and store errors already made, as they are', () => {
    const constraint = sqliteError('SQLITE_CONSTRAINT_UNIQUE', 'UNIQUE constraint failed');
    expect(asStoreError(constraint, FILE)).toBe(constraint);
    const plain = new Error('boom');
    expect(asStoreError(plain, FILE)).toBe(plain);
    const made = asStoreError(sqliteError('SQLITE_FULL', 'database or disk is full'), FILE);
    expect(asStoreError(made, '/elsewhere.db')).toBe(made);
  });
});

describe('postgresFailure', () => {
  const pgError = (code: string | undefined, message: string) => ({ code, message });
  it.each<[string | undefined, string, ReturnType<typeof postgresFailure>]>([
    ['28P01', 'password authentication failed for user "edgelog"', { failure: 'auth', code: '28P01' }],
    ['28000', 'role "edgelog" does not exist', { failure: 'auth', code: '28000' }],
    [
      '28000',
      'no pg_hba.conf entry for host "10.0.0.5", user "edgelog", database "edgelog", no encryption',
      { failure: 'tls', code: '28000', tls: 'server-requires' },
    ],
    ['3D000', 'database "edgelog" does not exist', { failure: 'no-database', code: '3D000' }],
    ['53100', 'could not extend file: No space left on device', { failure: 'full', code: '53100' }],
    ['25006', 'cannot execute INSERT in a read-only transaction', { failure: 'readonly', code: '25006' }],
    ['53300', 'sorry, too many clients already', { failure: 'too-many-connections', code: '53300' }],
    ['42501', 'permission denied for table ingest_ledger', { failure: 'privilege', code: '42501' }],
    ['57P03', 'the database system is starting up', { failure: 'unreachable', code: '57P03' }],
    ['ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.5:5432', { failure: 'unreachable', code: 'ECONNREFUSED' }],
    ['ENOTFOUND', 'getaddrinfo ENOTFOUND db.internal', { failure: 'unreachable', code: 'ENOTFOUND' }],
    [undefined, 'timeout exceeded when trying to connect', { failure: 'unreachable', code: 'timeout' }],
    [
      undefined,
      'Connection terminated due to connection timeout',
      { failure: 'unreachable', code: 'timeout' },
    ],
    [
      undefined,
      'The server does not support SSL connections',
      { failure: 'tls', code: 'tls-off', tls: 'server-off' },
    ],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'self-signed certificate in certificate chain',
      { failure: 'tls', code: 'SELF_SIGNED_CERT_IN_CHAIN', tls: 'certificate' },
    ],
    ['23505', 'duplicate key value violates unique constraint', undefined],
    ['57014', 'canceling statement due to statement timeout', undefined],
    [undefined, 'boom', undefined],
  ])('%s %s', (code, message, failure) => expect(postgresFailure(pgError(code, message))).toEqual(failure));
});

describe('asPostgresStoreError', () => {
  const URL = 'postgres://db.internal:5432/edgelog';
  it('names the database by its URL, the code and the fix; never the password', () => {
    registerSecret('s3cret-pw-9');
    try {
      const cause = Object.assign(
        new Error('password authentication failed for user "edgelog" (s3cret-pw-9)'),
        { code: '28P01' },
      );
      const err = asPostgresStoreError(cause, URL, 'opening');
      expect(err).toBeInstanceOf(StoreError);
      expect(err).toMatchObject({ failure: 'auth', code: '28P01', location: URL, retryable: false, cause });
      expect(err.message).toBe(
        `PostgreSQL refused the login to ${URL} (28P01: password authentication failed for user "edgelog" ([REDACTED])): ` +
          'check the user and password in database.url (or PGPASSWORD), and that pg_hba.conf lets that user in from this host',
      );
    } finally {
      clearSecrets();
    }
  });

  it('says a write is retried; a refused certificate or missing TLS get their own fix', () => {
    const full = asPostgresStoreError({ code: '53100', message: 'No space left' }, URL, 'writing');
    expect(full).toMatchObject({ retryable: true });
    expect(full.message).toBe(
      `disk full writing ${URL} (53100: No space left): free space on the server's data and WAL disks; ` +
        'the day is kept at its last checkpoint and ingestion resumes by itself',
    );
    const cert = asPostgresStoreError(
      { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' },
      URL,
      'opening',
    );
    expect(cert.message).toMatch(/is not trusted .*: set database\.ssl\.ca to its CA's certificate/);
    const required = asPostgresStoreError(
      { code: '28000', message: 'no pg_hba.conf entry for host "10.0.0.5", no encryption' },
      URL,
      'opening',
    );
    expect(required.message).toMatch(/requires TLS .*: add \?sslmode=require to database\.url/);
    const refused = new AggregateError(
      [new Error('connect ECONNREFUSED ::1:5432'), new Error('connect ECONNREFUSED 127.0.0.1:5432')],
      '',
    );
    Object.assign(refused, { code: 'ECONNREFUSED' });
    expect(asPostgresStoreError(refused, URL, 'opening').message).toContain(
      '(ECONNREFUSED: connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432)',
    );
  });

  it('leaves other errors as they are', () => {
    const unique = Object.assign(new Error('duplicate key'), { code: '23505' });
    expect(asPostgresStoreError(unique, URL, 'writing')).toBe(unique);
  });
});
