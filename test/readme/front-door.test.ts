// The pure half of the front-door walk (test/e2e/front-door.test.ts): which lines of the README and of a
// command's output are commands to type, how each is taken, and that a placeholder left unfilled stops
// the walk instead of being typed.
import { describe, expect, it } from 'vitest';
import { fillIn, printedCommands, readmeCommands, stepOf } from './front-door.js';

const README = `# edgelog

\`\`\`sh
npm ci && npx edgelog demo    # set up, then run
npm test                      # every test
\`\`\`

\`npm ci\` builds the project; \`edgelog status\` reads it.

## What it shows

\`npx edgelog not-this-one\`

## Your own account in five steps

1. \`npx edgelog init --pull-zone 12345\`, then \`export EDGELOG_ACCESS_KEY=…\`.
2. \`npx edgelog sync --from <the day before yesterday>
   --to <today>\`, and \`npx\` alone is a word.
3. \`npx edgelog run\`.

## The commands at a glance

\`npx edgelog migrate\`
`;

describe('the front door as commands', () => {
  it('takes the opening block and the five steps, in order, once each, spans joined across lines', () => {
    expect(readmeCommands(README)).toEqual([
      'npm ci',
      'npx edgelog demo',
      'npx edgelog init --pull-zone 12345',
      'export EDGELOG_ACCESS_KEY=…',
      'npx edgelog sync --from <the day before yesterday> --to <today>',
      'npx edgelog run',
    ]);
  });

  it('refuses a README without the five steps', () => {
    expect(() => readmeCommands('# edgelog\n\n## Other\n')).toThrow('has no "## Your own account');
  });

  it('takes the indented npx lines a command printed, comments dropped', () => {
    const out =
      'wrote it\n\nNext:\n  export X=1   # a comment\n  npx edgelog sync --from a --to b   # what\n  npx edgelog status\n';
    expect(printedCommands(out)).toEqual(['npx edgelog sync --from a --to b', 'npx edgelog status']);
  });

  it.each([
    ['npm ci', { kind: 'install' }],
    ['export EDGELOG_ACCESS_KEY=k', { kind: 'env', name: 'EDGELOG_ACCESS_KEY', value: 'k' }],
    ['npx edgelog simulate --port 8080', { kind: 'simulator', port: 8080 }],
    ['npx edgelog run', { kind: 'long-running' }],
    ['npx edgelog init --pull-zone 1', { kind: 'aside' }],
    ['npx edgelog init --simulator http://127.0.0.1:8080 --pull-zone 101', { kind: 'once' }],
    ['npx edgelog status --missing', { kind: 'once' }],
  ])('%s is taken as %o', (command, step) => {
    expect(stepOf(command)).toEqual(step);
  });

  it('throws on a simulator without a fixed port and on a line that is no command', () => {
    expect(() => stepOf('npx edgelog simulate')).toThrow('needs a fixed port');
    expect(() => stepOf('npx edgelog')).toThrow('not a command');
  });

  it('fills the placeholders it has values for, and throws on one left over', () => {
    const fill = { '<today>': '2026-11-29', 'KEY=…': 'KEY=k' };
    expect(fillIn('npx edgelog sync --to <today>', fill)).toBe('npx edgelog sync --to 2026-11-29');
    expect(fillIn('export KEY=…', fill)).toBe('export KEY=k');
    expect(() => fillIn('npx edgelog query "SELECT …"', fill)).toThrow('no value for … in: npx edgelog');
    expect(() => fillIn('npx edgelog init --pull-zone <id>', fill)).toThrow('no value for <id>');
  });
});
