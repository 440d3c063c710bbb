// `edgelog completion`: the script a shell sources, driven by a real bash as the shell would drive it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'edgelog-completion-'));
const script = join(dir, 'edgelog.bash');

beforeAll(async () => {
  const r = await runCli(['completion', 'bash'], { cwd: dir });
  expect(r.code).toBe(0);
  writeFileSync(script, r.stdout);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash offers after `line` (the cursor at its end), one word per entry. */
function complete(line: string): string[] {
  const words = line.split(' ');
  const program = [
    `source '${script}'`,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    '_edgelog',
    `printf '%s\\n' "\${COMPREPLY[@]}"`,
  ].join('\n');
  return execFileSync('bash', ['--norc', '--noprofile', '-c', program], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean);
}

describe('edgelog completion bash', () => {
  it('offers the commands, then their options, subcommands and fixed values', () => {
    expect(complete('edgelog ')).toEqual(expect.arrayContaining(['demo', 'run', 'sync', 'status', 'query']));
    expect(complete('edgelog st')).toEqual(['status']);
    expect(complete('edgelog status --mi')).toEqual(['--missing']);
    expect(complete('edgelog query --format ')).toEqual(['table', 'json', 'ndjson', 'csv']);
    expect(complete('edgelog report ')).toEqual(expect.arrayContaining(['origin', 'shield', 'guardian']));
    expect(complete('edgelog alerts ')).toEqual(expect.arrayContaining(['list', 'check', 'test']));
    // An option's value is skipped when finding the command; one that takes any word offers nothing
    // (the shell then completes file names).
    expect(complete('edgelog --config my.json sync --so')).toEqual(['--source']);
    expect(complete('edgelog --config ')).toEqual([]);
  });

  it('for zsh, starts with bashcompinit', async () => {
    const r = await runCli(['completion', 'zsh'], { cwd: dir });
    expect(r.stdout.split('\n')[0]).toBe('autoload -U +X bashcompinit && bashcompinit');
    expect(r.stdout).toContain('complete -o default -F _edgelog edgelog');
  });
});
