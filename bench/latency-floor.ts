// The floor of the latency-bound figure: the same requests (every page of every zone-day, `concurrency`
// days at a time, each day's pages one after another) made with plain undici and JSON.parse, nothing
// stored. Its wall time ÷ the ideal is what this machine and simulator allow before edgelog does anything.
import { Agent, request } from 'undici';
import { toApiDate, type Day } from '../src/time/utc-day.js';
import type { RunningSim } from './processes.js';

export async function latencyFloorMs(
  sim: RunningSim,
  zones: number[],
  days: Day[],
  concurrency: number,
  /** Connections to the API host, as edgelog's `api.connections`. @defaultValue max(16, concurrency) */
  connections = Math.max(16, concurrency),
): Promise<{ wallMs: number; requests: number }> {
  const agent = new Agent({ connections });
  const work = zones.flatMap((zone) => days.map((day) => [zone, toApiDate(day)] as const));
  let next = 0;
  let requests = 0;
  const started = performance.now();
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < work.length) {
          const [zone, date] = work[next++]!;
          let token = '';
          for (;;) {
            const res = await request(
              `${sim.urls.baseUrl}/shield/event-logs/${zone}/${date}/${encodeURIComponent(token)}`,
              {
                dispatcher: agent,
                headers: { AccessKey: sim.urls.accessKey },
              },
            );
            const page = JSON.parse(await res.body.text()) as {
              hasMoreData?: boolean;
              continuationToken?: string | null;
            };
            requests++;
            if (!page.hasMoreData || !page.continuationToken) break;
            token = page.continuationToken;
          }
        }
      }),
    );
    return { wallMs: performance.now() - started, requests };
  } finally {
    await agent.close();
  }
}
