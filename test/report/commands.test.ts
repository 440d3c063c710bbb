import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queryCommand } from '../../src/commands/query.js';
import { reportCommand } from '../../src/commands/report.js';
import { QueryTimeoutError } from '../../src/query/query-timeout-error.js';
import { fillOrigin } from './dataset.js';
import { memoryStdout, tempArchive, type TempArchive } from './fixture.js';

let t: TempArchive;
let config: string;

beforeEach(() => {
  t = tempArchive();
  fillOrigin(t.archive);
  void t.archive.close(); // no background thread here: closes at once
  config = join(t.dir, 'edgelog.config.json');
  writeFileSync(config, JSON.stringify({ database: { path: t.path } }));
});

afterEach(() => t.cleanup());

/** The commands as cli.ts mounts them, with the global --config option. */
async function edgelog(command: Command, ...args: string[]): Promise<void> {
  const program = new Command('edgelog')
    .option('-c, --config <file>')
    .option('--log-level <level>')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  program.addCommand(command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} }));
  await program.parseAsync(['node', 'edgelog', '-c', config, '--log-level', 'silent', ...args]);
}

describe('edgelog query', () => {
  it('reads the configured archive and writes the result to stdout', async () => {
    const stdout = memoryStdout();
    await edgelog(
      queryCommand(stdout),
      'query',
      'SELECT pull_zone_id AS zone, count(*) AS n FROM origin_error_logs GROUP BY zone ORDER BY zone',
      '--format',
      'csv',
    );
    expect(stdout.text()).toBe('zone,n\r\n101,10\r\n202,2\r\n');
  });

  it('--limit caps the table', async () => {
    const stdout = memoryStdout();
    await edgelog(
      queryCommand(stdout),
      'query',
      'SELECT n FROM range(1, 10) AS t(n) ORDER BY n',
      '--limit',
      '2',
    );
    expect(stdout.text()).toBe(
      'n\n1\n2\n(the first 2 rows shown; there are more: raise --limit, or use --format csv|ndjson|json for all)\n',
    );
  });

  it('a refused statement rejects (the CLI prints it and exits 1) and writes nothing', async () => {
    const stdout = memoryStdout();
    await expect(edgelog(queryCommand(stdout), 'query', 'DELETE FROM origin_error_logs')).rejects.toThrow(
      'query refused: edgelog query runs one SELECT statement (the archive is read-only)',
    );
    expect(stdout.text()).toBe('');
  });

  // (The store engine's statement stuck in one SQLite step is stopped by the watchdog thread, which
  // kills the process: that one is tested from outside, in test/e2e/query-timeout.test.ts.)
  it('--timeout stops a runaway result between rows: the CLI prints one line and exits 1', async () => {
    const stdout = memoryStdout();
    const endless = 'SELECT x FROM range(1, 100000000000000) AS t(x)';
    await expect(
      edgelog(queryCommand(stdout), 'query', endless, '--format', 'csv', '--timeout', '1s'),
    ).rejects.toThrow(new QueryTimeoutError(1000, true));
    expect(stdout.text().startsWith('x\r\n1\r\n2\r\n')).toBe(true);
  });

  it.each(['0', '0s', '90s', '10m'])('--timeout %s is a duration (0: no bound)', async (timeout) => {
    const stdout = memoryStdout();
    await edgelog(queryCommand(stdout), 'query', 'SELECT 1 AS one', '--format', 'csv', '--timeout', timeout);
    expect(stdout.text()).toBe('one\r\n1\r\n');
  });

  it('--timeout without a unit is refused', async () => {
    await expect(
      edgelog(queryCommand(memoryStdout()), 'query', 'SELECT 1', '--timeout', '30'),
    ).rejects.toThrow(/expected a duration such as 500ms, 30s, 15m, 1h/);
  });

  it('rejects an unknown format before opening anything', async () => {
    await expect(
      edgelog(queryCommand(memoryStdout()), 'query', 'SELECT 1', '--format', 'xml'),
    ).rejects.toThrow(/Allowed choices are table, json, ndjson, csv/);
  });
});

describe('edgelog report', () => {
  it('origin as a table, with a fixed clock', async () => {
    const stdout = memoryStdout();
    const now = () => Date.parse('2024-10-15T20:00:00Z');
    await edgelog(reportCommand(stdout, now), 'report', 'origin', '--zone', '202', '--from', '2024-10-15');
    expect(stdout.text()).toContain(
      'origin errors · zone 202 · 2024-10-15 (1 UTC day)\ntotal: 2 errors in 1 zone',
    );
  });

  it('--format json', async () => {
    const stdout = memoryStdout();
    await edgelog(
      reportCommand(stdout),
      'report',
      'origin',
      '--from',
      '2024-10-14',
      '--to',
      '2024-10-15',
      '--format',
      'json',
      '--top',
      '1',
    );
    const data = JSON.parse(stdout.text()) as { total: number; statusCodes: unknown[] };
    expect(data.total).toBe(10);
    expect(data.statusCodes).toEqual([{ key: 502, count: 3 }]);
  });

  it.each([
    [['report', 'nginx'], /Allowed choices are origin, shield, guardian/],
    [['report', 'origin', '--from', '2024-13-01'], /not a real calendar day/],
    [['report', 'origin', '--top', '0'], /expected a positive integer/],
    [
      ['report', 'origin', '--from', '2024-10-15', '--to', '2024-10-01'],
      /--from 2024-10-15 is after --to 2024-10-01/,
    ],
  ])('refuses %j', async (args, message) => {
    await expect(edgelog(reportCommand(memoryStdout()), ...args)).rejects.toThrow(message);
  });
});
