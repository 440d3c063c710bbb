// `edgelog query` on a runaway statement, as a user runs it: bounded by --limit and --timeout.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/store/archive.js';
import { runCli, startCli, writeConfig } from '../support/cli.js';

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c';
let dir: string;
let config: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-timeout-'));
  const path = join(dir, 'archive.db');
  await openArchive(path).close();
  config = writeConfig(dir, { database: { path } });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function query(...args: string[]) {
  const started = performance.now();
  const r = await runCli(['-c', config, 'query', ...args], { cwd: dir });
  return { ...r, seconds: (performance.now() - started) / 1000 };
}

describe('edgelog query on an endless result', () => {
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

  it('a statement that never yields a row stops at --timeout, exit 1, one line', async () => {
    const r = await query(`SELECT count(*) FROM (${ENDLESS})`, '--timeout', '1s');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'edgelog: query stopped after 1s (--timeout): narrow it (a WHERE on log_date or timestamp, a LIMIT), or raise --timeout (0 for no bound)\n',
    );
    expect(r.seconds).toBeLessThan(10);
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

  it('a signal sent to the CLI alone stops the query process with it', async () => {
    const { child, done } = startCli(['-c', config, 'query', `SELECT count(*) FROM (${ENDLESS})`], {
      cwd: dir,
    });
    const children = `/proc/${child.pid}/task/${child.pid}/children`;
    let queryPid = 0;
    while (queryPid === 0) {
      await sleep(50);
      queryPid = Number(readFileSync(children, 'utf8').trim().split(' ')[0] || 0);
    }
    // Running (R) or gone, or a zombie waiting for init: not running.
    const state = () => {
      try {
        return readFileSync(`/proc/${queryPid}/stat`, 'utf8').split(') ')[1]![0];
      } catch {
        return 'gone';
      }
    };
    try {
      await sleep(300); // into its statement
      expect(state()).toMatch(/[RS]/);
      child.kill('SIGTERM');
      expect((await done).signal).toBe('SIGTERM');
      await expect.poll(state, { timeout: 5000 }).toMatch(/^(gone|Z)$/);
    } finally {
      if (state() !== 'gone') process.kill(queryPid, 'SIGKILL');
    }
  });
});
