// The command table of src/cli.ts: which subcommand an argv names, and that the cheap entries that
// `edgelog --help` lists say what the loaded commands declare.
import { Help } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, COMMANDS, subcommandOf } from '../../src/cli.js';

describe('subcommandOf', () => {
  const cases: Array<[string[], string | undefined]> = [
    [[], undefined],
    [['--help'], undefined],
    [['-h'], undefined],
    [['query', 'select 1'], 'query'],
    [['--config', 'x.json', 'query', 'select 1'], 'query'],
    [['-c', 'x.json', 'status'], 'status'],
    [['--config=x.json', 'status'], 'status'],
    [['-cx.json', 'status'], 'status'],
    [['--log-level', 'debug', 'sync', '--date', '2026-11-20'], 'sync'],
    [['--log-level=debug', 'run'], 'run'],
    // The value of an option is not the command, even when it looks like one.
    [['--config', 'run', 'query', 'x'], 'query'],
    [['help', 'report'], 'report'],
    [['help'], 'help'],
    [['--', 'demo'], 'demo'],
    [['nosuch'], 'nosuch'],
  ];
  it.each(cases)('%j names %s', async (args, expected) => {
    const program = await buildProgram(['node', 'edgelog']);
    expect(subcommandOf(program, args)).toBe(expected);
  });
});

describe('COMMANDS', () => {
  it('lists each command with the term and description its module declares', async () => {
    const help = new Help();
    for (const entry of COMMANDS) {
      const command = await entry.load();
      expect(command.name()).toBe(entry.name);
      expect(entry.term).toBe(help.subcommandTerm(command));
      expect(entry.description).toBe(command.description());
    }
  });

  it('loads only the command that runs; the others are listed by name and description', async () => {
    const program = await buildProgram(['node', 'edgelog', '--log-level', 'silent', 'migrate']);
    const loaded = program.commands.filter((c) => c.options.length > 0 || c.commands.length > 0);
    expect(loaded.map((c) => c.name())).toEqual(['migrate']);
    expect(program.commands.map((c) => c.name())).toEqual(COMMANDS.map((c) => c.name));
    const listing = program.helpInformation();
    for (const entry of COMMANDS) expect(listing).toContain(entry.term);
  });
});

describe('--log-level', () => {
  it('refuses a level that does not exist, naming the levels, before any command runs', async () => {
    const errors: string[] = [];
    const program = await buildProgram(['node', 'edgelog', '--log-level', 'loud', 'status']);
    program.configureOutput({ writeErr: (t) => errors.push(t), writeOut: () => {} });
    for (const c of program.commands)
      c.configureOutput({ writeErr: (t) => errors.push(t), writeOut: () => {} });
    await expect(program.parseAsync(['node', 'edgelog', '--log-level', 'loud', 'status'])).rejects.toThrow(
      /argument 'loud' is invalid\. Allowed choices are fatal, error, warn, info, debug, trace, silent/,
    );
  });
});
