// Pure: the ledger's rules both stores keep (src/store/ledger-rules.ts): who may claim a day, and which
// state a pass leaves, as functions and as the SQL both dialects run.
import { describe, expect, it } from 'vitest';
import {
  decideClaim,
  keepArchived,
  keepArchivedSql,
  keepComplete,
  keepCompleteSql,
} from '../../src/store/ledger-rules.js';
import type { DayState } from '../../src/store/ledger-types.js';
import { openDatabase } from '../../src/store/sqlite/database.js';

describe('ledger rules', () => {
  const row = (over: Partial<Parameters<typeof decideClaim>[0] & object> = {}) => ({
    lease_owner: null,
    lease_until: null,
    next_token: null,
    pages: 0,
    ...over,
  });
  const never = () => false;

  it.each([
    ['no row', undefined, true, { kind: 'start' }],
    ['free row', row(), true, { kind: 'start' }],
    [
      'live lease of another',
      row({ lease_owner: 'b', lease_until: 1001 }),
      true,
      { kind: 'busy', owner: 'b', until: 1001 },
    ],
    ['lease ending now', row({ lease_owner: 'b', lease_until: 1000 }), true, { kind: 'start' }],
    ['own live lease', row({ lease_owner: 'a', lease_until: 5000 }), true, { kind: 'start' }],
    ['checkpoint', row({ next_token: 't3', pages: 2 }), true, { kind: 'resume' }],
    ['checkpoint, resume off', row({ next_token: 't3', pages: 2 }), false, { kind: 'start' }],
    ['first-page checkpoint', row({ next_token: '', pages: 0 }), true, { kind: 'start' }],
    ['dropped checkpoint', row({ next_token: null, pages: 4 }), true, { kind: 'start' }],
  ] as const)('%s', (_name, r, resume, expected) => {
    expect(decideClaim(r, 'a', 1000, resume, never)).toEqual(expected);
  });

  it('takes a live lease whose holder is known to be gone', () => {
    const held = row({ lease_owner: 'b', lease_until: 9999, next_token: 't', pages: 1 });
    expect(decideClaim(held, 'a', 1000, true, (o) => o === 'b')).toEqual({ kind: 'resume' });
  });

  const states: DayState[] = ['running', 'partial', 'complete', 'incomplete', 'failed', 'expired'];
  it.each(states)('keeps what %s says the archive holds', (current) => {
    expect(keepArchived(current, 'failed')).toBe(
      current === 'complete' || current === 'partial' ? current : 'failed',
    );
    expect(keepComplete(current, 'expired')).toBe(current === 'complete' ? 'complete' : 'expired');
  });

  // The SQL both dialects run is the same rule: evaluated by SQLite over every pair of states.
  it('keeps the same states in SQL as in TypeScript', () => {
    const db = openDatabase(':memory:');
    try {
      for (const current of states) {
        for (const next of states) {
          const read = (sql: string) =>
            db.prepare(`SELECT ${sql} AS s FROM (SELECT @current AS state)`).pluck().get({ current, next });
          expect(read(keepArchivedSql('state', '@next'))).toBe(keepArchived(current, next));
          expect(read(keepCompleteSql('state', '@next'))).toBe(keepComplete(current, next));
        }
      }
    } finally {
      db.close();
    }
  });
});
