// Under PM2 (ecosystem.config.cjs sets EDGELOG_LOG_SPLIT=1) the log below error goes to stdout and the
// errors to stderr: PM2 files stderr as errors and shows it in red, and every line used to go there.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../support/cli.js';

const LOGGER = fileURLToPath(new URL('../../dist/logger.js', import.meta.url));
const script = `import { createLogger } from ${JSON.stringify(LOGGER)};
const log = createLogger({ pretty: false });
log.info('an info line'); log.warn('a warning'); log.error('an error');`;

function run(env: NodeJS.ProcessEnv) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env: childEnv(env) });
  const lines = (text: Buffer) =>
    text
      .toString()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
  return { status: r.status, stdout: lines(r.stdout), stderr: lines(r.stderr) };
}

describe('the log under PM2', () => {
  it('EDGELOG_LOG_SPLIT=1: below error on stdout, errors on stderr, each line once', () => {
    expect(run({ EDGELOG_LOG_SPLIT: '1' })).toEqual({
      status: 0,
      stdout: ['an info line', 'a warning'],
      stderr: ['an error'],
    });
  });

  it('otherwise every line on stderr, stdout left to the command', () => {
    expect(run({})).toEqual({ status: 0, stdout: [], stderr: ['an info line', 'a warning', 'an error'] });
  });

  it('ecosystem.config.cjs sets it', () => {
    const require = createRequire(import.meta.url);
    const eco = require('../../ecosystem.config.cjs') as { apps: Array<{ env: Record<string, string> }> };
    expect(eco.apps[0]!.env.EDGELOG_LOG_SPLIT).toBe('1');
    expect(readFileSync(new URL('../../ecosystem.config.cjs', import.meta.url), 'utf8')).toContain(
      'EDGELOG_LOG_SPLIT',
    );
  });
});
