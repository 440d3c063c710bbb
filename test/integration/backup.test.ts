// The online backup while another process keeps writing: the copy is one consistent snapshot.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backupArchive, type BackupProgress } from '../../src/store/sqlite/backup.js';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { openDatabase } from '../../src/store/sqlite/database.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const HOUR = Date.UTC(2026, 10, 20, 10);

// One page as ingestion commits it: the entries, the hourly rollup and the ledger, in one transaction.
// Run by the writer process (plain JS, so no build step) and, for the seed, by this one.
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('busy_timeout = 5000');
const insert = db.prepare(\`INSERT INTO shield_event_logs (shield_zone_id, log_id, log_date, timestamp,
  rule_id, severity, status, message, log) VALUES (201, ?, '2026-11-20', ?, '942100', 'critical', 'blocked', ?, ?)\`);
const rollup = db.prepare(\`INSERT INTO shield_hourly VALUES (201, ${HOUR}, '942100', 'critical', 'blocked', ?)
  ON CONFLICT DO UPDATE SET count = count + excluded.count\`);
const ledger = db.prepare(\`INSERT INTO ingest_ledger (source, zone_id, log_date, state, entries, new_entries, pages, updated_at)
  VALUES ('shield', 201, '2026-11-20', 'running', @n, @n, 1, 0)
  ON CONFLICT DO UPDATE SET entries = entries + @n, new_entries = new_entries + @n, pages = pages + 1\`);
const page = db.transaction((first, n) => {
  for (let i = 0; i < n; i++) insert.run('id-' + (first + i), ${HOUR} + first + i, 'SQL injection attempt', 'x'.repeat(300));
  rollup.run(n);
  ledger.run({ n });
});
const pages = Number(process.argv[2]);
const size = Number(process.argv[3]);
let next = Number(process.argv[4]);
let done = 0;
(function loop() {
  page(next, size);
  next += size;
  if (++done === 1) process.stdout.write('writing\\n');
  if (done < pages) setImmediate(loop);
  else process.exit(0);
})();
`;

function writer(path: string, pages: number, size: number, first: number): ChildProcess {
  return spawn(process.execPath, ['-e', WRITER, path, String(pages), String(size), String(first)], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve(child.exitCode)
    : new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

let dir: string;
let source: string;
let child: ChildProcess | undefined;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-backup-'));
  source = join(dir, 'archive.db');
  await openArchive(source).close();
  // About 10 MB to copy, so the backup takes many steps.
  expect(await exited(writer(source, 100, 300, 0))).toBe(0);
});

afterEach(async () => {
  if (child) {
    child.kill('SIGKILL');
    await exited(child);
    child = undefined;
  }
  rmSync(dir, { recursive: true, force: true });
});

function counts(path: string): { rows: number; ledger: number; rollup: number; integrity: string } {
  const db = openDatabase(path, { readonly: true });
  try {
    return {
      rows: db.prepare('SELECT count(*) FROM shield_event_logs').pluck().get() as number,
      ledger: db.prepare('SELECT new_entries FROM ingest_ledger').pluck().get() as number,
      rollup: db.prepare('SELECT sum(count) FROM shield_hourly').pluck().get() as number,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}

describe('backupArchive', () => {
  it('copies one consistent snapshot while another process commits pages', async () => {
    child = writer(source, 100_000, 50, 1_000_000);
    await new Promise<void>((resolve) => child!.stdout!.once('data', () => resolve()));
    const before = counts(source).rows;
    const steps: BackupProgress[] = [];
    // Small steps, so that the writer commits many times between the first page copied and the last.
    const copy = join(dir, 'copy.db');
    const result = await backupArchive(source, copy, {
      pagesPerStep: 16,
      onProgress: (p) => steps.push(p),
    });
    const after = counts(source).rows;
    child.kill('SIGKILL');
    await exited(child);

    expect(after).toBeGreaterThan(before); // the writer did write during the copy
    const copied = counts(copy);
    expect(copied.integrity).toBe('ok');
    expect(copied.rows).toBeGreaterThanOrEqual(before);
    expect(copied.rows).toBeLessThanOrEqual(after);
    // The ledger and the rollup count exactly the rows the copy holds: no page is torn.
    expect(copied.ledger).toBe(copied.rows);
    expect(copied.rollup).toBe(copied.rows);
    expect(result).toMatchObject({ path: copy, pages: steps[0]!.totalPages });
    expect(result.bytes).toBe(steps[0]!.totalPages * steps[0]!.pageSize);
    expect(steps.length).toBeGreaterThan(20);
    // Never restarted: the snapshot's size is fixed and the pages left only go down.
    expect(new Set(steps.map((s) => s.totalPages)).size).toBe(1);
    for (let i = 1; i < steps.length; i++)
      expect(steps[i]!.remainingPages).toBeLessThan(steps[i - 1]!.remainingPages);
    // The temporary file is gone.
    expect(readdirSync(dir).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('leaves no file behind when aborted', async () => {
    const controller = new AbortController();
    const copy = join(dir, 'copy.db');
    await expect(
      backupArchive(source, copy, {
        pagesPerStep: 8,
        signal: controller.signal,
        onProgress: () => controller.abort(new Error('stop here')),
      }),
    ).rejects.toThrow('stop here');
    expect(existsSync(copy)).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.copy.db'))).toEqual([]);
  });

  it('refuses to copy the archive onto itself', async () => {
    await expect(backupArchive(source, source)).rejects.toThrow('onto itself');
  });

  it('names a missing directory', async () => {
    await expect(backupArchive(source, join(dir, 'nosuch', 'copy.db'))).rejects.toThrow(
      `cannot write ${join(dir, 'nosuch', 'copy.db')}: the directory ${join(dir, 'nosuch')} does not exist`,
    );
  });
});
