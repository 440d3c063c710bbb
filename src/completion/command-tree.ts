// Pure: what shell completion needs of the command line, read from commander's definitions (so it never
// drifts from them): each command's subcommands, its options, and the values an option or argument takes.
import type { Command } from 'commander';

export interface CompletionNode {
  name: string;
  /** Long option names (`--format`), the short ones too (`-c`). */
  flags: string[];
  /** Flags that take a value, with the values when they are a fixed set (else null: any word, a file). */
  values: Record<string, string[] | null>;
  /** Values of the first argument when it is a fixed set (`report origin|shield|guardian`). */
  argument: string[] | null;
  commands: CompletionNode[];
}

export function completionTree(cmd: Command): CompletionNode {
  const flags: string[] = [];
  const values: Record<string, string[] | null> = {};
  for (const o of cmd.options) {
    for (const flag of [o.long, o.short]) {
      if (!flag) continue;
      flags.push(flag);
      if (o.required || o.optional) values[flag] = o.argChoices ? [...o.argChoices] : null;
    }
  }
  if (cmd.commands.length > 0 || cmd.parent === null) flags.push('--help');
  const first = cmd.registeredArguments[0];
  return {
    name: cmd.name(),
    flags,
    values,
    argument: first?.argChoices ? [...first.argChoices] : null,
    commands: cmd.commands.map(completionTree),
  };
}
