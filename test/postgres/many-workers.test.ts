// Many workers, one PostgreSQL archive (issue 12): three `edgelog run` processes named as three hosts
// (EDGELOG_HOST_ID), one Redis, one fresh database, a counting proxy in front of the simulator. The days
// are fetched once (every page requested once), no live worker loses a lease, and the archive equals the
// oracle. Then, with more zones, one worker is SIGKILLed in the middle of a Shield day: as on another host,
// its lease is not taken over early (its pid is never looked up) but runs out (`worker.lease` 4 s), another
// worker resumes the day from its checkpoint, and the archive ends exact.
// Skipped, with a line saying so, without a PostgreSQL server.
import { existsSync } from 'node:fs';
import pg from 'pg';
import { afterAll, expect, it } from 'vitest';
import type { SimSource } from '../../src/simulator/index.js';
import { toApiDate, type Day } from '../../src/time/utc-day.js';
import { archiveProblems, ledgerSettled, type DayRef } from '../fault/lib/archive-check.js';
import { clearOfMidnight, pastDays } from '../fault/lib/clock.js';
import { countingProxy, type CountingProxy } from '../fault/lib/counting-proxy.js';
import { Scene, type CliRun } from '../fault/lib/scene.js';
import { waitFor, within } from '../fault/lib/wait.js';
import { postgresReader, type ArchiveReader } from '../support/archive-reader.js';
import { createTestDatabase, type TestDatabase } from './support/server.js';
import { describePostgres } from '../support/stores.js';

const FIRST = { origin: [101], shield: [201, 202, 203] };
const SECOND = { origin: [101, 102], shield: [201, 202, 203, 204, 205] };
/** Shield zones whose days are long (40 pages): the kill lands in one of them. */
const LONG = new Set([204, 205]);
const HOSTS = ['host-a', 'host-b', 'host-c'] as const;
const LEASE_MS = 4_000;
const LEASE_LOST = /lease lost/;

let scene: Scene | undefined;
let proxy: CountingProxy | undefined;
let db: TestDatabase | undefined;
let client: pg.Client | undefined;
let reader: ArchiveReader | undefined;
afterAll(async () => {
  await reader?.close();
  await client?.end();
  await proxy?.close();
  await scene?.close();
  await db?.drop();
});

function refsOf(zones: typeof FIRST, days: Day[]): DayRef[] {
  return days.flatMap((day) => [
    ...zones.origin.map((zone) => ({ source: 'origin' as const, zone, day })),
    ...zones.shield.map((zone) => ({ source: 'shield' as const, zone, day })),
  ]);
}

const nameOf = (r: DayRef) => `${r.source} ${r.zone} ${r.day}`;

/** Requests per page of a zone-day through the proxy: the first page (or origin answer), then the rest. */
function requestsOf(counts: Map<string, number>, ref: DayRef): { first: number; pages: number[] } {
  const date = toApiDate(ref.day);
  if (ref.source === 'origin') return { first: counts.get(`/origin/${ref.zone}/${date}`) ?? 0, pages: [] };
  const base = `/api/shield/event-logs/${ref.zone}/${date}`;
  let first = 0;
  const pages: number[] = [];
  for (const [path, n] of counts) {
    if (path === base || path === `${base}/`) first += n;
    else if (path.startsWith(`${base}/`)) pages.push(n);
  }
  return { first, pages };
}

/** The lines of a worker's log that say it lost a lease or logged an error. */
function trouble(stderr: string): string[] {
  return stderr.split('\n').filter((l) => LEASE_LOST.test(l) || /"level":(50|60)/.test(l));
}

describePostgres('many workers on one archive', (_store, server) => {
  it('three hosts fetch each day once and exactly; a SIGKILLed one leaves its day to the others', async () => {
    await clearOfMidnight(150_000);
    db = await createTestDatabase(server);
    scene = await Scene.open({
      name: 'pg-many-workers',
      seed: 20261123,
      clock: 'real',
      sim: {
        pullZones: SECOND.origin,
        shieldZones: SECOND.shield,
        entriesPerDay: (source: SimSource, zone: number) =>
          source === 'shield' && LONG.has(zone) ? 4_000 : 1_500,
        pageSize: 100,
        latencyMs: 20,
      },
    });
    proxy = await countingProxy(scene.urls);
    const s = scene;
    const url = db.url;
    const configFor = (zones: typeof FIRST) =>
      s.writeConfig({
        api: proxy!.urls,
        pullZones: zones.origin,
        shieldZones: zones.shield,
        schedule: { finalizeDelay: '0s' },
        worker: { concurrency: 2, pageThreads: 0, shutdownTimeout: '5s', lease: `${LEASE_MS}ms` },
      });
    const startAll = () =>
      HOSTS.map((host) => s.start(['run'], { env: { EDGELOG_DATABASE_URL: url, EDGELOG_HOST_ID: host } }));
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const c = client;
    reader = await postgresReader(db.url);
    const archive = reader;
    const days = pastDays(s.now(), 2);
    const settled = async (refs: DayRef[], what: string, workers: CliRun[]) =>
      waitFor(what, async () => ((await ledgerSettled(archive, refs)) ? true : undefined), {
        timeoutMs: 45_000,
        everyMs: 250,
      }).catch(async (err: unknown) => {
        const ledger = await c.query(
          'SELECT source, zone_id, log_date, state, pages, lease_owner, last_error FROM ingest_ledger ORDER BY 1, 2, 3',
        );
        const said = workers.map(
          (w, i) => `worker ${i + 1}: ${trouble(w.output().stderr).slice(-5).join('\n')}`,
        );
        throw new Error(
          `${(err as Error).message}; ledger ${JSON.stringify(ledger.rows)}\n${said.join('\n')}`,
        );
      });
    const stop = async (workers: CliRun[]) => {
      for (const w of workers) w.child.kill('SIGINT');
      return Promise.all(workers.map((w) => within(w.done, 30_000)));
    };

    // 1. Three hosts, four zones: each day fetched once, no lease lost, the archive exact.
    configFor(FIRST);
    const first = refsOf(FIRST, days);
    const round1 = startAll();
    await settled(first, 'three workers to archive the past days', round1);
    expect(await archiveProblems(archive, s.sim, first, { at: s.now() })).toEqual([]);
    const ended1 = await stop(round1);
    ended1.forEach((r, i) => {
      expect(r, `worker ${i + 1} stopped within 30 s of SIGINT`).toBeDefined();
      expect(trouble(r!.stderr), `worker ${i + 1}`).toEqual([]);
      expect(r!.code, `worker ${i + 1}: ${r!.stderr.slice(-2000)}`).toBe(0);
    });
    // Every host took part (concurrency 2 each, nine zone-days and today's four).
    const owners = ended1.map((r) => (/"msg":"day fetched"/.test(r!.stderr) ? 1 : 0));
    expect(owners.reduce<number>((a, b) => a + b, 0)).toBeGreaterThanOrEqual(2);
    for (const ref of first) {
      const { first: n, pages } = requestsOf(proxy.counts, ref);
      expect(n, `${nameOf(ref)}: first page requests`).toBe(1);
      expect(
        pages.filter((p) => p !== 1),
        `${nameOf(ref)}: pages requested more than once`,
      ).toEqual([]);
    }

    // 2. More zones; once a long Shield day is under way, its worker is SIGKILLed.
    configFor(SECOND);
    const second = refsOf(SECOND, days);
    const round2 = startAll();
    const target = await waitFor(
      'a long Shield day under way',
      async () => {
        const r = await c
          .query<{ zone_id: number; log_date: string; lease_owner: string; pages: number }>(
            `SELECT zone_id, log_date, lease_owner, pages FROM ingest_ledger
             WHERE source = 'shield' AND zone_id = ANY($1) AND state = 'running'
               AND lease_owner IS NOT NULL AND pages BETWEEN 3 AND 25 AND log_date = ANY($2)`,
            [[...LONG], days],
          )
          .catch(() => ({ rows: [] }));
        return r.rows[0];
      },
      { timeoutMs: 30_000, everyMs: 100 },
    );
    const host = /@([^/]+)\//.exec(target.lease_owner)![1]!;
    const victim = round2[HOSTS.indexOf(host as (typeof HOSTS)[number])]!;
    victim.child.kill('SIGKILL');
    const killed = await victim.done;
    expect(killed.signal).toBe('SIGKILL');
    // What the dead host held, and until when.
    const held = await c.query<{
      source: 'origin' | 'shield';
      zone_id: number;
      log_date: Day;
      lease_until: string;
    }>('SELECT source, zone_id, log_date, lease_until FROM ingest_ledger WHERE lease_owner LIKE $1', [
      `%@${host}/%`,
    ]);
    const heldDays = new Set(held.rows.map((r) => `${r.source} ${r.zone_id} ${r.log_date}`));
    expect(heldDays).toContain(`shield ${target.zone_id} ${target.log_date}`);
    const until = Number(
      held.rows.find((r) => r.zone_id === target.zone_id && r.log_date === target.log_date)!.lease_until,
    );
    // Its day changes hands only once its lease has run out: nobody looked its pid up.
    const takenAt = await waitFor(
      'another host to take the dead host’s day',
      async () => {
        const r = await c.query<{ lease_owner: string | null; state: string }>(
          "SELECT lease_owner, state FROM ingest_ledger WHERE source = 'shield' AND zone_id = $1 AND log_date = $2",
          [target.zone_id, target.log_date],
        );
        const row = r.rows[0]!;
        return row.lease_owner !== target.lease_owner ? Date.now() : undefined;
      },
      { timeoutMs: 30_000, everyMs: 50 },
    );
    expect(takenAt).toBeGreaterThanOrEqual(until);
    const survivors = round2.filter((w) => w !== victim);
    await settled(second, 'the two other workers to finish the dead one’s work', survivors);
    expect(await archiveProblems(archive, s.sim, second, { at: s.now() })).toEqual([]);
    const ended2 = await stop(survivors);
    ended2.forEach((r, i) => {
      expect(r, `survivor ${i + 1} stopped within 30 s of SIGINT`).toBeDefined();
      expect(trouble(r!.stderr), `survivor ${i + 1}`).toEqual([]);
      expect(r!.code, `survivor ${i + 1}: ${r!.stderr.slice(-2000)}`).toBe(0);
    });
    expect(trouble(killed.stderr), 'the killed worker, before its death').toEqual([]);

    // Fetched once per plan: the first round's days not again; the second round's once, but for the
    // page the dead host had in flight. The day it died in resumed from its checkpoint (page 1 once).
    for (const ref of second) {
      const { first: n, pages } = requestsOf(proxy.counts, ref);
      const name = nameOf(ref);
      const most = heldDays.has(name) ? 2 : 1;
      if (ref.zone === target.zone_id && ref.day === target.log_date)
        expect(n, `${name}: first page`).toBe(1);
      else expect(n, `${name}: first page requests`).toBeGreaterThanOrEqual(1);
      expect(n, `${name}: first page requests`).toBeLessThanOrEqual(most);
      expect(
        pages.filter((p) => p > most),
        `${name}: pages requested too often`,
      ).toEqual([]);
      if (!heldDays.has(name))
        expect(
          pages.filter((p) => p !== 1),
          name,
        ).toEqual([]);
    }
    const resumed = await c.query<{ state: string; lease_owner: string | null }>(
      "SELECT state, lease_owner FROM ingest_ledger WHERE source = 'shield' AND zone_id = $1 AND log_date = $2",
      [target.zone_id, target.log_date],
    );
    expect(resumed.rows[0]).toEqual({ state: 'complete', lease_owner: null });
    expect(existsSync(s.dbPath)).toBe(false);
  }, 150_000);
});
