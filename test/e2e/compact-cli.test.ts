// `edgelog compact` as a user runs it: the summary (entries, bytes, bytes per entry), --json, the files
// in history.path, and clear errors when history is off or its directory cannot be written; and
// `compact --verify` of a pruned day whose part is gone: the day and its entries named, the exit status,
// `status` after, and a second run that counts nothing twice but still exits 1 while entries are lost.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';
import { redisUrl } from '../support/harness.js';
import { storeOriginPass, storeShieldPass } from '../support/page-store.js';

const dir = mkdtempSync(join(tmpdir(), 'edgelog-compact-cli-'));
const DAY = '2026-11-20';
const at = (s: number) => Date.parse(`${DAY}T00:00:00Z`) + s * 1000;

beforeAll(async () => {
  const store = await openStore({ path: join(dir, 'data', 'edgelog.db') });
  const now = Date.now();
  const origin = { source: 'origin' as const, zone: 101, day: DAY };
  const entries = Array.from({ length: 1500 }, (_, i) =>
    JSON.stringify({ logId: `o${i}`, timestamp: at(i), log: `{"StatusCode":502,"RequestUrl":"/a/${i}"}` }),
  );
  await storeOriginPass(store, origin, entries, now);
  await store.ledger.finish(origin, 'values-test', 'complete', now, now);
  const shield = { source: 'shield' as const, zone: 201, day: DAY };
  await storeShieldPass(store, shield, [entries.slice(0, 700)], now);
  await store.ledger.finish(shield, 'values-test', 'complete', now, now);
  await store.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgelog compact', () => {
  it('compacts the settled days into history beside the archive and says how much', async () => {
    writeConfig(dir, { database: { path: 'data/edgelog.db' }, history: { hotDays: null } });
    const r = await runCli(['compact', '--source', 'origin'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^compacted 1 zone-day in \d+ms: 1,500 entries, 0 quarantined, [\d.]+ KiB \([\d.]+ B per entry\)\n$/,
    );
    const day = join(dir, 'data/history/origin_error_logs/zone=101/day=2026-11-20');
    expect(readdirSync(day).filter((n) => /^part-.*\.parquet$/.test(n))).toHaveLength(1);
    const json = await runCli(['compact', '--json'], { cwd: dir });
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ days: 1, entries: 700, busy: 0 });
    const again = await runCli(['compact'], { cwd: dir });
    expect(again.stdout).toBe('nothing to compact: every settled zone-day is in history\n');
  });

  it('says history is off when history.path is null, naming the setting', async () => {
    const config = writeConfig(
      dir,
      { database: { path: 'data/edgelog.db' }, history: { path: null } },
      'off.json',
    );
    const r = await runCli(['--config', config, 'compact'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/history is off \(history\.path is null\)/);
  });

  it('names history.path when its directory cannot be made', async () => {
    writeFileSync(join(dir, 'locked'), 'a file in the way');
    const config = writeConfig(
      dir,
      { database: { path: 'data/edgelog.db' }, history: { path: 'locked/history' } },
      'locked.json',
    );
    const r = await runCli(['--config', config, 'compact'], { cwd: dir });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/history directory .*locked\/history \(history\.path\) cannot be written/);
  });
});

describe('edgelog compact --verify', () => {
  const home = mkdtempSync(join(tmpdir(), 'edgelog-verify-cli-'));
  // The real clock: compact judges days against now. Both days are settled and past hotDays 0.
  const lost = addDays(dayOf(Date.now()), -10);
  const kept = addDays(dayOf(Date.now()), -9);
  const partsDir = (day: string) => join(home, `data/history/origin_error_logs/zone=101/day=${day}`);

  beforeAll(async () => {
    const store = await openStore({ path: join(home, 'data', 'edgelog.db') });
    const now = Date.now();
    for (const [day, n] of [
      [lost, 40],
      [kept, 25],
    ] as const) {
      const key = { source: 'origin' as const, zone: 101, day };
      const start = Date.parse(`${day}T00:00:00Z`);
      const entries = Array.from({ length: n }, (_, i) =>
        JSON.stringify({ logId: `${day}-${i}`, timestamp: start + i * 1000, log: '{"StatusCode":502}' }),
      );
      await storeOriginPass(store, key, entries, now);
      await store.ledger.finish(key, 'values-test', 'complete', now, now);
    }
    await store.close();
    writeConfig(home, {
      database: { path: 'data/edgelog.db' },
      history: { hotDays: 0 },
      redis: { url: redisUrl(), prefix: 'verify-cli', embedded: false },
      log: { level: 'silent' },
    });
    const r = await runCli(['compact'], { cwd: home });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^pruned 2 zone-days from the store: 65 entries/m);
  });
  afterAll(() => rmSync(home, { recursive: true, force: true }));

  it('names the pruned day whose part is gone and its lost entries, exits 1, and counts them once', async () => {
    const [part, ...others] = readdirSync(partsDir(lost));
    expect(others).toEqual([]);
    rmSync(join(partsDir(lost), part!));
    const keptParts = readdirSync(partsDir(kept));
    const before = await runCli(['status'], { cwd: home });
    expect(before.code).toBe(1);
    expect(before.stdout).toContain(
      `history: MISSING the part of origin zone 101 ${lost} (40 entries, pruned from the store: no reader returns them)`,
    );

    const r = await runCli(['compact', '--verify'], { cwd: home });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      'verified 1 parts of 2 zone-days: 1 not as recorded\n' +
        `  origin_error_logs zone 101 ${lost} (${part}): missing, ${part} is gone: ` +
        'LOST: 40 entries of this pruned day are gone\n' +
        '40 archived entries are lost in all (history_days.lost_entries)\n' +
        'nothing to compact: every settled zone-day is in history\n',
    );
    expect(readdirSync(partsDir(kept))).toEqual(keptParts);

    // status tells the loss, in its exit status too.
    const status = await runCli(['status'], { cwd: home });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain(
      `history: LOST 40 entries of origin zone 101 ${lost} (a damaged part of a pruned day)`,
    );
    expect(status.stdout).not.toContain('MISSING');
    const json = JSON.parse((await runCli(['status', '--json'], { cwd: home })).stdout) as {
      history: { lostEntries: number; issues: unknown[] };
    };
    expect(json.history).toMatchObject({
      lostEntries: 40,
      issues: [{ source: 'origin', zone: 101, day: lost, issue: 'lost', entries: 40, pruned: true }],
    });

    // A second run finds nothing new: the loss is told again in all, not counted again, and its exit
    // status is still 1, as status's is, while the archive has lost entries (issue 27: never silently).
    const again = await runCli(['compact', '--verify', '--json'], { cwd: home });
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toMatchObject({
      verify: { days: 2, parts: 1, findings: [], lost: 0, lostInAll: json.history.lostEntries },
    });
    const text = await runCli(['compact', '--verify'], { cwd: home });
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(
      /^verified 1 parts of 2 zone-days: all as recorded\n40 archived entries are lost in all/,
    );
    // A plain compact (no --verify) checks nothing and says nothing of it: its exit status is its own pass's.
    expect((await runCli(['compact'], { cwd: home })).code).toBe(0);
  });
});
