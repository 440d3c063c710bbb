// What `edgelog sync` prints when done: errors said once and whole, hostile text escaped.
import { describe, expect, it } from 'vitest';
import { errorCell, renderSummary, type SyncDay, type SyncSummary } from '../../src/sync/sync-summary.js';
import { RAW_CONTROL } from '../support/terminal.js';

const day = (zone: number, extra: Partial<SyncDay> = {}): SyncDay => ({
  source: 'origin',
  zone,
  day: '2026-11-21',
  outcome: 'failed',
  state: 'failed',
  resumed: false,
  pages: 0,
  entries: 0,
  newEntries: 0,
  malformed: 0,
  quarantined: 0,
  ...extra,
});

const summary = (results: SyncDay[], extra: Partial<SyncSummary> = {}): SyncSummary => ({
  ok: false,
  days: results.length,
  pages: 0,
  entries: 0,
  newEntries: 0,
  malformed: 0,
  quarantined: 0,
  incomplete: 0,
  expired: 0,
  failed: results.length,
  guardianSnapshots: 0,
  durationMs: 1500,
  results,
  ...extra,
});

describe('errorCell', () => {
  it.each([
    [
      'the request URL and the access-key hint go',
      'http://127.0.0.1:4000/origin/101/11-21-2026: HTTP 401 {"statusCode":401} (check the access key)',
      'HTTP 401 {"statusCode":401}',
    ],
    [
      'other errors stay whole',
      'continuation token repeats after page 2',
      'continuation token repeats after page 2',
    ],
    [
      'a URL not followed by an HTTP status stays',
      'http://x/y: socket hang up (3 attempts in 2.1s)',
      'http://x/y: socket hang up (3 attempts in 2.1s)',
    ],
  ])('%s', (_name, error, cell) => expect(errorCell(error)).toBe(cell));
});

describe('renderSummary', () => {
  const opts = { configFile: '/etc/edgelog.json' };

  it('a refused key: said once, plainly, under the table, naming where the key is set', () => {
    const error = (z: number) =>
      `http://127.0.0.1:4000/origin/${z}/11-21-2026: HTTP 401 {"statusCode":401} (check the access key)`;
    const text = renderSummary(
      summary([day(101, { error: error(101) }), day(102, { error: error(102) })]),
      [],
      opts,
    );
    const lines = text.split('\n');
    expect(lines.filter((l) => l.includes('HTTP 401'))).toHaveLength(2); // the two rows
    expect(lines.filter((l) => /access key/.test(l))).toEqual([
      'the API refused the access key on 2 days: check api.accessKey in /etc/edgelog.json, or the EDGELOG_ACCESS_KEY environment variable',
    ]);
  });

  it('an error the table cuts is written out once, whole, under it; hostile text escaped everywhere', () => {
    const long = `HTTP 500 \x1b]0;pwned\x07${'x'.repeat(150)}\u202e`;
    const text = renderSummary(
      summary([day(101, { error: long }), day(102, { error: long })], { retries: 3 }),
      [{ zone: 201, error: 'inline \x1b[2J\u009bfailure' }, { zone: 202 }],
      opts,
    );
    expect(text).not.toMatch(RAW_CONTROL);
    const lines = text.split('\n');
    expect(lines.filter((l) => l.startsWith('2 days: '))).toEqual([
      `2 days: HTTP 500 \\x1b]0;pwned\\x07${'x'.repeat(150)}\\u202e`,
    ]);
    expect(lines).toContain('guardian 201: failed: inline \\x1b[2J\\x9bfailure');
    expect(lines).toContain('guardian 202: snapshot stored');
    expect(lines.at(-1)).toMatch(/ failed in 1\.5s; 3 requests retried$/);
  });

  it('fits the terminal width by cutting the error column only', () => {
    const text = renderSummary(summary([day(101, { error: 'e'.repeat(90) })]), [], { ...opts, width: 100 });
    const [header, row] = text.split('\n');
    expect(header!.length).toBeLessThanOrEqual(100);
    expect(row!.length).toBeLessThanOrEqual(100);
    expect(row).toMatch(/^origin +101 +2026-11-21 +failed /);
    expect(text).toContain(`1 day: ${'e'.repeat(90)}`);
  });
});
