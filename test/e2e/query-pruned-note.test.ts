// `edgelog query --engine store` reads the store alone: when days were pruned into the history it says
// so on stderr (how many, from which day to which), and nothing when none was; on SQLite the note comes
// from the statement's own read-only connection.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, expect, it } from 'vitest';
import { queryCommand } from '../../src/commands/query.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { memoryStdout } from '../report/fixture.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** A SQLite archive whose history_days hold `days` (pruned when `pruned`), and its config file. */
async function archiveWith(days: Array<{ day: string; pruned: boolean }>): Promise<string> {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-pruned-note-'));
  const path = join(dir, 'archive.db');
  const archive = openArchive(path);
  const insert = archive.db.prepare(
    `INSERT INTO history_days (source, zone_id, log_date, entries, compacted_at, pruned_at)
     VALUES ('origin', 101, ?, 10, 1, ?)`,
  );
  for (const d of days) insert.run(d.day, d.pruned ? 2 : null);
  await archive.close();
  const config = join(dir, 'edgelog.config.json');
  writeFileSync(config, JSON.stringify({ database: { path } }));
  return config;
}

async function storeQuery(config: string): Promise<{ out: string; notes: string[] }> {
  const stdout = memoryStdout();
  const notes: string[] = [];
  const program = new Command('edgelog').option('-c, --config <file>').exitOverride();
  program.addCommand(queryCommand(stdout, (line) => void notes.push(line)).exitOverride());
  await program.parseAsync([
    'node',
    'edgelog',
    '-c',
    config,
    'query',
    '--engine',
    'store',
    '--format',
    'csv',
    'SELECT 1 AS one',
  ]);
  return { out: stdout.text(), notes };
}

it('tells of the pruned days, and only of those', async () => {
  const config = await archiveWith([
    { day: '2026-11-20', pruned: true },
    { day: '2026-11-22', pruned: true },
    { day: '2026-11-23', pruned: false },
  ]);
  const { out, notes } = await storeQuery(config);
  expect(out).toBe('one\r\n1\r\n'); // CSV's record ends (RFC 4180)
  expect(notes).toEqual([
    'edgelog: note: --engine store reads the store alone: 2 day(s) from 2026-11-20 to 2026-11-22 were pruned into the history and are not in it (the default engine reads them)\n',
  ]);
});

it('says nothing when no day was pruned', async () => {
  const { out, notes } = await storeQuery(await archiveWith([{ day: '2026-11-23', pruned: false }]));
  expect(out).toBe('one\r\n1\r\n'); // CSV's record ends (RFC 4180)
  expect(notes).toEqual([]);
});
