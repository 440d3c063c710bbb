// The built CLI with a webhook that accepts and never answers (timeout 60 s): `edgelog run` exits within
// worker.shutdownTimeout of SIGINT, and `edgelog sync` exits within the 15 s it waits for receivers.
import { setTimeout as sleep } from 'node:timers/promises';
import { Queue } from 'bullmq';
import { afterEach, describe, expect, it } from 'vitest';
import { fingerprint, type Notice } from '../../src/alerts/payload.js';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import { redisOptions } from '../../src/redis/connection.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { startCli, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const H = 3_600_000;

let h: Harness | undefined;
const receivers: Receiver[] = [];
afterEach(async () => {
  await h?.close();
  for (const r of receivers.splice(0)) await r.close();
});

async function receiver(opts: { hanging?: boolean } = {}): Promise<Receiver> {
  const r = await startReceiver(opts);
  receivers.push(r);
  return r;
}

async function until(what: string, done: () => boolean, timeoutMs: number): Promise<void> {
  for (const start = Date.now(); !done(); await sleep(50)) {
    if (Date.now() - start > timeoutMs)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
  }
}

describe('a hanging webhook and the CLI', () => {
  it('edgelog run: SIGINT with a delivery in flight exits within worker.shutdownTimeout', async () => {
    h = await harness({ now: Date.now });
    const hang = await receiver({ hanging: true });
    // A notice already queued (as a previous process left it); the worker picks it up at start.
    const notice: Notice = {
      id: `${fingerprint('origin-5xx-spike', 'origin', 101)}-firing-${Date.now()}`,
      rule: 'origin-5xx-spike',
      ruleType: 'spike',
      source: 'origin',
      zone: 101,
      status: 'firing',
      startsAt: Date.now(),
      endsAt: null,
      summary: 'origin 5xx spike in zone 101',
      details: {},
      fingerprint: fingerprint('origin-5xx-spike', 'origin', 101),
    };
    const queue = new Queue('notify', { connection: redisOptions({ url: redisUrl() }), prefix: h.prefix });
    try {
      await queue.add('notify', { hook: 'hang', notice }, { jobId: `${notice.id}-hang`, attempts: 100 });
      const config = writeConfig(h.dir, {
        api: { ...h.urls, accessKey: h.sim.accessKey },
        redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
        metrics: { listen: '127.0.0.1:0' }, // a free port: runs in parallel never collide on 9469
        database: { path: h.dbPath },
        pullZones: [],
        shieldZones: [],
        worker: { shutdownTimeout: '3s' },
        alerts: { hooks: { hang: { type: 'webhook', url: hang.url, timeout: '60s' } } },
        log: { level: 'info' },
      });
      const run = startCli(['--config', config, 'run'], { cwd: h.dir });
      await until('the delivery to be in flight', () => hang.held.length === 1, 20_000).catch(async (err) => {
        run.child.kill('SIGKILL');
        throw new Error(`${(err as Error).message}; the worker wrote:\n${(await run.done).stderr}`);
      });
      const stoppedAt = Date.now();
      run.child.kill('SIGINT');
      const result = await run.done;
      const took = Date.now() - stoppedAt;
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('"msg":"stopped"');
      // 3 s of shutdownTimeout plus slack for a loaded machine; the hook's own timeout is 60 s.
      expect(took).toBeLessThan(3_000 + 4_000);
      // The interrupted delivery went back to the queue for the next run.
      expect(['waiting', 'delayed', 'prioritized']).toContain(await queue.getJobState(`${notice.id}-hang`));
    } finally {
      await queue.close();
    }
  }, 90_000);

  it('edgelog sync: delivers to the answering hook and exits within its announced wait', async () => {
    // The real clock (the CLI reads it): a 5xx burst in the last complete hour of zone 101.
    const hourStart = Math.floor(Date.now() / H) * H;
    h = await harness({
      entriesPerDay: 2_400,
      now: Date.now,
      spikes: [
        { source: 'origin', zone: 101, from: hourStart - H, to: hourStart, count: 1000, statusCode: 503 },
      ],
    });
    const hang = await receiver({ hanging: true });
    const ops = await receiver();
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: h.dbPath },
      pullZones: [101],
      shieldZones: [],
      worker: { shutdownTimeout: '3s' },
      alerts: {
        hooks: {
          hang: { type: 'webhook', url: hang.url, timeout: '60s' },
          ops: { type: 'webhook', url: ops.url },
        },
        rules: [
          {
            name: 'origin-5xx-spike',
            type: 'spike',
            source: 'origin',
            filter: { statusCodeMin: 500 },
            window: '1h',
            factor: 3,
            min: 20,
            hooks: ['hang', 'ops'],
          },
        ],
      },
      log: { level: 'warn' },
    });
    // Yesterday too: the reference hours before the burst may lie there.
    const from = addDays(dayOf(Date.now()), -1);
    const started = Date.now();
    const sync = startCli(['--config', config, 'sync', '--from', from, '--source', 'origin', '--json'], {
      cwd: h.dir,
    });
    let summaryAt = 0;
    sync.child.stdout?.once('data', () => (summaryAt = Date.now()));
    const result = await sync.done;
    const exitedAt = Date.now();
    expect(result.stderr).not.toContain('"level":50');
    const summary = JSON.parse(result.stdout) as SyncSummary;
    expect(summary.ok).toBe(true);
    expect(summary.alerts).toEqual({ notices: 2, delivered: 1, pending: 1 });
    expect(ops.received).toHaveLength(1);
    expect(hang.held).toHaveLength(1);
    // Sync waits up to 15 s for receivers, then leaves the rest queued: nothing more after the summary,
    // and the whole run is the days' work plus that wait (slack for a loaded machine).
    expect(exitedAt - summaryAt).toBeLessThan(3_000 + 4_000);
    expect(exitedAt - started).toBeLessThan(15_000 + 20_000);
  }, 120_000);
});
