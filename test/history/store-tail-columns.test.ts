// A statement over rows the history does not hold yet copies only the columns it names from the store
// (statement-columns.ts), and none for a count: the view then makes that many rows of NULLs. Its answers
// must be the store's own, on both stores, whatever it names.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { archiveQueries } from '../../src/history/archive-queries.js';
import { HISTORY_COLUMNS } from '../../src/store/history-columns.js';
import type { DayKey, QueryStore } from '../../src/store/store.js';
import { testServer } from '../postgres/support/server.js';
import { openPostgres, openSqlite, storeShieldPass, type OpenedStore } from '../support/page-store.js';
import { describeStores, type StoreKind } from '../support/stores.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 86_400_000;
const server = await testServer();

const entry = (i: number) =>
  JSON.stringify({
    logId: `s-${i}`,
    timestamp: DAY_START + i * 7_000,
    log: JSON.stringify({ Message: `rule ${i % 7}`, Url: `/p/${i % 13}` }),
    labels: { ruleId: `r${i % 5}`, severity: i % 3 ? 'high' : 'low', country: ['DE', 'US', 'FR'][i % 3] },
  });

async function rows(queries: QueryStore, sql: string): Promise<unknown[][]> {
  return queries.readOnly(sql, { timeoutMs: 20_000 }, async (cursor) => {
    const out: unknown[][] = [];
    for (let b = await cursor.next(100); b.length > 0; b = await cursor.next(100)) out.push(...b);
    return out.map((r) => r.map((v) => (typeof v === 'bigint' ? Number(v) : v)));
  });
}

describeStores('a statement over the store rows the history does not hold', (kind: StoreKind) => {
  let s: OpenedStore;
  const key: DayKey = { source: 'shield', zone: 201, day: DAY };

  beforeAll(async () => {
    s = kind === 'SQLite' ? await openSqlite(() => NOW) : await openPostgres(server!, () => NOW);
    const pages = [0, 1, 2].map((p) => Array.from({ length: 400 }, (_, i) => entry(p * 400 + i)));
    await storeShieldPass(s.store, key, pages, NOW);
  });
  afterAll(async () => s?.close());

  it.each([
    ['a count', 'SELECT count(*) FROM shield_event_logs'],
    ['a count of a day', `SELECT count(*) FROM shield_event_logs WHERE log_date = '${DAY}'`],
    ['a count of the days after', `SELECT count(*) FROM shield_event_logs WHERE log_date > '${DAY}'`],
    // One day: the store's rows all hold it, and the view writes it rather than copy it.
    [
      'the day itself, of one day',
      `SELECT log_date, count(*), max(log_date) FROM shield_event_logs WHERE log_date = '${DAY}' GROUP BY log_date`,
    ],
    [
      'a count of a range of days',
      `SELECT count(*), min(log_id) FROM shield_event_logs WHERE log_date BETWEEN '2026-11-19' AND '${DAY}'`,
    ],
    ['a count of a column', 'SELECT count(rule_id), count(DISTINCT country) FROM shield_event_logs'],
    ['a group', 'SELECT country, count(*) FROM shield_event_logs GROUP BY country ORDER BY country'],
    ['a lookup', "SELECT log_id, severity FROM shield_event_logs WHERE log_id = 's-777'"],
    // The archive's `*` is the history's columns and `time`; the store's table has more.
    [
      'every column',
      "SELECT * EXCLUDE (time) FROM shield_event_logs WHERE log_id = 's-5'",
      `SELECT ${HISTORY_COLUMNS.shield_event_logs.columns.map(([n]) => n).join(', ')} FROM shield_event_logs WHERE log_id = 's-5'`,
    ],
  ])('%s: the store’s own answer', async (_what, sql, storeSql?: string) => {
    const archive = await rows(archiveQueries({ root: null, store: s.store.queries }), sql);
    const own = await rows(s.store.queries, storeSql ?? sql);
    expect(own.length).toBeGreaterThan(0);
    expect(archive).toEqual(own);
  });
});
