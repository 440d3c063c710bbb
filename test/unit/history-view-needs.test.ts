// What a view must hold for several statements that share it (view-needs.ts), over DuckDB's real parse
// trees: the widest of what each needs, and the time order they agree on.
import { describe, expect, it } from 'vitest';
import { serializeSql } from '../../src/history/statement-tables.js';
import { sharedViewNeeds, viewNeeds } from '../../src/history/view-needs.js';

const T = 'origin_error_logs';

async function trees(...sqls: string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const sql of sqls) {
    const tree = await serializeSql(sql);
    if (tree.error) throw new Error(tree.error_message);
    out.push(tree.statements);
  }
  return out;
}

describe('sharedViewNeeds', () => {
  it("is one statement's own needs for one statement", async () => {
    const [tree] = await trees(
      `SELECT log_id FROM ${T} WHERE timestamp >= 5 AND log_date = '2026-11-20' ORDER BY timestamp DESC`,
    );
    expect(sharedViewNeeds([tree], T)).toEqual(viewNeeds(tree, T));
    expect(viewNeeds(tree, T)).toEqual({
      bounds: { min: 5n, max: null },
      guards: false,
      columns: new Set(['log_id', 'timestamp', 'log_date']),
      days: { min: '2026-11-20', max: '2026-11-20' },
      order: 'newest',
    });
  });

  it('widens to what every statement reading the table needs, and leaves out the others', async () => {
    const all = await trees(
      `SELECT log_id, log FROM ${T} WHERE timestamp BETWEEN 10 AND 20 AND log_date = '2026-11-20' ORDER BY timestamp DESC LIMIT 5`,
      `SELECT count(*) FROM ${T} WHERE timestamp >= 15 AND timestamp < 40 AND log_date >= '2026-11-19'`,
      // Another table: says nothing of this one's view.
      'SELECT url FROM shield_event_logs',
    );
    expect(sharedViewNeeds(all, T)).toEqual({
      bounds: { min: 10n, max: 39n },
      guards: false,
      columns: new Set(['log_id', 'log', 'timestamp', 'log_date']),
      // The second statement's days have no end.
      days: { min: '2026-11-19', max: null },
      order: 'newest',
    });
  });

  it.each<[string, string[], Partial<ReturnType<typeof viewNeeds>>]>([
    [
      'any statement unbounded, or naming every column, or using the guards',
      [
        `SELECT log_id FROM ${T} WHERE timestamp < 9 ORDER BY timestamp`,
        `SELECT * FROM ${T} WHERE time > '2026-11-20'`,
      ],
      { bounds: null, columns: null, guards: true, order: 'oldest' },
    ],
    [
      'orders that disagree',
      [
        `SELECT log_id FROM ${T} ORDER BY timestamp DESC LIMIT 3`,
        `SELECT log_id FROM ${T} ORDER BY timestamp LIMIT 3`,
      ],
      { order: null },
    ],
  ])('%s', async (_name, sqls, expected) => {
    expect(sharedViewNeeds(await trees(...sqls), T)).toMatchObject(expected);
  });

  it('refuses statements none of which reads the table', () => {
    expect(() => sharedViewNeeds([], T)).toThrow(RangeError);
  });
});
