// The simulator in its own process for benchmarks, so its CPU and memory are not edgelog's.
// Usage: tsx bench/sim-server.ts '<SimulatorOptions as JSON, plus originEntries/shieldEntries>'
import { Simulator } from '../src/simulator/index.js';

interface Args {
  originEntries?: number;
  shieldEntries?: number;
  pageSize?: number;
  latencyMs?: number;
  pullZones?: number[];
  shieldZones?: number[];
}

const args = JSON.parse(process.argv[2] ?? '{}') as Args;
const sim = new Simulator({
  entriesPerDay: (source) =>
    source === 'origin' ? (args.originEntries ?? 500) : (args.shieldEntries ?? 500),
  ...(args.pageSize ? { pageSize: args.pageSize } : {}),
  ...(args.latencyMs ? { latencyMs: args.latencyMs } : {}),
  ...(args.pullZones ? { pullZones: args.pullZones } : {}),
  ...(args.shieldZones ? { shieldZones: args.shieldZones } : {}),
});
const urls = await sim.listen();
process.stdout.write(`${JSON.stringify({ ...urls, accessKey: sim.accessKey })}\n`);
const stop = () => void sim.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
