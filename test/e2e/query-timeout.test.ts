// `edgelog query` on a runaway statement, as a user runs it: bounded by --limit and --timeout. The store's
// own engine on SQLite (--engine store: a statement inside one SQLite step cannot be interrupted from the
// main thread), and the archive's dialect (DuckDB, interrupted from outside).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { spawn } from 'node:child_process';
import { waitFor } from '../fault/lib/wait.js';
import { BIN, childEnv, runCli, startCli, writeConfig } from '../support/cli.js';
import { hasOpen } from '../support/open-files.js';

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';
let dir: string;
let archive: string;
let config: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-timeout-'));
  archive = join(dir, 'archive.db');
  await openArchive(archive).close();
  config = writeConfig(dir, { database: { path: archive } });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command line in bash (not interactive), as a script would. */
function runShell(line: string, cwd: string): Promise<{ stdout: string; stderr: string }> {
  const child = spawn('bash', ['-c', line], { cwd, env: childEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', () => resolve({ stdout, stderr })));
}

async function query(...args: string[]) {
  const started = performance.now();
  const r = await runCli(['-c', config, 'query', '--engine', 'store', ...args], { cwd: dir });
  return { ...r, seconds: (performance.now() - started) / 1000 };
}

describe("edgelog query in the archive's dialect on a runaway statement", () => {
  it('stops at --timeout with one line and exit status 1 (DuckDB is interrupted)', async () => {
    const started = performance.now();
    const r = await runCli(
      ['-c', config, 'query', 'SELECT count(*) FROM range(10000000000000)', '--timeout', '1s'],
      {
        cwd: dir,
      },
    );
    const seconds = (performance.now() - started) / 1000;
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^edgelog: query stopped after 1s \(--timeout\)/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(seconds).toBeLessThan(10);
  });
});

describe('edgelog query --engine store on an endless result', () => {
  it('table: the first 1,000 rows and a footer, at once', async () => {
    const r = await query(ENDLESS);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(1002); // header, 1,000 rows, footer
    expect(lines.at(-1)).toBe(
      '(the first 1,000 rows shown; there are more: raise --limit, or use --format csv|ndjson|json for all)',
    );
  });

  // Stuck inside one SQLite step, nothing in the main thread runs (better-sqlite3 has no interrupt, and
  // its SQLite is built without the progress callback): the watchdog thread says so and interrupts the
  // process, which ends as a Ctrl-C would — exit status 130, nothing more printed by the shell.
  it('a statement that never yields a row stops at --timeout, with one line', async () => {
    const r = await query(`SELECT count(*) FROM (${ENDLESS})`, '--timeout', '1s');
    expect(r.signal).toBe('SIGINT');
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'edgelog: query stopped after 1s (--timeout): narrow it (a WHERE on log_date or timestamp, a LIMIT), or raise --timeout (0 for no bound)\n',
    );
    expect(r.seconds).toBeGreaterThanOrEqual(1);
    expect(r.seconds).toBeLessThan(10);
  });

  it('…and in a shell, the message is the last line: no "Killed", exit status 130', async () => {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const cli = [
      process.execPath,
      BIN,
      '-c',
      config,
      'query',
      '--engine',
      'store',
      `SELECT count(*) FROM (${ENDLESS})`,
      '--timeout',
      '1s',
    ];
    const r = await runShell(`${cli.map(quote).join(' ')}; echo "exit status $?"`, dir);
    expect(r.stdout).toBe('exit status 130\n');
    expect(r.stderr).toBe(
      'edgelog: query stopped after 1s (--timeout): narrow it (a WHERE on log_date or timestamp, a LIMIT), or raise --timeout (0 for no bound)\n',
    );
  });

  it('csv streams until --timeout, then says the output is incomplete', async () => {
    const r = await query(ENDLESS, '--format', 'csv', '--timeout', '1s');
    expect(r.code).toBe(1);
    expect(r.stdout.startsWith('x\r\n1\r\n2\r\n')).toBe(true);
    expect(r.stderr).toMatch(
      /^edgelog: query stopped after 1s \(--timeout\); the output above is incomplete: /,
    );
    expect(r.seconds).toBeLessThan(10);
  });

  // The signal must come while the statement runs, not while Node still loads the CLI (where the
  // default action ends any process): from opening the archive to stepping the statement the CLI runs
  // without yielding, so once the file is open it is in its statement, whatever the machine's load.
  // A handler that only asked for a stop could never run there: the process would go on until the
  // watchdog's SIGKILL at --timeout.
  it('a signal stops a query stuck in its statement (it runs in the CLI process itself)', async () => {
    const sql = `SELECT count(*) FROM (${ENDLESS})`;
    // Within the test's own time: a signal that did not stop it would meet the watchdog's SIGKILL.
    const { child, done } = startCli(['-c', config, 'query', '--engine', 'store', sql, '--timeout', '20s'], {
      cwd: dir,
    });
    await waitFor('the query to open the archive', () => (hasOpen(child.pid!, archive) ? true : undefined), {
      timeoutMs: 20_000,
      everyMs: 10,
    });
    child.kill('SIGTERM');
    const result = await done;
    expect(result.signal).toBe('SIGTERM');
    expect(result.stdout).toBe('');
  });
});
