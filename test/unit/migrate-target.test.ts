import { describe, expect, it } from 'vitest';
import { migrateTarget } from '../../src/config/migrate-target.js';
import { UsageError } from '../../src/errors/index.js';

const CONFIGURED = 'postgres://edgelog:s3cret@db.internal:5432/edgelog';

describe('migrate-store target', () => {
  it.each<[string, string | undefined, string | null, string, boolean]>([
    ['--to left out: the configured URL', undefined, CONFIGURED, CONFIGURED, false],
    [
      '--to with a password: used, and said to be on the command line',
      'postgres://edgelog:other@db.internal:5432/edgelog',
      CONFIGURED,
      'postgres://edgelog:other@db.internal:5432/edgelog',
      true,
    ],
    [
      '--to without one, the same server and user configured: its password',
      'postgres://edgelog@DB.internal/archive2',
      CONFIGURED,
      'postgres://edgelog:s3cret@DB.internal/archive2',
      false,
    ],
    [
      'another user: no password given (PGPASSWORD or ~/.pgpass may hold it)',
      'postgres://admin@db.internal:5432/edgelog',
      CONFIGURED,
      'postgres://admin@db.internal:5432/edgelog',
      false,
    ],
    [
      'another host: the same',
      'postgres://edgelog@db2.internal/edgelog',
      CONFIGURED,
      'postgres://edgelog@db2.internal/edgelog',
      false,
    ],
    [
      'another port: the same',
      'postgres://edgelog@db.internal:6432/edgelog',
      CONFIGURED,
      'postgres://edgelog@db.internal:6432/edgelog',
      false,
    ],
    [
      'nothing configured',
      'postgres://edgelog@db.internal/edgelog',
      null,
      'postgres://edgelog@db.internal/edgelog',
      false,
    ],
  ])('%s', (_name, to, configured, url, passwordInArgv) => {
    expect(migrateTarget(to, configured)).toEqual({ url, passwordInArgv });
  });

  it('refuses when neither --to nor a configured URL names the target', () => {
    expect(() => migrateTarget(undefined, null)).toThrow(UsageError);
    expect(() => migrateTarget(undefined, null)).toThrow(
      /pass --to postgres:\/\/user@host:port\/database .*EDGELOG_DATABASE_URL or database\.url/,
    );
  });
});
