// Flatline and guardian rules on a real archive, with a clock the test moves.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlertEvaluator } from '../../src/alerts/evaluator.js';
import { parseConfig, type ConfigInput } from '../../src/config/index.js';
import type { Notice } from '../../src/alerts/payload.js';
import { silentLogger } from '../../src/logger.js';
import type { AlertsStore } from '../../src/store/store.js';
import type { Archive } from '../../src/store/sqlite/archive.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';

const H = 3_600_000;
const T0 = Date.parse('2026-11-22T12:00:00Z');
let dir: string;
let archive: Archive;
let store: SqliteStore;
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

function setup(alerts: ConfigInput['alerts']) {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-rules-'));
  store = openSqliteStore(join(dir, 'a.db'));
  archive = store.archive;
  let now = T0;
  const config = parseConfig({ pullZones: [101], shieldZones: [201], alerts });
  const repo = store.alerts as AlertsStore<Notice>;
  const evaluator = new AlertEvaluator({ config, repo, logger: silentLogger(), now: () => now });
  return {
    repo,
    evaluate: (at: number) => ((now = at), evaluator.evaluate()),
    notices: () => repo.notifications(),
  };
}

const hooks = { ops: { type: 'webhook' as const, url: 'http://127.0.0.1:9/hook' } };

describe('flatline rule', () => {
  it('fires when a zone has had no successful ingestion for longer than maxAge, and resolves when one lands', async () => {
    const t = setup({
      hooks,
      rules: [{ name: 'stale', type: 'flatline', source: 'origin', maxAge: '3h', hooks: ['ops'] }],
    });
    const finish = (at: number) =>
      archive.db
        .prepare(
          `INSERT OR REPLACE INTO ingest_ledger (source, zone_id, log_date, state, updated_at, finished_at)
                  VALUES ('origin', 101, '2026-11-22', 'partial', ?, ?)`,
        )
        .run(at, at);
    finish(T0 - 1 * H);
    expect(await t.evaluate(T0)).toMatchObject([
      { rule: 'stale', zone: 101, state: 'inactive', condition: false },
    ]);
    expect(await t.evaluate(T0 + 2.5 * H)).toMatchObject([
      { state: 'firing', notified: 'firing', value: 3.5 * H },
    ]);
    expect(await t.evaluate(T0 + 3 * H)).toMatchObject([{ state: 'firing', notified: null }]);
    finish(T0 + 3.5 * H);
    expect(await t.evaluate(T0 + 3.6 * H)).toMatchObject([{ state: 'resolved', notified: 'resolved' }]);
    expect((await t.notices()).map((n) => n.status)).toEqual(['resolved', 'firing']);
  });

  it('a zone that never ingested fires once maxAge has passed since the rule first looked', async () => {
    const t = setup({ rules: [{ name: 'stale', type: 'flatline', source: 'origin', maxAge: '1h' }] });
    expect(await t.evaluate(T0)).toMatchObject([
      { state: 'inactive', reason: 'no successful ingestion yet' },
    ]);
    expect(await t.evaluate(T0 + 2 * H)).toMatchObject([{ state: 'firing' }]);
  });
});

describe('guardian rule', () => {
  it('fires on a counter increase above the bound, ignores a reset, resolves on a small increase', async () => {
    const t = setup({
      hooks,
      rules: [
        {
          name: 'blocked-burst',
          type: 'guardian',
          counter: 'totalBlockedRequests',
          maxIncrease: 1000,
          hooks: ['ops'],
        },
      ],
    });
    let at = T0;
    const snapshot = (blocked: number) => {
      at += 15 * 60_000;
      archive.guardian.add(201, new Date(at), { data: { totalBlockedRequests: blocked } });
      return t.evaluate(at);
    };
    expect(await t.evaluate(at)).toMatchObject([
      { state: 'inactive', condition: null, reason: 'fewer than two snapshots' },
    ]);
    await snapshot(100);
    expect(await snapshot(400)).toMatchObject([{ state: 'inactive', value: 300 }]);
    expect(await snapshot(5_400)).toMatchObject([{ state: 'firing', value: 5_000, notified: 'firing' }]);
    expect(await snapshot(10)).toMatchObject([
      { state: 'firing', condition: null, reason: expect.stringContaining('reset') as string },
    ]);
    expect(await snapshot(60)).toMatchObject([{ state: 'resolved', value: 50, notified: 'resolved' }]);
  });
});
