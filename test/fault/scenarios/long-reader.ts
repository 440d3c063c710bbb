// Scenario 5: a reader holds one read transaction on the archive for the whole of an ingest (a long
// report, a forgotten `sqlite3` shell). Checkpoints cannot pass its snapshot, so the WAL grows while it
// holds. Once it lets go, the first ingest may still append while the backlog is copied (how much depends
// on the machine's load); after that the WAL is reused from its start: a further ingest of the same
// size must not grow it.
import { statSync } from 'node:fs';
import { openDatabase } from '../../../src/store/sqlite/database.js';
import { archiveProblems, type DayRef } from '../lib/archive-check.js';
import { pastDays } from '../lib/clock.js';
import type { ScenarioReport } from '../lib/report.js';
import { Scene } from '../lib/scene.js';
import { sleep, within } from '../lib/wait.js';
import { recordSecretScan, startReport } from '../lib/report.js';

export interface LongReaderOptions {
  seed: number;
  /** Shield entries per day; the two days are ingested one after the other. */
  entriesPerDay: number;
}

export interface LongReaderReport extends ScenarioReport {
  /** WAL size after the first day, ingested under the reader's snapshot. */
  walHeldBytes: number;
  /** WAL size after the second day, the first ingest without the reader. */
  walReleasedBytes: number;
  /** Largest WAL size seen while a third day (another zone's) was ingested. */
  walAfterBytes: number;
  /** The archive's size after both days (what an unbounded WAL would grow towards). */
  archiveBytes: number;
}

const SYNC_BOUND_MS = 120_000;

export async function longReaderScenario(opts: LongReaderOptions): Promise<LongReaderReport> {
  const scene = await Scene.open({
    name: 'long-reader',
    seed: opts.seed,
    clock: 'fixed',
    sim: { pullZones: [101], shieldZones: [201, 202], entriesPerDay: opts.entriesPerDay, pageSize: 500 },
  });
  const report: LongReaderReport = {
    ...startReport('long-read-transaction', opts.seed),
    walHeldBytes: 0,
    walReleasedBytes: 0,
    walAfterBytes: 0,
    archiveBytes: 0,
  };
  const walSize = () => statSync(`${scene.dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  const sync = async (day: string, zone: number) => {
    const args = ['sync', '--date', day, '--source', 'shield', '--zone', String(zone)];
    const result = await within(scene.run(args), SYNC_BOUND_MS);
    report.runs++;
    if (result?.code !== 0)
      report.problems.push(`sync of ${day} failed: ${result?.stdout ?? 'it did not end'}`);
  };
  try {
    scene.writeConfig({ pullZones: [], shieldZones: [201, 202], log: { level: 'warn' } });
    const migrated = await scene.run(['migrate']);
    report.runs++;
    if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
    const [first, second] = pastDays(scene.now(), 2) as [DayRef['day'], DayRef['day']];

    const reader = openDatabase(scene.dbPath, { readonly: true });
    try {
      reader.exec('BEGIN');
      reader.prepare('SELECT count(*) FROM shield_event_logs').pluck().get(); // the snapshot starts here
      await sync(first, 201);
      report.walHeldBytes = walSize();
      reader.exec('COMMIT');
      await sync(second, 201);
      report.walReleasedBytes = walSize();

      let largest = 0;
      let syncing = true;
      const watch = (async () => {
        while (syncing) {
          largest = Math.max(largest, walSize());
          await sleep(20);
        }
      })();
      await sync(second, 202);
      syncing = false;
      await watch;
      report.walAfterBytes = Math.max(largest, walSize());
    } finally {
      reader.close();
    }
    report.archiveBytes = statSync(scene.dbPath).size + walSize();
    const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;
    report.notes.push(
      `WAL ${mib(report.walHeldBytes)} after a day under the reader's snapshot, ${mib(report.walReleasedBytes)} ` +
        `after the next day, at most ${mib(report.walAfterBytes)} during a third; archive ${mib(report.archiveBytes)}`,
    );
    // The premise: the reader did hold the WAL (it took in the whole first day).
    if (report.walHeldBytes < report.archiveBytes / 8) {
      report.problems.push(
        `the reader did not pin the WAL: ${mib(report.walHeldBytes)} (archive ${mib(report.archiveBytes)})`,
      );
    }
    const bound = Math.max(report.walHeldBytes, report.walReleasedBytes) * 1.1;
    if (report.walAfterBytes > bound) {
      report.problems.push(
        `the WAL grew to ${mib(report.walAfterBytes)} on a later day, past ${mib(report.walReleasedBytes)} (held: ${mib(report.walHeldBytes)})`,
      );
    }
    const refs: DayRef[] = [
      { source: 'shield', zone: 201, day: first },
      { source: 'shield', zone: 201, day: second },
      { source: 'shield', zone: 202, day: second },
    ];
    report.problems.push(
      ...(await archiveProblems(await scene.reader(), scene.sim, refs, { at: scene.now() })),
    );
    await scene.closeReaders();
    recordSecretScan(report, await scene.scanSecrets());
    return report;
  } finally {
    await scene.close();
  }
}
