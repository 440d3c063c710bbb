// Measures how many Shield entries per second the simulator serves (1000-entry pages) on one core.
// The simulator runs in a child process; this process pages through several zone-days concurrently,
// reading each body as text and taking the next token from its tail (no JSON.parse, so the client is
// not the bottleneck). Reports entries per wall-clock second and per second of the server's CPU time.
//   npx tsx test/simulator/measure-throughput.ts [entriesPerZoneDay=200000] [parallel=4]
// With SIM_PROFILE=<dir> the server process writes a V8 CPU profile there.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { Agent, request } from 'undici';
import { Simulator, type SimUrls } from '../../src/simulator/index.js';
import { addDays, dayOf, toApiDate, type Day } from '../../src/time/utc-day.js';

type Message = { urls: SimUrls; accessKey: string } | { cpuMs: number; entriesServed: number };

const zones = (parallel: number) => Array.from({ length: parallel }, (_, i) => 201 + i);

async function serve(perDay: number, parallel: number): Promise<void> {
  const sim = new Simulator({ entriesPerDay: perDay, pageSize: 1000, shieldZones: zones(parallel) });
  const urls = await sim.listen();
  process.send?.({ urls, accessKey: sim.accessKey } satisfies Message);
  process.on('message', (msg) => {
    if (msg === 'stats') {
      const cpu = process.cpuUsage();
      process.send?.({ cpuMs: (cpu.user + cpu.system) / 1000, entriesServed: sim.stats.entriesServed });
    } else void sim.close().then(() => process.exit(0));
  });
}

function nextToken(body: string): string | null {
  const m = /"continuationToken":(null|"((?:[^"\\]|\\.)*)")/.exec(body.slice(-400));
  return m?.[2] === undefined ? null : (JSON.parse(`"${m[2]}"`) as string);
}

async function measure(perDay: number, parallel: number): Promise<void> {
  const child = fork(new URL(import.meta.url).pathname, ['serve', String(perDay), String(parallel)], {
    stdio: 'inherit',
    execArgv: [
      ...process.execArgv,
      ...(process.env.SIM_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.SIM_PROFILE] : []),
    ],
  });
  const [ready] = (await once(child, 'message')) as [Message];
  if (!('urls' in ready)) throw new Error('unexpected message');
  const dispatcher = new Agent({ connections: parallel });
  const day: Day = addDays(dayOf(Date.now()), -1);
  const ask = async (msg: string) => {
    child.send(msg);
    const [m] = (await once(child, 'message')) as [Message];
    if (!('cpuMs' in m)) throw new Error('unexpected message');
    return m;
  };
  const before = await ask('stats');
  const started = performance.now();
  let entries = 0;
  await Promise.all(
    zones(parallel).map(async (zone) => {
      let token = '';
      for (;;) {
        const url = `${ready.urls.baseUrl}/shield/event-logs/${zone}/${toApiDate(day)}/${encodeURIComponent(token)}`;
        const res = await request(url, { dispatcher, headers: { AccessKey: ready.accessKey } });
        const body = await res.body.text();
        if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${body.slice(0, 200)}`);
        const next = nextToken(body);
        if (next === null) break;
        token = next;
      }
      entries += perDay;
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const after = await ask('stats');
  const cpuSeconds = (after.cpuMs - before.cpuMs) / 1000;
  const served = after.entriesServed - before.entriesServed;
  if (served !== entries) throw new Error(`served ${served}, expected ${entries}`);
  process.stdout.write(
    `${entries} entries in ${seconds.toFixed(2)} s: ${Math.round(entries / seconds)} entries/s wall clock, ` +
      `${Math.round(entries / cpuSeconds)} entries per server CPU second (${parallel} zone-days in parallel)\n`,
  );
  child.send('stop');
  await once(child, 'exit');
  await dispatcher.close();
}

const [mode, arg1, arg2] = process.argv.slice(2);
if (mode === 'serve') await serve(Number(arg1), Number(arg2));
else await measure(Number(mode ?? 200_000), Number(arg1 ?? 4));
