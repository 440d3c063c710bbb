// The disk-full tests run on a real small filesystem: a tmpfs they mount, which takes root. Where none
// can be mounted they are skipped, saying why — but not in CI (CI=true, which .ci/run sets): CI runs as
// root and can mount one, so there a skip would only hide that the tests never ran. They fail instead.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';

export type TmpfsGate = { kind: 'run' } | { kind: 'skip' | 'fail'; reason: string };

/** Whether this is a CI run: CI set to anything but '', '0' or 'false' (as CI services set it). */
export function isCi(env: NodeJS.ProcessEnv): boolean {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && !['', '0', 'false'].includes(ci);
}

/** Pure: what a test that needs a tmpfs does, given why none can be mounted ('' when one can). */
export function tmpfsGate(problem: string, env: NodeJS.ProcessEnv): TmpfsGate {
  if (problem === '') return { kind: 'run' };
  if (!isCi(env)) return { kind: 'skip', reason: `skipped: ${problem}` };
  return {
    kind: 'fail',
    reason:
      `CI=${env.CI} but ${problem}: the disk-full tests would not run. CI runs them as root ` +
      '(.ci/run); give the run the right to mount a tmpfs, or unset CI to skip them.',
  };
}

let probed: string | undefined;

/** Why a tmpfs cannot be mounted here, '' when it can: found out once, by mounting one. */
export function tmpfsProblem(): string {
  probed ??= probe();
  return probed;
}

function probe(): string {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-mount-probe-'));
  try {
    const mount = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { encoding: 'utf8' });
    if (mount.status !== 0)
      return `a tmpfs cannot be mounted here (${(mount.stderr || mount.error?.message || '').trim()})`;
    spawnSync('umount', [dir]);
    return '';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `describe(title, body)` for tests that mount a tmpfs; where none can be mounted, skipped with the
 * reason in its title, or, in CI, one failing test that gives it.
 */
export function describeWithTmpfs(title: string, body: () => void): void {
  const gate = tmpfsGate(tmpfsProblem(), process.env);
  if (gate.kind === 'run') describe(title, body);
  else if (gate.kind === 'skip') describe.skip(`${title} (${gate.reason})`, body);
  else
    describe(title, () => {
      it('mounts a tmpfs', () => {
        throw new Error(gate.reason);
      });
    });
}
