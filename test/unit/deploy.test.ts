// The service managers' stop settings agree with edgelog's own shutdown bound (worker.shutdownTimeout):
// deploy/edgelog.service for systemd, ecosystem.config.cjs for PM2.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/index.js';

const ROOT = new URL('../../', import.meta.url);
const shutdownMs = parseConfig({}).worker.shutdownTimeout;

/** The unit's settings, `Key=value` lines, later ones winning, comments left out. */
function unitSettings(text: string): Map<string, string> {
  const settings = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
    if (m) settings.set(m[1]!, m[2]!);
  }
  return settings;
}

describe('deploy/edgelog.service', () => {
  const unit = unitSettings(readFileSync(new URL('deploy/edgelog.service', ROOT), 'utf8'));

  it('runs the worker', () => {
    expect(unit.get('ExecStart')).toMatch(/bin\/edgelog\.js run$/);
  });

  it('stops it with a signal edgelog handles, and waits longer than worker.shutdownTimeout', () => {
    expect(['SIGINT', 'SIGTERM']).toContain(unit.get('KillSignal'));
    expect(unit.get('KillMode')).toBe('mixed');
    expect(Number(unit.get('TimeoutStopSec')) * 1000).toBeGreaterThanOrEqual(shutdownMs + 10_000);
  });

  it('restarts after a failure, with a pause, and never gives up', () => {
    expect(unit.get('Restart')).toBe('on-failure');
    expect(unit.get('RestartSec')).toMatch(/^\d+s$/);
    expect(unit.get('StartLimitIntervalSec')).toBe('0');
  });
});

describe('ecosystem.config.cjs (PM2)', () => {
  const pm2 = createRequire(import.meta.url)(new URL('ecosystem.config.cjs', ROOT).pathname) as {
    apps: Array<{ kill_timeout: number; args: string[] }>;
  };

  it('waits as long as systemd does before SIGKILL', () => {
    const unit = unitSettings(readFileSync(new URL('deploy/edgelog.service', ROOT), 'utf8'));
    expect(pm2.apps[0]!.args.at(-1)).toBe('run');
    expect(pm2.apps[0]!.kill_timeout).toBeGreaterThanOrEqual(shutdownMs + 10_000);
    expect(pm2.apps[0]!.kill_timeout).toBe(Number(unit.get('TimeoutStopSec')) * 1000);
  });
});
