// Start-up of the CLI: wall time of `edgelog --help` and of a one-row `edgelog query` against a small
// archive, each beside a bare `node -e 0` on the same machine in the same run. The bin is executed as a
// user runs it, through its shebang (so with its node flags). Rounds interleave the commands, so that a
// busy moment of the machine falls on all of them alike; the median of each is reported.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { openArchive } from '../src/store/sqlite/archive.js';

export interface StartupTimes {
  runs: number;
  /** Median wall time of each, in ms. */
  nodeMs: number;
  helpMs: number;
  queryMs: number;
  helpRatio: number;
  queryRatio: number;
  /** The larger of the two ratios: the figure with the target (≤ 2). */
  cliStartupRatio: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function wallMs(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}: ${String(r.stderr)}`);
  return ms;
}

/** Runs each command `runs` times (after one warm-up round that fills the file cache). */
export function measureStartup(bin: string, dir: string, runs = 21): StartupTimes {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const database = join(dir, 'small.db');
  const archive = openArchive(database); // migrated, empty: the query reads none of it
  void archive.close();
  // Run in `dir`, where there is no configuration file: the archive comes from EDGELOG_DB.
  const env: NodeJS.ProcessEnv = { ...process.env, EDGELOG_DB: database };
  delete env.EDGELOG_CONFIG;
  const commands: Array<[keyof typeof samples, string, string[]]> = [
    ['node', process.execPath, ['-e', '0']],
    ['help', bin, ['--help']],
    ['query', bin, ['query', 'select 1']],
  ];
  const samples = { node: [] as number[], help: [] as number[], query: [] as number[] };
  for (let round = -1; round < runs; round++) {
    for (const [name, cmd, args] of commands) {
      const ms = wallMs(cmd, args, dir, env);
      if (round >= 0) samples[name].push(ms);
    }
  }
  const round1 = (x: number) => Math.round(x * 10) / 10;
  const nodeMs = median(samples.node);
  const helpMs = median(samples.help);
  const queryMs = median(samples.query);
  const ratio = (x: number) => Number((x / nodeMs).toFixed(2));
  return {
    runs,
    nodeMs: round1(nodeMs),
    helpMs: round1(helpMs),
    queryMs: round1(queryMs),
    helpRatio: ratio(helpMs),
    queryRatio: ratio(queryMs),
    cliStartupRatio: Math.max(ratio(helpMs), ratio(queryMs)),
  };
}
