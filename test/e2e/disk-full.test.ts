// `edgelog run` with its archive on a real, small filesystem (a tmpfs this test mounts) that fills up
// mid-day: a clear error naming the file and the cause, the ledger never ahead of the rows, the archive
// intact, and ingestion going on by itself once space is freed. Mounting needs root; elsewhere the test
// is skipped, saying why, but fails in CI (test/support/tmpfs.ts).
import { spawnSync } from 'node:child_process';
import { rmSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import type { LedgerRow } from '../../src/store/sqlite/ledger.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { runCli, startCli, writeConfig, type CliResult } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';
import { describeWithTmpfs } from '../support/tmpfs.js';

let h: Harness | undefined;
let mounted: string | undefined;
let stopRun: (() => Promise<CliResult>) | undefined;
afterEach(async () => {
  await stopRun?.();
  stopRun = undefined;
  if (mounted) spawnSync('umount', [mounted]);
  mounted = undefined;
  await h?.close();
  h = undefined;
});

async function until<T>(what: string, fn: () => T | undefined, timeoutMs: number, log: () => string) {
  for (const start = Date.now(); Date.now() - start < timeoutMs; await sleep(100)) {
    const v = fn();
    if (v !== undefined) return v;
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}; the worker wrote:\n${log().slice(-3000)}`,
  );
}

/** Reads the archive with a read-only connection (it works on a full disk). */
function read<T>(dbPath: string, fn: (db: ReturnType<typeof openDatabase>) => T): T {
  const db = openDatabase(dbPath, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const shieldRows = (dbPath: string, day: string) =>
  read(
    dbPath,
    (db) =>
      db.prepare('SELECT count(*) FROM shield_event_logs WHERE log_date = ?').pluck().get(day) as number,
  );
const ledgerRow = (dbPath: string, day: string) =>
  read(
    dbPath,
    (db) =>
      db.prepare("SELECT * FROM ingest_ledger WHERE source = 'shield' AND log_date = ?").get(day) as
        LedgerRow | undefined,
  );

describeWithTmpfs('edgelog run on a filesystem that fills up', () => {
  it('names the file and the cause, keeps the ledger true and the archive intact, and resumes once space is freed', async () => {
    // The real clock: `run` plans from Date.now(). 40 pages of 200 entries a day, 20 ms each.
    h = await harness({ entriesPerDay: 8_000, pageSize: 200, latencyMs: 20, now: Date.now });
    mounted = join(h.dir, 'disk');
    spawnSync('mkdir', ['-p', mounted]);
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mounted], {
      encoding: 'utf8',
    });
    expect(mount.stderr).toBe('');
    const dbPath = join(mounted, 'edgelog.db');
    const config = writeConfig(h.dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey, retryBaseDelay: '10ms', retryMaxDelay: '100ms' },
      redis: { url: redisUrl(), prefix: h.prefix, embedded: false },
      database: { path: dbPath },
      pullZones: [],
      shieldZones: [201],
      schedule: { shieldLookbackDays: 1 },
      worker: { shutdownTimeout: '5s', concurrency: 1 },
      log: { level: 'info' },
    });
    expect((await runCli(['--config', config, 'migrate'], { cwd: h.dir })).code).toBe(0);
    // Leave about 1 MB: a few pages of the first day fit, the rest does not.
    const fs = statfsSync(mounted);
    const ballast = join(mounted, 'ballast');
    writeFileSync(ballast, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - 1024 * 1024)));

    const run = startCli(['--config', config, 'run'], { cwd: h.dir });
    let stderr = '';
    run.child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    let exited = false;
    void run.done.then(() => (exited = true));
    stopRun = async () => {
      if (!exited) run.child.kill('SIGINT');
      return run.done;
    };

    const full = `disk full writing ${dbPath} (SQLITE_FULL: database or disk is full): free space on its filesystem`;
    await until(
      'the disk-full error',
      () => (stderr.includes(full) ? true : undefined),
      30_000,
      () => stderr,
    );
    expect(exited).toBe(false);
    const yesterday = addDays(dayOf(Date.now()), -1);
    const today = dayOf(Date.now());
    // While the disk is full: the ledger counts exactly the rows stored, and the archive is intact.
    for (const day of [yesterday, today]) {
      const row = ledgerRow(dbPath, day);
      expect(row?.archived_entries ?? 0).toBe(shieldRows(dbPath, day));
    }
    expect(read(dbPath, (db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');
    const stuck = [ledgerRow(dbPath, yesterday), ledgerRow(dbPath, today)].find(
      (r) => r && r.state === 'running',
    );
    expect(stuck?.last_error ?? full).toContain(full); // recorded, when the ledger could still be written

    rmSync(ballast); // space is back: the job's retry goes on from the checkpoint
    const done = await until(
      'both days fetched after space returned',
      () => {
        const rows = [ledgerRow(dbPath, yesterday), ledgerRow(dbPath, today)];
        return rows.every(
          (r) => r && (r.state === 'complete' || r.state === 'partial') && r.lease_owner === null,
        )
          ? rows
          : undefined;
      },
      60_000,
      () => stderr,
    );
    const result = await stopRun();
    expect(result.code).toBe(0);
    expect(stderr).not.toMatch(/unexpected error|uncaught/i);

    for (const row of done) expect(row!.archived_entries).toBe(shieldRows(dbPath, row!.log_date));
    const want = h.sim
      .entries('shield', 201, yesterday, Date.now())
      .filter((e) => e.keyable)
      .map((e) => e.logId)
      .sort();
    const got = read(dbPath, (db) =>
      db
        .prepare('SELECT log_id FROM shield_event_logs WHERE log_date = ? ORDER BY log_id')
        .pluck()
        .all(yesterday),
    );
    expect(got).toEqual(want);
    expect(read(dbPath, (db) => db.pragma('integrity_check', { simple: true }))).toBe('ok');
  }, 120_000);
});
