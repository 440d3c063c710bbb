// Tests that need a program this machine may lack (systemd-analyze, promtool, prometheus): they run
// where it is installed, and where it is not, a skipped test and a line on stderr say what to install.
import { spawnSync } from 'node:child_process';
import { describe, it } from 'vitest';

/** True when `program --version` runs. */
export function installed(program: string): boolean {
  return spawnSync(program, ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * `describe(title, body)` when every program runs; else a skipped test naming the missing ones and how
 * to get them (`install`, e.g. "apt-get install prometheus").
 */
export function describeWith(programs: string[], install: string, title: string, body: () => void): void {
  const missing = programs.filter((p) => !installed(p));
  if (missing.length === 0) {
    describe(title, body);
    return;
  }
  const why = `${missing.join(', ')} not installed (${install})`;
  process.stderr.write(`${title}: skipped, ${why}\n`);
  describe.skip(`${title} (${why})`, () => {
    it(`needs ${missing.join(', ')}`, () => {});
  });
}
