// Defects the fault mixes found in how error answers are told, pinned by focused tests.
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/api/index.js';
import { parseConfig } from '../../src/config/index.js';
import { silentLogger } from '../../src/logger.js';
import { Simulator } from '../../src/simulator/index.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
let close: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of close.reverse()) await c();
  close = [];
});

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the request to fail');
}

describe('error answers with bodies that are not text', () => {
  // Seed 1 of the fault mixes: a gzip-compressed 401 (the out-of-window answer, or a refused key) put
  // its compressed bytes, control characters and all, into the error, the ledger's last_error and the
  // terminal. The bytes are now escaped.
  it('a gzip-compressed 401 body is escaped in the error message, never printed raw', async () => {
    const sim = new Simulator({ now: () => NOW, echoKey: true, faults: [{ kind: 'gzip' }] });
    const urls = await sim.listen();
    close.push(() => sim.close());
    const api = createApiClient(
      parseConfig({ api: { ...urls, accessKey: sim.accessKey, retryAttempts: 1 } }).api,
      silentLogger(),
    );
    close.push(() => api.close());
    const expired = addDays(dayOf(NOW), -5);
    const err = await errorOf(api.client.shieldEventLogs(201, expired));
    expect(err.message).toMatch(/HTTP 401/);
    // eslint-disable-next-line no-control-regex
    expect(err.message).toMatch(/^[^\x00-\x1f\x7f\ufffd]+$/);
    expect(err.message).toContain('\\x1f'); // the gzip magic number, escaped
  });
});
