// The recorder keeps every label within a fixed set, and the counters that can be known in advance are
// served at 0 from the start (so rate() sees their first increase).
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';
import { createMetrics } from '../../src/monitoring/index.js';
import { parsePromText, sampleValue } from '../support/prom-text.js';

function metrics() {
  return createMetrics(
    parseConfig({
      pullZones: [101],
      shieldZones: [201, 202],
      alerts: { hooks: { ops: { type: 'webhook', url: 'https://hooks.example.net/x' } } },
    }),
  );
}

describe('MetricsRecorder', () => {
  it('serves the known counter series at 0 before anything happened', async () => {
    const { set } = metrics();
    const families = parsePromText(await set.registry.metrics());
    for (const [source, zone] of [
      ['origin', '101'],
      ['shield', '201'],
      ['shield', '202'],
    ]) {
      expect(sampleValue(families, 'edgelog_entries_archived_total', { source: source!, zone: zone! })).toBe(
        0,
      );
    }
    expect(sampleValue(families, 'edgelog_day_jobs_total', { source: 'shield', outcome: 'failed' })).toBe(0);
    expect(
      sampleValue(families, 'edgelog_api_retries_total', {
        operation: 'shieldEventLogs',
        reason: 'rate_limited',
      }),
    ).toBe(0);
    expect(
      sampleValue(families, 'edgelog_alert_deliveries_total', { hook: 'ops', outcome: 'delivered' }),
    ).toBe(0);
  });

  it('counts a page under its zone, and a zone that is not configured under "other"', async () => {
    const { set, recorder } = metrics();
    const counts = { pages: 1, entries: 10, inserted: 8, malformed: 2, quarantined: 1 };
    recorder.page('shield', 201, counts);
    recorder.page('shield', 201, counts);
    recorder.page('shield', 999, counts);
    const f = parsePromText(await set.registry.metrics());
    expect(sampleValue(f, 'edgelog_entries_received_total', { source: 'shield', zone: '201' })).toBe(20);
    expect(sampleValue(f, 'edgelog_entries_archived_total', { source: 'shield', zone: '201' })).toBe(16);
    expect(sampleValue(f, 'edgelog_entries_malformed_total', { source: 'shield', zone: '201' })).toBe(4);
    expect(sampleValue(f, 'edgelog_entries_quarantined_total', { source: 'shield', zone: '201' })).toBe(2);
    expect(sampleValue(f, 'edgelog_pages_total', { source: 'shield', zone: '201' })).toBe(2);
    expect(sampleValue(f, 'edgelog_entries_archived_total', { source: 'shield', zone: 'other' })).toBe(8);
    expect(JSON.stringify([...f.values()])).not.toContain('"999"');
  });

  it('times requests by operation and status class, counts 429s, and bounds unknown operations and hooks', async () => {
    const { set, recorder } = metrics();
    recorder.request('shieldEventLogs', 200, 0.02);
    recorder.request('shieldEventLogs', 429, 0.001);
    recorder.request('shieldEventLogs', null, 5);
    recorder.request('https://secret.example/x', 200, 0.02);
    recorder.retry('shieldEventLogs', 'rate_limited');
    recorder.delivery('ops', 'delivered');
    recorder.delivery('removed-hook', 'failed');
    const f = parsePromText(await set.registry.metrics());
    const count = (operation: string, status_class: string) =>
      sampleValue(f, 'edgelog_api_request_duration_seconds_count', { operation, status_class });
    expect(count('shieldEventLogs', '2xx')).toBe(1);
    expect(count('shieldEventLogs', '4xx')).toBe(1);
    expect(count('shieldEventLogs', 'error')).toBe(1);
    expect(count('other', '2xx')).toBe(1);
    expect(
      sampleValue(f, 'edgelog_api_request_duration_seconds_bucket', {
        operation: 'shieldEventLogs',
        status_class: '2xx',
        le: '0.025',
      }),
    ).toBe(1);
    expect(sampleValue(f, 'edgelog_api_rate_limited_total', { operation: 'shieldEventLogs' })).toBe(1);
    expect(
      sampleValue(f, 'edgelog_api_retries_total', { operation: 'shieldEventLogs', reason: 'rate_limited' }),
    ).toBe(1);
    expect(sampleValue(f, 'edgelog_alert_deliveries_total', { hook: 'other', outcome: 'failed' })).toBe(1);
    expect(JSON.stringify([...f.values()])).not.toContain('secret');
  });

  it('two engines in one process keep apart (a registry each)', async () => {
    const a = metrics();
    const b = metrics();
    a.recorder.page('origin', 101, { pages: 1, entries: 5, inserted: 5, malformed: 0, quarantined: 0 });
    const fb = parsePromText(await b.set.registry.metrics());
    expect(sampleValue(fb, 'edgelog_entries_archived_total', { source: 'origin', zone: '101' })).toBe(0);
  });
});
