// `edgelog backup <file>` as a user runs it: the final line, no overwrite without --force, no progress
// when stderr is not a terminal.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'edgelog-backup-cli-'));
const env = { EDGELOG_DB: join(dir, 'archive.db') };

beforeAll(async () => {
  const archive = openArchive(env.EDGELOG_DB);
  archive.db
    .prepare(
      "INSERT INTO ingest_ledger (source, zone_id, log_date, state, updated_at) VALUES ('origin', 101, '2026-11-20', 'complete', 0)",
    )
    .run();
  await archive.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('edgelog backup', () => {
  it('writes the copy and says where, how big, how long', async () => {
    const r = await runCli(['backup', 'copy.db'], { cwd: dir, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const size = statSync(join(dir, 'copy.db')).size;
    expect(r.stdout).toMatch(
      new RegExp(`^backup of .*archive\\.db written to ${join(dir, 'copy.db')}: [\\d.]+ KiB in \\d+ms\\n$`),
    );
    expect(size).toBeGreaterThan(0);
    const db = openDatabase(join(dir, 'copy.db'), { readonly: true });
    expect(db.prepare('SELECT count(*) FROM ingest_ledger').pluck().get()).toBe(1);
    db.close();
  });

  it('refuses to replace a file unless --force', async () => {
    writeFileSync(join(dir, 'taken.db'), 'not a database');
    const refused = await runCli(['backup', 'taken.db'], { cwd: dir, env });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      'edgelog: taken.db exists: choose another name, or pass --force to replace it\n',
    );
    const forced = await runCli(['backup', '--force', 'taken.db'], { cwd: dir, env });
    expect(forced.code).toBe(0);
    const db = openDatabase(join(dir, 'taken.db'), { readonly: true });
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    expect(readdirSync(dir).filter((f) => f.includes('.partial-'))).toEqual([]);
  });

  it('refuses a directory as the copy, even with --force, saying so', async () => {
    const r = await runCli(['backup', '--force', dir], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      `edgelog: ${dir} is a directory: name the file to write, e.g. ${join(dir, 'edgelog-backup.db')}\n`,
    );
  });
});
