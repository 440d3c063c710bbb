// deploy/edgelog.service as docs/OPERATIONS.md installs it (Running it unattended → With systemd): the node and install
// paths adjusted the way that page says, then checked by systemd's own `systemd-analyze verify`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { describeWith } from '../support/tools.js';

const REPO = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
const unit = readFileSync(join(REPO, 'deploy', 'edgelog.service'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'edgelog-unit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** docs/OPERATIONS.md's step: ExecStart names this machine's node (`command -v node`). */
const withNode = unit.replaceAll('/usr/bin/node', process.execPath);
/** And edgelog installed elsewhere than /opt/edgelog (here: the repository). */
const adjusted = withNode.replaceAll('/opt/edgelog', REPO);

describeWith(['systemd-analyze'], 'apt-get install systemd', 'deploy/edgelog.service', () => {
  it('starts node by its absolute path, with the heap bounds of bin/edgelog.js, on bin/edgelog.js run', () => {
    const exec = /^ExecStart=(.*)$/m.exec(adjusted)?.[1]?.split(' ') ?? [];
    expect(exec[0]).toBe(process.execPath);
    const shebang = readFileSync(join(REPO, 'bin', 'edgelog.js'), 'utf8').split('\n')[0]!;
    for (const flag of exec.filter((a) => a.startsWith('--'))) expect(shebang).toContain(flag);
    expect(exec.slice(-2)).toEqual([join(REPO, 'bin', 'edgelog.js'), 'run']);
    expect(existsSync(exec.at(-2)!)).toBe(true);
  });

  it('passes systemd-analyze verify without a warning', () => {
    const path = join(dir, 'edgelog.service');
    writeFileSync(path, withNode);
    const result = spawnSync('systemd-analyze', ['verify', path], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toBe('');
    expect(result.status).toBe(0);
  });
});
