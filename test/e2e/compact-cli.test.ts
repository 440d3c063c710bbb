// `edgelog compact` as a user runs it: the summary (entries, bytes, bytes per entry), --json, the files
// in history.path, and clear errors when history is off or its directory cannot be written.
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open-store.js';
import { runCli, writeConfig } from '../support/cli.js';
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
