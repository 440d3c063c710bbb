// Shield entries hold request headers and bodies: no file edgelog writes may be readable by every user
// of the host, whatever the umask (022, a login shell's usual one, here). The archive, its -wal and
// -shm, and the directories made for it are for the owner and the group (0640/0750: a group member may
// run `edgelog query`); a backup keeps its source's mode, and is written under a temporary name only the
// owner can read; the embedded Redis's directory (its AOF holds the queue) is the owner's alone (0700).
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { backupArchive, temporaryName } from '../../src/store/sqlite/backup.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { runCli } from '../support/cli.js';

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

  it('the systemd unit starts edgelog with UMask=0027 and its state directory 0750', () => {
    const unit = readFileSync(new URL('../../deploy/edgelog.service', import.meta.url), 'utf8');
    expect(unit).toMatch(/^UMask=0027$/m);
    expect(unit).toMatch(/^StateDirectoryMode=0750$/m);
  });
});
