// /metrics shows silenced alerts: edgelog_alert_silenced{rule} counts the zones a silence holds now,
// edgelog_silences_active the silences in force (a real SQLite archive, the collector as a scrape runs it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { afterEach, expect, it } from 'vitest';
import { planSilence, silenceToRow } from '../../src/alerts/silences.js';
import { defineMetrics } from '../../src/monitoring/definitions.js';
import { silencesCollector } from '../../src/monitoring/silences-collector.js';
import { openSqliteStore, type SqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';

const T0 = Date.parse('2026-11-22T12:00:00Z');
let dir: string;
let store: SqliteStore;
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

it('counts the zones of each rule that a silence holds now, and the silences in force', async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-silence-metrics-'));
  store = openSqliteStore(join(dir, 'a.db'));
  const firing = { state: 'firing' as const, since: T0, lastNotifiedAt: T0, firstEvaluatedAt: T0 };
  const measured = { value: 1, threshold: 1, detail: {} };
  for (const zone of [101, 102, 103]) {
    const key = { rule: 'spike', zone, source: 'origin', fingerprint: `f${zone}` };
    expect(await store.alerts.save(key, undefined, firing, measured, [], T0)).toBe(true);
  }
  const key = { rule: 'stale', zone: 101, source: 'origin', fingerprint: 's101' };
  await store.alerts.save(key, undefined, firing, measured, [], T0);
  const s = planSilence(
    { rule: 'spike', zones: [101, 102], match: ['severity=page'], forMs: 60_000 },
    'a',
    T0,
  );
  await store.silences.add(silenceToRow(s));

  const registry = new Registry();
  const m = defineMetrics(registry);
  let now = T0 + 1_000;
  const rules = [{ name: 'spike', severity: 'page' }, { name: 'stale' }];
  const collector = silencesCollector(m, store, rules, () => now);
  await collector.collect();
  let families = parsePromText(await registry.metrics());
  expect(sampleValue(families, 'edgelog_alert_silenced', { rule: 'spike' })).toBe(2);
  expect(sampleValue(families, 'edgelog_alert_silenced', { rule: 'stale' })).toBe(0);
  expect(sampleValue(families, 'edgelog_silences_active', {})).toBe(1);

  now = T0 + 60_000; // the silence has ended
  await collector.collect();
  families = parsePromText(await registry.metrics());
  expect(sampleValue(families, 'edgelog_alert_silenced', { rule: 'spike' })).toBe(0);
  expect(sampleValue(families, 'edgelog_silences_active', {})).toBe(0);
});
