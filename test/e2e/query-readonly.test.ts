// `edgelog query` and `edgelog report` as an analyst runs them: a user who may read the archive and its
// directory, not write them. Root ignores file permissions, so as root the CLI runs as `nobody`.
import { chmodSync, chownSync, copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openArchive, type Archive } from '../../src/store/sqlite/archive.js';
import { NOBODY_SKIP, runCliAsNobody, writeConfig } from '../support/cli.js';
import { fillOrigin } from '../report/dataset.js';
import { originEntry, storeOrigin } from '../report/fixture.js';

const dirs: string[] = [];
const writers: Archive[] = [];
afterEach(async () => {
  for (const w of writers.splice(0)) await w.close();
  for (const dir of dirs.splice(0)) {
    chmodSync(dir, 0o755);
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A directory holding an archive and a configuration naming it. */
function archiveDir(): { dir: string; path: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-readonly-'));
  dirs.push(dir);
  const path = join(dir, 'archive.db');
  return { dir, path, config: writeConfig(dir, { database: { path } }) };
}

/** What the analyst may do: read and enter the directory, read the files. */
function readOnly(dir: string, ...files: string[]): void {
  for (const f of files) chmodSync(join(dir, f), 0o444);
  chmodSync(dir, 0o555);
}

const COUNT = 'SELECT count(*) AS n FROM origin_error_logs';

describe.skipIf(NOBODY_SKIP !== '')(
  `edgelog query by a user who may only read the archive ${NOBODY_SKIP}`,
  () => {
    it('reads an archive no one has open, creates nothing beside it; reports too', async () => {
      const { dir, config } = archiveDir();
      const archive = openArchive(join(dir, 'archive.db'));
      fillOrigin(archive);
      await archive.close(); // the WAL is folded into the file; -wal and -shm are gone
      readOnly(dir, 'archive.db', 'edgelog.config.json');
      const before = readdirSync(dir).sort();
      expect(before).toEqual(['archive.db', 'edgelog.config.json']);

      const q = await runCliAsNobody(['-c', config, 'query', COUNT, '--format', 'ndjson'], dir);
      expect(q.stderr).toBe('');
      expect(q.stdout).toBe('{"n":12}\n');
      expect(q.code).toBe(0);
      const args = ['-c', config, 'report', 'origin', '--from', '2024-10-14', '--to', '2024-10-15'];
      const r = await runCliAsNobody([...args, '--format', 'json'], dir);
      expect(r.stderr).toBe('');
      expect((JSON.parse(r.stdout) as { total: number }).total).toBe(10);
      expect(readdirSync(dir).sort()).toEqual(before);
    });

    it('reads a live archive through its -wal and -shm, commits not yet in the file included', async () => {
      const { dir, path, config } = archiveDir();
      const writer = openArchive(path);
      writers.push(writer);
      fillOrigin(writer);
      storeOrigin(writer, 303, [originEntry('2024-10-15T13:00:00Z', { status: 500 })]);
      expect(statSync(`${path}-wal`).size).toBeGreaterThan(0);
      // The worker's files stay as it made them (0640, root's); the analyst is in their group, as the
      // README says (as root, nobody's group; as another user, the files are theirs anyway).
      if (process.getuid?.() === 0)
        for (const f of [path, `${path}-wal`, `${path}-shm`]) chownSync(f, 0, 65534);
      readOnly(dir, 'edgelog.config.json');
      const q = await runCliAsNobody(['-c', config, 'query', COUNT, '--format', 'csv'], dir);
      expect(q.stderr).toBe('');
      expect(q.stdout).toBe('n\r\n13\r\n');
    });

    it('refuses, saying why, a -wal holding commits whose -shm it may not create', async () => {
      const live = archiveDir();
      const writer = openArchive(live.path);
      writers.push(writer);
      fillOrigin(writer);
      // A copy of the file and its log without the index beside them (e.g. a backup that skipped -shm).
      const { dir, path, config } = archiveDir();
      copyFileSync(live.path, path);
      copyFileSync(`${live.path}-wal`, `${path}-wal`);
      readOnly(dir, 'archive.db', 'archive.db-wal', 'edgelog.config.json');
      const q = await runCliAsNobody(['-c', config, 'query', COUNT], dir);
      expect(q.code).toBe(1);
      expect(q.stdout).toBe('');
      expect(q.stderr).toBe(
        `edgelog: cannot open the database ${path}: its write-ahead log ${path}-wal holds commits, ` +
          `reading it needs ${path}-shm, which is missing, and this user may not create it in the directory; ` +
          'let the archive owner run `edgelog migrate` once (closing the archive folds the log into the file), ' +
          'or grant write permission on the directory\n',
      );
      expect(readdirSync(dir).sort()).toEqual(['archive.db', 'archive.db-wal', 'edgelog.config.json']);
    });

    it('an archive it may not read: one clear line, never "unexpected error"', async () => {
      const { dir, path, config } = archiveDir();
      await openArchive(path).close();
      chmodSync(path, 0o600);
      readOnly(dir, 'edgelog.config.json');
      const q = await runCliAsNobody(['-c', config, 'query', COUNT], dir);
      expect(q.code).toBe(1);
      expect(q.stderr).toBe(
        `edgelog: cannot open the database ${path}: this user may not read it (it needs read permission on the file)\n`,
      );
    });
  },
);
