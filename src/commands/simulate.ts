// `edgelog simulate`: run the API simulator on loopback until SIGINT/SIGTERM, for trials, the demo and
// the benchmarks. It prints the `api` and zone settings to put into edgelog.config.json.
import { Command, InvalidArgumentError } from 'commander';
import { UsageError } from '../errors/index.js';
import {
  DEFAULT_PULL_ZONES,
  DEFAULT_SHIELD_ZONES,
  FAULT_KINDS,
  parseFaultSpec,
  Simulator,
  type FaultSpec,
  type SimulatorOptions,
} from '../simulator/index.js';
import { idListArg, intArg, numberArg } from './shared.js';

interface SimulateOptions {
  port: number;
  host: string;
  seed?: number;
  entries?: number;
  pageSize?: number;
  malformedRate?: number;
  latency?: number;
  pullZones?: number[];
  shieldZones?: number[];
  tokenAuthLibraries?: number[];
  accessKey?: string;
  oddEntryRate?: number;
  echoKey?: boolean;
  dotTokens?: boolean;
  hostileText?: boolean;
  fault: FaultSpec[];
}

export interface SimulateIo {
  /** Where the config snippet goes. @defaultValue stdout */
  out: (text: string) => void;
  /** Where status lines go. @defaultValue stderr */
  err: (text: string) => void;
  /** Resolves when the simulator should stop. @defaultValue the first SIGINT or SIGTERM */
  stop: () => Promise<unknown>;
}

function faultArg(value: string, previous: FaultSpec[]): FaultSpec[] {
  try {
    return [...previous, parseFaultSpec(value)];
  } catch (err) {
    if (err instanceof UsageError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

function positiveIntArg(value: string): number {
  const n = intArg(value);
  if (n < 1) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function fractionArg(value: string): number {
  const n = numberArg(value);
  if (n < 0 || n > 1) throw new InvalidArgumentError('expected a number from 0 to 1');
  return n;
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/** A failure to listen as one plain line naming the option to change (not `unexpected error: …`). */
function listenError(err: unknown, host: string, port: number): Error {
  const code = (err as NodeJS.ErrnoException).code;
  const where = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (code === 'EADDRINUSE')
    return new UsageError(
      `cannot listen on ${where}: the address is in use (another simulator?): pick another --port, or 0 for a free one`,
    );
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
    return new UsageError(
      `cannot listen on ${where}: no interface of this machine has that address: check --host`,
    );
  if (code === 'EACCES')
    return new UsageError(
      `cannot listen on ${where}: permission denied (ports below 1024 need privileges): pick another --port`,
    );
  return err as Error;
}

/** The simulator options the command line asks for; unset options keep the simulator's defaults. */
export function simulatorOptions(opts: SimulateOptions): SimulatorOptions {
  return {
    ...(opts.seed !== undefined ? { seed: opts.seed } : {}),
    ...(opts.entries !== undefined ? { entriesPerDay: opts.entries } : {}),
    ...(opts.pageSize !== undefined ? { pageSize: opts.pageSize } : {}),
    ...(opts.malformedRate !== undefined ? { malformedRate: opts.malformedRate } : {}),
    ...(opts.latency !== undefined ? { latencyMs: opts.latency } : {}),
    ...(opts.pullZones !== undefined ? { pullZones: opts.pullZones } : {}),
    ...(opts.shieldZones !== undefined ? { shieldZones: opts.shieldZones } : {}),
    ...(opts.tokenAuthLibraries !== undefined ? { tokenAuthLibraries: opts.tokenAuthLibraries } : {}),
    ...(opts.accessKey !== undefined ? { accessKey: opts.accessKey } : {}),
    ...(opts.oddEntryRate !== undefined ? { oddEntryRate: opts.oddEntryRate } : {}),
    ...(opts.echoKey ? { echoKey: true } : {}),
    ...(opts.dotTokens ? { dotTokens: true } : {}),
    ...(opts.hostileText ? { hostileText: true } : {}),
    faults: opts.fault,
  };
}

export function simulateCommand(io: Partial<SimulateIo> = {}): Command {
  const out = io.out ?? ((text: string) => process.stdout.write(text));
  const err = io.err ?? ((text: string) => process.stderr.write(text));
  const stop = io.stop ?? untilSignal;
  return new Command('simulate')
    .description('run the API simulator on loopback (deterministic data, fault knobs) until SIGINT/SIGTERM')
    .option('--port <port>', 'TCP port; 0 picks a free one', intArg, 0)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--seed <n>', 'seed of the generated data (default 1)', intArg)
    .option('--entries <n>', 'log entries per zone per UTC day (default 500)', intArg)
    .option('--page-size <n>', 'Shield event log page size (default 1000)', positiveIntArg)
    .option(
      '--malformed-rate <fraction>',
      'fraction of entries with a cut-short log JSON (default 0)',
      fractionArg,
    )
    .option(
      '--odd-entry-rate <fraction>',
      'fraction of entries served odd: null or missing fields, odd label values, unusable keys (default 0)',
      fractionArg,
    )
    .option('--echo-key', 'error answers repeat the AccessKey the request carried')
    .option('--dot-tokens', 'Shield pages 1 and 2 return the continuation tokens "." and ".."')
    .option(
      '--hostile-text',
      'every string of every entry, and every error message, starts with terminal escape sequences',
    )
    .option('--latency <ms>', 'delay added before every answer (default 0)', intArg)
    .option('--pull-zones <ids>', 'known pull zones, comma-separated (default 101,102,103)', idListArg)
    .option('--shield-zones <ids>', 'known shield zones, comma-separated (default 201,202,203)', idListArg)
    .option('--token-auth-libraries <ids>', 'video libraries that require token authentication', idListArg)
    .option('--access-key <key>', 'the AccessKey clients must send (default sim-access-key)')
    .option(
      '--fault <spec>',
      'inject a fault, repeatable: kind[:key=value,...], e.g. 429:rate=0.1,retryAfter=1, loop:afterPage=3, ' +
        `503:times=2,operation=shieldEventLogs, slow-body:chunks=5,delayMs=100; kinds: ${FAULT_KINDS.join(', ')}`,
      faultArg,
      [],
    )
    .action(async (opts: SimulateOptions) => {
      const options = simulatorOptions(opts);
      const sim = new Simulator(options);
      let urls: Awaited<ReturnType<Simulator['listen']>>;
      try {
        urls = await sim.listen(opts.port, opts.host);
      } catch (err) {
        throw listenError(err, opts.host, opts.port);
      }
      const snippet = {
        api: { ...urls, accessKey: sim.accessKey },
        pullZones: options.pullZones ?? DEFAULT_PULL_ZONES,
        shieldZones: options.shieldZones ?? DEFAULT_SHIELD_ZONES,
      };
      out(`${JSON.stringify(snippet, null, 2)}\n`);
      err(`edgelog simulate: listening on ${new URL(urls.baseUrl).origin}; stop with Ctrl-C\n`);
      try {
        await stop();
      } finally {
        await sim.close();
        const { requests, entriesServed } = sim.stats;
        err(`edgelog simulate: stopped after ${requests} requests, ${entriesServed} entries served\n`);
      }
    });
}
