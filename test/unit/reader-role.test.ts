// Pure parts of the readers' connection: which URL readers use, and what `query` says about its role.
import { describe, expect, it } from 'vitest';
import { loadReaderConfig, readerServer } from '../../src/config/reader-config.js';
import { parseConfig } from '../../src/config/index.js';
import { readerRoleWarning } from '../../src/store/postgres/reader-role.js';

const WORKER = 'postgres://edgelog:w@db:5432/edgelog';
const READER = 'postgres://edgelog_reader:r@db:5432/edgelog';

describe('readerServer', () => {
  it.each<[string, string | null, string | null, string | null]>([
    ['the reader URL when set', WORKER, READER, READER],
    ['the worker URL otherwise', WORKER, null, WORKER],
    ['the reader URL alone (an analyst host)', null, READER, READER],
    ['none: a SQLite archive', null, null, null],
  ])('%s', (_name, url, readerUrl, want) => {
    expect(readerServer({ url, readerUrl })).toBe(want);
  });

  it('reads EDGELOG_READER_DATABASE_URL over the file, in both configuration readers', () => {
    const env = { EDGELOG_READER_DATABASE_URL: READER };
    expect(loadReaderConfig({ env, cwd: '/nonexistent' }).database.readerUrl).toBe(READER);
    expect(parseConfig({ database: { readerUrl: READER } }).database.readerUrl).toBe(READER);
    expect(parseConfig({}).database.readerUrl).toBeNull();
  });

  it('refuses a reader URL that is not PostgreSQL, naming the key', () => {
    const env = { EDGELOG_READER_DATABASE_URL: 'mysql://x@db/e' };
    expect(() => loadReaderConfig({ env, cwd: '/nonexistent' })).toThrow(
      '  - database.readerUrl: expected a postgres:// or postgresql:// URL',
    );
    expect(() => parseConfig({ database: { readerUrl: 'mysql://x@db/e' } })).toThrow(/database\.readerUrl/);
  });
});

describe('readerRoleWarning', () => {
  const role = { user: 'r', superuser: false, writableTables: [] as string[], createsInSchema: false };

  it('says nothing of a role that may only read', () => {
    expect(readerRoleWarning(role)).toBeNull();
  });

  it.each<[string, Partial<typeof role>, RegExp]>([
    [
      'a superuser',
      { superuser: true },
      /^query runs as the role r, a superuser \(a query may read the server's files/,
    ],
    [
      'a writer',
      { writableTables: ['a', 'b'] },
      /^query runs as the role r, which may write the archive \(a, b\): /,
    ],
    ['many tables', { writableTables: ['a', 'b', 'c', 'd'] }, /may write the archive \(a, b, c, …\)/],
    ['a creator', { createsInSchema: true }, /which may create objects in its schema: /],
  ])('warns of %s, with the fix', (_name, over, want) => {
    const warning = readerRoleWarning({ ...role, ...over });
    expect(warning).toMatch(want);
    expect(warning).toMatch(/database\.readerUrl or EDGELOG_READER_DATABASE_URL .*"A role for readers"\)$/);
  });
});
