// `edgelog sync` run by a user who may not write the archive: one line naming the file, the cause and
// the fix, before any day is fetched, and the archive left as it was. Root ignores file permissions, so
// as root the CLI runs as `nobody` (as in query-readonly.test.ts).
import { chmodSync, chownSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { NOBODY_SKIP, runCli, runCliAsNobody, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness whose directory `nobody` may enter, and a configuration for an archive in `sub`. */
async function setup(sub: string): Promise<{ hh: Harness; dir: string; path: string; config: string }> {
  const hh = await harness({ entriesPerDay: 500, pageSize: 100, now: Date.now });
  h = hh;
  chmodSync(hh.dir, 0o755);
  const dir = join(hh.dir, sub);
  mkdirSync(dir);
  const path = join(dir, 'edgelog.db');
  const config = writeConfig(hh.dir, {
    api: { ...hh.urls, accessKey: hh.sim.accessKey },
    redis: { url: redisUrl(), prefix: hh.prefix, embedded: false },
    database: { path },
    shieldZones: [201],
    log: { level: 'warn' },
  });
  return { hh, dir, path, config };
}

const yesterday = () => addDays(dayOf(Date.now()), -1);

describe.skipIf(NOBODY_SKIP !== '')(`edgelog sync on an archive it may not write ${NOBODY_SKIP}`, () => {
  it('a file it may not write: says so in one line, naming the file, and fetches nothing', async () => {
    const { hh, dir, path, config } = await setup('archive');
    expect((await runCli(['--config', config, 'migrate'], { cwd: hh.dir })).code).toBe(0); // root's, 0640
    // Readable through its group (nobody's, when root runs the tests), not writable.
    if (process.getuid?.() === 0) chownSync(path, 0, 65534);
    chmodSync(dir, 0o777); // the directory is writable: only the file is not
    const r = await runCliAsNobody(
      ['--config', config, 'sync', '--date', yesterday(), '--source', 'shield'],
      hh.dir,
    );
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `edgelog: the archive ${path} is read-only (SQLITE_READONLY: attempt to write a readonly database): ` +
        'let the user edgelog runs as write the file and its directory (SQLite keeps edgelog.db-wal and -shm ' +
        'beside it), or mount the filesystem read-write\n',
    );
    expect(r.code).toBe(1);
    const db = openDatabase(path, { readonly: true });
    expect(db.prepare('SELECT count(*) FROM ingest_ledger').pluck().get()).toBe(0);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('a directory it may not write: says so in one line, naming the file', async () => {
    const { hh, dir, path, config } = await setup('readonly-dir');
    chmodSync(dir, 0o555);
    const r = await runCliAsNobody(
      ['--config', config, 'sync', '--date', yesterday(), '--source', 'shield'],
      hh.dir,
    );
    expect(r.stderr).toBe(
      `edgelog: cannot open the archive ${path} or the edgelog.db-wal and -shm beside it ` +
        '(SQLITE_CANTOPEN: unable to open database file): check that its directory exists and that the ' +
        'user edgelog runs as may write it\n',
    );
    expect(r.code).toBe(1);
    chmodSync(dir, 0o755);
  });
});
