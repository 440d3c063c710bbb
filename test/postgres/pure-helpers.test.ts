// Pure helpers of the PostgreSQL store: COPY text, query values, rows PostgreSQL cannot store, and the
// connection settings (TLS, pool size). The ledger's rules: test/unit/ledger-rules.test.ts.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { poolConfig, poolSize, serverOptions, tlsConfig } from '../../src/store/postgres/connection.js';
import { copyField, copyRows } from '../../src/store/postgres/copy-text.js';
import {
  isoTimestamp,
  numericValue,
  withoutLeadingComments,
} from '../../src/store/postgres/read-only-query.js';
import { storableText } from '../../src/store/postgres/unstorable.js';

describe('COPY text', () => {
  it.each([
    [null, '\\N'],
    ['', ''],
    [42, '42'],
    ['plain text', 'plain text'],
    ['a\tb\nc\rd\\e', 'a\\tb\\nc\\rd\\\\e'],
    ['\\N', '\\\\N'],
    ['ünï 😀', 'ünï 😀'],
  ] as const)('%j is %j', (value, text) => {
    expect(copyField(value)).toBe(text);
  });

  it('writes rows as tab-separated lines', () => {
    const rows = [
      [1, 'a', null],
      [2, 'b\tc', 'd'],
    ];
    expect(copyRows(2, 3, (i, c) => rows[i]![c]!)).toBe('1\ta\t\\N\n2\tb\\tc\td\n');
  });
});

describe('query values and statements', () => {
  it.each([
    ['1.5', 1.5],
    ['-0.001', -0.001],
    ['100', 100],
    ['123456789012345', 123456789012345],
    ['1234567890123456', '1234567890123456'],
    ['0.1234567890123456789', '0.1234567890123456789'],
    ['NaN', 'NaN'],
  ] as const)('numeric %s is %j', (text, value) => {
    expect(numericValue(text)).toBe(value);
  });

  it.each([
    ['2026-11-20 00:16:37.003', '2026-11-20T00:16:37.003Z'],
    ['2026-11-20 00:16:37.1', '2026-11-20T00:16:37.100Z'],
    ['2026-11-20 00:16:37', '2026-11-20T00:16:37.000Z'],
    ['infinity', 'infinity'],
  ])('timestamp %s is %s', (text, iso) => {
    expect(isoTimestamp(text)).toBe(iso);
  });

  it('finds the statement after leading comments', () => {
    expect(withoutLeadingComments('-- a\n /* b */ SELECT 1')).toBe('SELECT 1');
    expect(withoutLeadingComments('/* unclosed SELECT')).toBe('/* unclosed SELECT');
  });
});

describe('connection settings', () => {
  it('sizes the pool from the concurrency', () => {
    expect(poolSize(4)).toBe(7);
    expect(poolConfig({ url: 'postgres://x@h/db', max: poolSize(16) }).max).toBe(19);
  });

  it('verifies the server certificate unless told not to, with a CA given as text or a file', () => {
    const pem = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
    expect(tlsConfig(undefined)).toBeUndefined();
    expect(tlsConfig(false)).toBeUndefined();
    expect(tlsConfig({})).toEqual({ rejectUnauthorized: true });
    expect(tlsConfig({ rejectUnauthorized: false })).toEqual({ rejectUnauthorized: false });
    expect(tlsConfig({ ca: pem })).toEqual({ rejectUnauthorized: true, ca: pem });
    const dir = mkdtempSync(join(tmpdir(), 'edgelog-ca-'));
    try {
      writeFileSync(join(dir, 'ca.pem'), pem);
      expect(tlsConfig({ ca: join(dir, 'ca.pem') })).toEqual({ rejectUnauthorized: true, ca: pem });
    } finally {
      rmSync(dir, { recursive: true });
    }
    expect(poolConfig({ url: 'postgres://x@h/db?sslmode=require' }).ssl).toBeUndefined(); // left to the URL
  });
});

describe('messages PostgreSQL cannot store', () => {
  it('writes U+0000 in a message as its escape', () => {
    expect(storableText('a\u0000b')).toBe('a\\u0000b');
    expect(storableText('plain')).toBe('plain');
  });
});

describe('serverOptions', () => {
  const url = 'postgres://u:p@db.example:5432/edgelog';

  it('is the URL alone when database.ssl is absent', () => {
    expect(serverOptions({ url })).toEqual({ url });
    expect(serverOptions({ url, ssl: undefined })).toEqual({ url });
  });

  it('keeps the TLS settings given and leaves out the ones left undefined', () => {
    expect(serverOptions({ url, ssl: { rejectUnauthorized: false, ca: undefined } })).toStrictEqual({
      url,
      ssl: { rejectUnauthorized: false },
    });
    expect(serverOptions({ url, ssl: { ca: '/etc/ca.pem' } })).toStrictEqual({
      url,
      ssl: { ca: '/etc/ca.pem' },
    });
    expect(serverOptions({ url, ssl: {} })).toStrictEqual({ url, ssl: {} });
  });
});
