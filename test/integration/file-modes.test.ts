// Shield entries hold request headers and bodies: no file edgelog writes may be readable by every user
// of the host, whatever the umask (022, a login shell's usual one, here). The archive, its -wal and
// -shm, and the directories made for it are for the owner and the group (0640/0750: a group member may
// run `edgelog query`); a backup keeps its source's mode, and is written under a temporary name only the
// owner can read; the embedded Redis's directory (its AOF holds the queue) is the owner's alone (0700).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { dayDir } from '../../src/history/layout.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { backupArchive, temporaryName } from '../../src/store/sqlite/backup.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { runCli } from '../support/cli.js';
import { compactArchive } from '../support/history-files.js';

const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

let dir: string;
let previous: number;
const redis: EmbeddedRedis[] = [];
beforeAll(() => {
  previous = process.umask(0o022);
});
afterAll(() => {
  process.umask(previous);
});
afterEach(async () => {
  for (const r of redis.splice(0)) await r.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('files edgelog writes, under umask 022', () => {
  it('the archive, its -wal and -shm, and the directory made for it are not world-readable', () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
    const path = join(dir, 'data', 'edgelog.db');
    const db = openDatabase(path);
    try {
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
      expect([mode(join(dir, 'data')), mode(path), mode(`${path}-wal`), mode(`${path}-shm`)]).toEqual([
        '750',
        '640',
        '640',
        '640',
      ]);
    } finally {
      db.close();
    }
  });

  it('an archive that exists keeps the mode its owner gave it', () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
    const path = join(dir, 'edgelog.db');
    openDatabase(path).close();
    chmodSync(path, 0o600);
    const db = openDatabase(path);
    try {
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
      expect([mode(path), mode(`${path}-wal`)]).toEqual(['600', '600']);
    } finally {
      db.close();
    }
  });

  it.each(['600', '640'])(
    'a backup of a %s archive has its mode, and its partial file is private',
    async (text) => {
      const m = parseInt(text, 8);
      dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
      const source = join(dir, 'edgelog.db');
      const db = openDatabase(source);
      db.exec(`CREATE TABLE t (x);
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
      INSERT INTO t SELECT randomblob(4000) FROM n`);
      db.close();
      chmodSync(source, m);
      const dest = join(dir, 'copy.db');
      const partial: string[] = [];
      await backupArchive(source, dest, {
        pagesPerStep: 16,
        onProgress: () => void partial.push(mode(temporaryName(dest))),
      });
      expect(mode(dest)).toBe(m.toString(8));
      expect(partial.length).toBeGreaterThan(1);
      expect(new Set(partial)).toEqual(new Set(['600']));
    },
  );

  it("the embedded Redis's directory is the owner's alone, the data directory above it 0750", async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
    const data = join(dir, 'data');
    const server = await startRedisServer({ dir: join(data, 'redis'), persistent: true, unixSocket: true });
    redis.push(server);
    expect([mode(data), mode(join(data, 'redis'))]).toEqual(['750', '700']);
  });

  it('`edgelog migrate` and `edgelog backup` as a user with umask 022 runs them', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
    const env = { EDGELOG_DB: 'var/edgelog.db' };
    const migrated = await runCli(['migrate'], { cwd: dir, env, umask: 0o022 });
    expect(migrated.code).toBe(0);
    expect([mode(join(dir, 'var')), mode(join(dir, 'var/edgelog.db'))]).toEqual(['750', '640']);
    chmodSync(join(dir, 'var/edgelog.db'), 0o600);
    const backup = await runCli(['backup', 'copy.db'], { cwd: dir, env, umask: 0o022 });
    expect(backup.code).toBe(0);
    expect(mode(join(dir, 'copy.db'))).toBe('600');
  });

  // Parts and markers were 0644 and the folders made for them 0755; the day's raw rows (`*.rows`) and
  // keys lay beside the part being written, 0644.
  it('the history: parts 0640 in 0750 folders, temporary files in a folder only the owner enters', async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-modes-'));
    const dbPath = join(dir, 'edgelog.db');
    const root = join(dir, 'history');
    const day = '2026-11-20';
    // A history folder open to all (the README's shared layout), and a day folder an earlier edgelog made so.
    mkdirSync(root, { mode: 0o755 });
    const earlier = dayDir(root, 'origin_error_logs', 7, day);
    mkdirSync(earlier, { recursive: true, mode: 0o755 });
    chmodSync(join(root, 'origin_error_logs'), 0o755);
    chmodSync(join(root, 'origin_error_logs', 'zone=7'), 0o755);
    await openArchive(dbPath).close();
    const db = openDatabase(dbPath);
    const insert = db.prepare(
      `INSERT INTO origin_error_logs (pull_zone_id, log_id, log_date, timestamp, request_url) VALUES (?, ?, ?, ?, '/x')`,
    );
    for (const zone of [7, 8])
      for (let i = 0; i < 20; i++) insert.run(zone, `${zone}-${i}`, day, Date.parse(`${day}T01:00:00Z`) + i);
    db.close();
    const walk = (at: string): Array<[string, string]> =>
      readdirSync(at, { withFileTypes: true }).flatMap((e) => {
        const path = join(at, e.name);
        const entry: [string, string] = [path.slice(root.length + 1), mode(path)];
        return e.isDirectory() ? [entry, ...walk(path)] : [entry];
      });
    const whilePublishing: Array<[string, string]> = [];
    const pass = await compactArchive(
      { dir, dbPath, databaseUrl: undefined },
      () => Date.parse('2026-11-28T00:00:00Z'),
      {
        root,
        hotDays: 0,
        tune: (deps) => {
          deps.hooks = { beforePublish: () => void whilePublishing.push(...walk(root)) };
        },
      },
    );
    expect(pass.failed).toEqual([]);
    // While a part is written: its temporary files only in a folder of the owner's.
    const temps = whilePublishing.filter(([p]) => p.includes('.tmp-'));
    expect(temps.length).toBeGreaterThan(0);
    for (const [p, m] of temps) {
      const inside = p.slice(p.indexOf('.tmp-')).includes('/');
      if (!inside) expect([p, m]).toEqual([p, '700']);
    }
    // Afterwards: no temporary file; parts and markers 0640; the folders made 0750 (0700 the scratch); the
    // folders that were there keep their mode.
    const after = walk(root);
    expect(after.filter(([p]) => p.includes('.tmp-'))).toEqual([]);
    const kept = new Set([
      'origin_error_logs',
      'origin_error_logs/zone=7',
      'origin_error_logs/zone=7/day=2026-11-20',
    ]);
    for (const [p, m] of after) {
      const isDir = statSync(join(root, p)).isDirectory();
      const want = kept.has(p) ? '755' : isDir ? (p.startsWith('.') ? '700' : '750') : '640';
      expect([p, m]).toEqual([p, want]);
    }
    expect(after.filter(([p]) => p.endsWith('.parquet')).length).toBe(2);
  });

  it('the systemd unit starts edgelog with UMask=0027 and its state directory 0750', () => {
    const unit = readFileSync(new URL('../../deploy/edgelog.service', import.meta.url), 'utf8');
    expect(unit).toMatch(/^UMask=0027$/m);
    expect(unit).toMatch(/^StateDirectoryMode=0750$/m);
  });
});
