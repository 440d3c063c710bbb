// The disk-full tests' gate (test/support/tmpfs.ts): they run where a tmpfs can be mounted, are skipped
// elsewhere, and fail rather than skip in CI.
import { describe, expect, it } from 'vitest';
import { isCi, tmpfsGate } from '../support/tmpfs.js';

describe('tmpfsGate', () => {
  const cases: Array<[string, string, NodeJS.ProcessEnv, 'run' | 'skip' | 'fail']> = [
    ['a tmpfs can be mounted', '', {}, 'run'],
    ['a tmpfs can be mounted, in CI', '', { CI: 'true' }, 'run'],
    ['not root, outside CI', 'mounting a tmpfs needs root', {}, 'skip'],
    ['not root, CI unset by an empty value', 'mounting a tmpfs needs root', { CI: '' }, 'skip'],
    ['not root, CI=false', 'mounting a tmpfs needs root', { CI: 'false' }, 'skip'],
    ['not root, in CI', 'mounting a tmpfs needs root', { CI: 'true' }, 'fail'],
    [
      'mount refused, in CI (CI=1)',
      'a tmpfs cannot be mounted here (permission denied)',
      { CI: '1' },
      'fail',
    ],
  ];
  it.each(cases)('%s', (_name, problem, env, kind) => {
    expect(tmpfsGate(problem, env).kind).toBe(kind);
  });

  it('says why, and in CI what to do', () => {
    expect(tmpfsGate('mounting a tmpfs needs root', {})).toEqual({
      kind: 'skip',
      reason: 'skipped: mounting a tmpfs needs root',
    });
    const fail = tmpfsGate('mounting a tmpfs needs root', { CI: 'true' });
    expect(fail).toMatchObject({ kind: 'fail' });
    expect(fail.kind !== 'run' && fail.reason).toMatch(
      /^CI=true but mounting a tmpfs needs root: the disk-full tests would not run\. .*unset CI to skip them\.$/,
    );
  });

  it('reads CI as CI services set it', () => {
    expect([undefined, '', ' ', '0', 'false', 'FALSE'].map((CI) => isCi({ CI }))).toEqual(
      Array(6).fill(false),
    );
    expect(['true', '1', 'yes', 'woodpecker'].map((CI) => isCi({ CI }))).toEqual(Array(4).fill(true));
  });
});
