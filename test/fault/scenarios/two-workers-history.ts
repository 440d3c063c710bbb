// Two workers, one history (issue 20): two `edgelog run` processes, as two hosts (EDGELOG_HOST_ID), on
// one Redis, one store and one history directory, compact and prune the same zone-days; one of them is
// SIGKILLed while it holds a day's history lease (compacting, publishing or pruning it), and the other
// must finish alone. What must hold:
// - each zone-day published once: its history_days record and its file, as first seen, never replaced,
//   and at most one "day compacted into history" between the two workers' logs;
// - every zone-day compacted, the cold ones pruned, no day lost: the files and the store together equal
//   the simulator's oracle (history-check.ts), history_days claims only what the files hold, and on
//   PostgreSQL no partition pruning emptied is left;
// - the survivor stops on SIGINT, having logged no error.
// The days: two origin days before the workers' lookback, synced first (the workers only compact and
// prune them), and the days the workers fetch themselves (yesterday's origin day, two Shield days).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { openDuckDb } from '../../../src/history/duckdb.js';
import { dayDir, entryTable } from '../../../src/history/layout.js';
import { lastUnfetchedDay } from '../../../src/history/plan.js';
import { parseOwner } from '../../../src/ingest/lease-owner.js';
import { addDays, dayOf } from '../../../src/time/utc-day.js';
import { clearOfMidnight } from '../lib/clock.js';
import { historyProblems, partitionProblems, type HistoryDayRef } from '../lib/history-check.js';
import type { ScenarioReport } from '../lib/report.js';
import { Scene, type CliRun } from '../lib/scene.js';
import type { StoreName } from '../lib/scene-database.js';
import { rngFor } from '../lib/seeded.js';
import { sleep, waitFor, WaitTimeout, within } from '../lib/wait.js';
import { recordSecretScan, startReport } from '../lib/report.js';

export interface TwoWorkersHistoryOptions {
  seed: number;
  entriesPerDay: number;
  /** The store. @defaultValue 'sqlite' */
  store?: StoreName;
  /** How long the survivor gets to finish every day alone. @defaultValue 120000 */
  finishMs?: number;
}

export interface TwoWorkersHistoryReport extends ScenarioReport {
  /** Per zone-day ("origin 101 2026-11-22"): its "day compacted into history" lines in both logs. */
  published: Record<string, number>;
  /** What the killed worker held a lease of when it was killed ("origin 101 2026-11-22 compacting"). */
  killedHolding: string | null;
}

const ORIGIN = [101, 102];
const SHIELD = [201];
/** worker.lease: short, so that a dead worker's leases run out soon; its BullMQ lock is half of it. */
const LEASE = '10s';

interface FirstSeen {
  compactedAt: number;
  /** The part it recorded, and that file's inode. */
  part: string | null;
  inode: number | null;
}

export async function twoWorkersHistoryScenario(
  opts: TwoWorkersHistoryOptions,
): Promise<TwoWorkersHistoryReport> {
  const store = opts.store ?? 'sqlite';
  const rng = rngFor(opts.seed, 'two-workers-history', store);
  await clearOfMidnight(300_000);
  const scene = await Scene.open({
    name: 'two-workers-history',
    seed: opts.seed,
    clock: 'real',
    store,
    sim: { pullZones: ORIGIN, shieldZones: SHIELD, entriesPerDay: opts.entriesPerDay, pageSize: 200 },
  });
  const report: TwoWorkersHistoryReport = {
    ...startReport(
      store === 'sqlite' ? 'two-workers-one-history' : `two-workers-one-history-${store}`,
      opts.seed,
    ),
    published: {},
    killedHolding: null,
  };
  const duck = await openDuckDb();
  const workers: CliRun[] = [];
  try {
    const today = dayOf(Date.now());
    const day = (n: number) => addDays(today, -n);
    const refs: HistoryDayRef[] = [
      ...[3, 2, 1].flatMap((n) => ORIGIN.map((zone) => ({ source: 'origin' as const, zone, day: day(n) }))),
      ...[2, 1].flatMap((n) => SHIELD.map((zone) => ({ source: 'shield' as const, zone, day: day(n) }))),
    ];
    const cold = refs.filter((r) => r.day <= lastUnfetchedDay(r.source, Date.now(), 1));
    const root = join(scene.dir, 'history');
    scene.writeConfig({
      pullZones: ORIGIN,
      shieldZones: SHIELD,
      worker: { lease: LEASE, shutdownTimeout: '3s' },
      schedule: { finalizeDelay: '0s', originLookbackDays: 1 },
      history: { path: root, hotDays: 0 },
    });
    const sync = await scene.run(['sync', '--source', 'origin', '--from', day(3), '--to', day(2)]);
    report.runs++;
    if (sync.code !== 0) throw new Error(`the sync that fills the archive failed: ${sync.stderr}`);

    const hosts = ['host-a', 'host-b'];
    for (const host of hosts) workers.push(scene.start(['run'], { env: { EDGELOG_HOST_ID: host } }));
    report.runs += 2;
    const firstSeen = new Map<string, FirstSeen>();
    const keyOf = (r: { source: string; zone: number; day: string }) => `${r.source} ${r.zone} ${r.day}`;
    const reader = await scene.reader();
    const look = async () => {
      const rows = await reader.all<{
        source: string;
        zone_id: number;
        log_date: string;
        compacted_at: number | null;
        pruned_at: number | null;
        lease_owner: string | null;
        lease_until: number | null;
        part: string | null;
      }>('SELECT * FROM history_days');
      for (const r of rows) {
        const ref = refs.find((x) => keyOf(x) === keyOf({ ...r, zone: r.zone_id, day: r.log_date }));
        if (!ref || r.compacted_at === null || firstSeen.has(keyOf(ref))) continue;
        firstSeen.set(keyOf(ref), {
          compactedAt: Number(r.compacted_at),
          part: r.part,
          inode: inodeOf(root, ref, r.part),
        });
      }
      return rows;
    };

    // One worker killed while it holds a day's history lease, after a random few polls.
    let polls = rng.int(0, 20);
    let victim: number | null = null;
    try {
      await waitFor(
        'a worker holding a history lease',
        async () => {
          const held = (await look()).filter(
            (r) => r.lease_owner !== null && Number(r.lease_until) > Date.now(),
          );
          if (held.length === 0 || polls-- > 0) return undefined;
          const owner = parseOwner(held[0]!.lease_owner!);
          const i = owner ? hosts.indexOf(owner.host) : -1;
          if (i < 0) return undefined;
          workers[i]!.child.kill('SIGKILL');
          report.kills++;
          victim = i;
          const h = held[0]!;
          const what = h.compacted_at === null ? 'compacting' : h.pruned_at === null ? 'pruning' : 'holding';
          report.killedHolding = `${h.source} ${h.zone_id} ${h.log_date} ${what}`;
          return true;
        },
        { timeoutMs: 120_000, everyMs: 20 },
      );
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
      report.problems.push(`${err.message}: no worker was killed`);
    }
    report.notes.push(
      victim === null
        ? 'no kill'
        : `worker ${hosts[victim]} SIGKILLed holding the lease of ${report.killedHolding}`,
    );

    // The survivor alone: every day compacted, the cold ones pruned.
    const done = async () => {
      const rows = await look();
      const row = (r: HistoryDayRef) =>
        rows.find((h) => keyOf(r) === `${h.source} ${h.zone_id} ${h.log_date}`);
      const compacted = refs.every((r) => row(r)?.compacted_at != null);
      const pruned = cold.every((r) => row(r)?.pruned_at != null);
      return compacted && pruned ? true : undefined;
    };
    const t0 = Date.now();
    try {
      await waitFor('the surviving worker to compact every day and prune the cold ones', done, {
        timeoutMs: opts.finishMs ?? 120_000,
        everyMs: 100,
      });
      report.notes.push(`the survivor finished ${Math.round((Date.now() - t0) / 1000)} s after the kill`);
    } catch (err) {
      if (!(err instanceof WaitTimeout)) throw err;
      const rows = await look();
      const ledger = await reader.all(
        'SELECT source, zone_id, log_date, state, archived_entries, lease_owner, lease_until FROM ingest_ledger',
      );
      report.notes.push(`ledger at the timeout: ${JSON.stringify(ledger)}`);
      // What each worker said of the days not done.
      const missing = refs.filter((r) => {
        const h = rows.find((x) => keyOf(r) === `${x.source} ${x.zone_id} ${x.log_date}`);
        return h?.compacted_at == null || (cold.includes(r) && h.pruned_at == null);
      });
      workers.forEach((w, i) => {
        const said = w
          .output()
          .stderr.split('\n')
          .filter((l) => missing.some((r) => l.includes(`"zone":${r.zone},`) && l.includes(r.day)));
        report.notes.push(`${hosts[i]} said of the days not done:\n${said.slice(-15).join('\n')}`);
      });
      report.problems.push(
        `${err.message}; history_days: ${JSON.stringify(rows.map((r) => ({ ...r, lease_owner: r.lease_owner?.split('@')[0] })))}`,
      );
    }
    await sleep(500); // a second publication racing the first would land now, if at all
    await look();
    await scene.closeReaders();

    const survivors = workers.filter((_, i) => i !== victim);
    for (const w of survivors) w.child.kill('SIGINT');
    report.kills += survivors.length;
    const results = await Promise.all(workers.map((w) => within(w.done, 30_000)));
    results.forEach((r, i) => {
      if (i === victim) return;
      if (!r) report.problems.push(`worker ${hosts[i]} did not stop within 30 s of SIGINT`);
      else {
        if (r.code !== 0) report.problems.push(`worker ${hosts[i]} exited ${r.code ?? r.signal}`);
        const errors = r.stderr.split('\n').filter((l) => /"level":(50|60)/.test(l));
        if (errors.length > 0) report.problems.push(`worker ${hosts[i]} logged: ${errors[0]!.slice(0, 400)}`);
      }
    });

    // Published once: one log line at most, and the record and file first seen are the ones at the end.
    const logs = results.flatMap((r) => (r?.stderr ?? '').split('\n'));
    const after = await scene.reader();
    const final = await after.all<{
      source: string;
      zone_id: number;
      log_date: string;
      compacted_at: number;
    }>('SELECT source, zone_id, log_date, compacted_at FROM history_days');
    for (const ref of refs) {
      const key = keyOf(ref);
      const lines = logs.filter(
        (l) =>
          l.includes('day compacted into history') &&
          l.includes(`"source":"${ref.source}"`) &&
          l.includes(`"zone":${ref.zone},`) &&
          l.includes(`"day":"${ref.day}"`),
      );
      report.published[key] = lines.length;
      if (lines.length > 1) report.problems.push(`${key} was compacted ${lines.length} times (logs)`);
      const first = firstSeen.get(key);
      const now = final.find((h) => keyOf({ ...h, zone: h.zone_id, day: h.log_date }) === key);
      if (!first || !now) continue; // not compacted: reported above
      if (Number(now.compacted_at) !== first.compactedAt)
        report.problems.push(
          `${key} was recorded again (compacted_at ${first.compactedAt} → ${now.compacted_at})`,
        );
      const inode = inodeOf(root, ref, first.part);
      if (first.inode !== null && inode !== first.inode)
        report.problems.push(`${key}: its part was replaced after it was first published`);
    }
    report.problems.push(...(await historyProblems(duck, after, scene, root, refs)));
    if (scene.store === 'postgres')
      report.problems.push(
        ...(await partitionProblems(after, {
          allOriginPruned: false,
          // The workers still fetch the Shield days from day(2) on.
          before: addDays(lastUnfetchedDay('shield', Date.now(), 1), 1),
        })),
      );
    await scene.closeReaders();
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    duck.closeSync();
    await scene.closeReaders();
    await scene.close();
  }
}

/** The inode of the zone-day's merged entry part, or null while it has none (a new file is a new inode). */
function inodeOf(root: string, ref: HistoryDayRef, part: string | null): number | null {
  if (!part) return null;
  try {
    return statSync(join(dayDir(root, entryTable(ref.source), ref.zone, ref.day), part)).ino;
  } catch {
    return null;
  }
}
