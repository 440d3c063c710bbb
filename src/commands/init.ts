// `edgelog init`: writes a commented edgelog.config.json (config/example-config.ts) with the zones given
// as options or, on a terminal, asked for; checks it as every command will read it; prints what to run
// next. The access key is never written: it comes from EDGELOG_ACCESS_KEY. The file is made 0600 all the
// same (hook secrets and a database URL with its password go there), and an existing one is kept unless
// --force.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Command, InvalidArgumentError } from 'commander';
import { configPath, DEFAULT_CONFIG_FILE, parseConfig } from '../config/index.js';
import { exampleConfig, withoutComments } from '../config/example-config.js';
import { UsageError } from '../errors/index.js';
import { safeText } from '../format/terminal-text.js';
import { addDays, dayOf } from '../time/utc-day.js';
import { programName } from './program-name.js';
import type { GlobalOptions } from './shared.js';
import { idListArg } from './shared.js';

interface InitOptions {
  pullZone?: number[];
  shieldZone?: number[];
  simulator?: string;
  force?: boolean;
}

function simulatorArg(value: string): string {
  if (!/^https?:\/\/[^/\s]+\/?$/.test(value))
    throw new InvalidArgumentError('expected the simulator\'s address, e.g. "http://127.0.0.1:8080"');
  return value;
}

/** Zone ids typed at a prompt: comma- or space-separated positive integers; empty for none. */
export function parseZoneAnswer(answer: string): number[] {
  const parts = answer.split(/[\s,]+/).filter(Boolean);
  return parts.length === 0 ? [] : parts.reduce<number[]>((ids, part) => idListArg(part, ids), []);
}

async function askZones(): Promise<{ pull: number[]; shield: number[] }> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const ask = async (question: string): Promise<number[]> => {
      for (;;) {
        try {
          return parseZoneAnswer(await rl.question(question));
        } catch (err) {
          process.stderr.write(`${(err as Error).message}\n`);
        }
      }
    };
    const pull = await ask(
      'Pull zone ids whose origin error logs to archive (comma-separated, empty for none): ',
    );
    const shield = await ask(
      'Shield zone ids whose event logs to archive (comma-separated, empty for none): ',
    );
    return { pull, shield };
  } finally {
    rl.close();
  }
}

export function initCommand(): Command {
  return new Command('init')
    .description('write a commented edgelog.config.json with your zones, check it, and say what to run next')
    .option(
      '--pull-zone <id...>',
      'pull zone ids (origin error logs), comma-separated or repeated',
      idListArg,
    )
    .option('--shield-zone <id...>', 'Shield zone ids (event logs), comma-separated or repeated', idListArg)
    .option(
      '--simulator <url>',
      'point the API at `edgelog simulate --port N`, e.g. http://127.0.0.1:8080',
      simulatorArg,
    )
    .option('--force', 'overwrite an existing file')
    .action(async (opts: InitOptions, cmd: Command) => {
      const global = cmd.optsWithGlobals<GlobalOptions>();
      const path = configPath(global.config ? { path: global.config } : {});
      const program = programName();
      if (existsSync(path) && !opts.force)
        throw new UsageError(`${safeText(path)} exists: edit it, or pass --force to overwrite it`);
      let pull = opts.pullZone ?? [];
      let shield = opts.shieldZone ?? [];
      if (pull.length === 0 && shield.length === 0) {
        if (!process.stdin.isTTY)
          throw new UsageError('which zones? pass --pull-zone <id> and/or --shield-zone <id>');
        ({ pull, shield } = await askZones());
        if (pull.length === 0 && shield.length === 0) throw new UsageError('no zones given: nothing written');
      }
      const config = exampleConfig({
        pullZones: pull,
        shieldZones: shield,
        ...(opts.simulator ? { simulator: opts.simulator } : {}),
      });
      const text = `${JSON.stringify(config, null, 2)}\n`;
      // As every command will read it: a file that fails here is never written.
      parseConfig(withoutComments(JSON.parse(text)), path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text, { mode: 0o600 });
      chmodSync(path, 0o600); // an overwritten file keeps its old mode otherwise
      const shown = relative(process.cwd(), path) || path;
      const named = shown === DEFAULT_CONFIG_FILE ? '' : ` --config ${shown}`;
      const today = dayOf(Date.now());
      const zones = [
        ...(pull.length ? [`pull zones ${pull.join(', ')}`] : []),
        ...(shield.length ? [`Shield zones ${shield.join(', ')}`] : []),
      ].join('; ');
      const out = (line = '') => process.stdout.write(`${line}\n`);
      out(`wrote ${safeText(shown)} (mode 0600): ${zones}`);
      out();
      out('Next:');
      if (!process.env.EDGELOG_ACCESS_KEY)
        out(
          opts.simulator
            ? "  export EDGELOG_ACCESS_KEY=sim-access-key   # the simulator's key"
            : "  export EDGELOG_ACCESS_KEY=…   # the account's API key; never written to the file",
        );
      out(
        `  ${program}${named} sync --from ${addDays(today, -2)} --to ${today}   # what the API still holds`,
      );
      out(`  ${program}${named} status`);
      out(
        `  ${program}${named} run   # for good: node bin/edgelog.js run, PM2 or systemd (docs/OPERATIONS.md)`,
      );
    });
}
