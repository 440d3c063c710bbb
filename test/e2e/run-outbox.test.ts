// `edgelog run` as a user runs it (the built CLI), when Redis lost a notice's job: queued by an earlier
// process, not delivered, and Redis restarted empty since. The restore at start hands it again; the
// receiver gets it once.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Notice } from '../../src/alerts/payload.js';
import { startCli, writeConfig, type StartedCli } from '../support/cli.js';
import { deleteKeys, harness, NOW, redisUrl, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

let h: Harness | undefined;
let receiver: Receiver | undefined;
let run: StartedCli | undefined;
afterEach(async () => {
  run?.child.kill('SIGKILL');
  await run?.done;
  run = undefined;
  await h?.close();
  h = undefined;
  await receiver?.close();
  receiver = undefined;
});

async function until(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  for (const start = Date.now(); !done(); await sleep(50)) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}

describe('edgelog run and the alert outbox', () => {
  it('delivers, once, a notice whose job Redis lost before it was delivered', async () => {
    receiver = await startReceiver();
    h = await harness();
    const alerts = { hooks: { ops: { type: 'webhook' as const, url: receiver.url } } };
    const engine = await h.engine({ pullZones: [], shieldZones: [], alerts });
    const notice: Notice = {
      id: 'fp-firing-1',
      rule: 'stale',
      ruleType: 'flatline',
      source: 'origin',
      zone: 101,
      status: 'firing',
      startsAt: NOW,
      endsAt: null,
      summary: 'no successful origin ingestion for 3h',
      details: {},
      fingerprint: 'fp',
    };
    await engine.alerts.repo.save(
      { rule: 'stale', zone: 101, source: 'origin', fingerprint: 'fp' },
      undefined,
      { state: 'firing', since: NOW, lastNotifiedAt: NOW, firstEvaluatedAt: NOW },
      { value: 1, threshold: 0, detail: {} },
      [{ hook: 'ops', notice }],
      NOW,
    );
    // Handed to the queue (the outbox says so), never delivered: no worker ran. Then Redis loses it.
    expect(await engine.alerts.notifier.flushOutbox()).toHaveLength(1);
    await engine.close();
    await deleteKeys(h.prefix);

    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      metrics: { listen: '127.0.0.1:0' },
      database: { path: h.dbPath },
      pullZones: [],
      shieldZones: [],
      alerts,
      log: { level: 'info' },
    });
    run = startCli(['--config', config, 'run'], { cwd: h.dir });
    const started = run;
    await until('the notice delivered', () => receiver!.received.length > 0, 20_000).catch(async (err) => {
      started.child.kill('SIGKILL');
      throw new Error(`${(err as Error).message}; the worker wrote:\n${(await started.done).stderr}`);
    });
    const outbox = h.db();
    await until(
      'the delivery recorded',
      () =>
        outbox
          .prepare("SELECT delivered_at FROM alert_notifications WHERE id = 'fp-firing-1'")
          .pluck()
          .get() !== null,
      10_000,
    );
    started.child.kill('SIGINT');
    const result = await started.done;
    run = undefined;
    expect(result.code).toBe(0);
    expect(receiver.received.map((r) => r.headers['idempotency-key'])).toEqual(['fp-firing-1']);
    expect(result.stderr).toContain('"rehanded":1');
  });
});
