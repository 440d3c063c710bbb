// The simulator in its own process for benchmarks, so its CPU and memory are not edgelog's.
// Usage: tsx bench/sim-server.ts '<Args as JSON>'; prints the hosts and access key as one JSON line.
import type { Day } from '../src/time/utc-day.js';
import { Simulator } from '../src/simulator/index.js';
import { ReplayCache } from './replay-cache.js';

interface Args {
  originEntries?: number;
  shieldEntries?: number;
  pageSize?: number;
  latencyMs?: number;
  pullZones?: number[];
  shieldZones?: number[];
  /** Render this day of every zone before answering, and serve it from memory (see replay-cache.ts). */
  prerender?: Day;
  /** Entries with their key only (see SimulatorOptions.tinyEntries). */
  tinyEntries?: boolean;
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const sim = new Simulator({
  entriesPerDay: (source) =>
    source === 'origin' ? (args.originEntries ?? 500) : (args.shieldEntries ?? 500),
  ...(args.pageSize ? { pageSize: args.pageSize } : {}),
  ...(args.latencyMs ? { latencyMs: args.latencyMs } : {}),
  ...(args.pullZones ? { pullZones: args.pullZones } : {}),
  ...(args.shieldZones ? { shieldZones: args.shieldZones } : {}),
  ...(args.tinyEntries ? { tinyEntries: true } : {}),
});
let urls = await sim.listen();
let cache: ReplayCache | undefined;
if (args.prerender) {
  cache = new ReplayCache(urls, sim.accessKey);
  await cache.warm({
    day: args.prerender,
    pullZones: args.pullZones ?? [],
    shieldZones: args.shieldZones ?? [],
  });
  urls = await cache.listen();
}
process.stdout.write(`${JSON.stringify({ ...urls, accessKey: sim.accessKey })}\n`);
const stop = () => void Promise.all([sim.close(), cache?.close()]).then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
