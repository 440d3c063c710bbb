// `edgelog completion [bash|zsh]`: a shell completion script, made from every command's definitions.
import { Argument, Command } from 'commander';
import { bashCompletionScript } from '../completion/bash-script.js';
import { completionTree } from '../completion/command-tree.js';

/** `fullProgram` is the CLI with every command loaded (cli.ts passes it in: commands sit below the CLI). */
export function completionCommand(fullProgram: () => Promise<Command>): Command {
  return new Command('completion')
    .description('print a shell completion script, e.g. eval "$(edgelog completion bash)"')
    .addArgument(new Argument('[shell]', 'bash or zsh').choices(['bash', 'zsh']).default('bash'))
    .action(async (shell: 'bash' | 'zsh') => {
      // Every command in full: only this command pays for loading them all.
      const script = bashCompletionScript(completionTree(await fullProgram()));
      // zsh runs bash completion functions through bashcompinit.
      const prelude = shell === 'zsh' ? 'autoload -U +X bashcompinit && bashcompinit\n' : '';
      process.stdout.write(prelude + script);
    });
}
