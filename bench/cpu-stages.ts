// Where a thread's time goes, by stage of a page's way: a V8 CPU profile (`node --cpu-prof`) read sample
// by sample, each sample given to the stage of its deepest frame that names one (a native SQLite call is
// the stage of the JavaScript that made it; a busy wait on the write lock too, as the thread sleeps in it).
// Pure: the profile is passed in as parsed JSON.

export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }>;
  samples: number[];
  timeDeltas: number[];
}

/** The stages, in the order a report prints them; the first rule a frame matches names its stage. */
export const STAGE_RULES: ReadonlyArray<readonly [stage: string, test: RegExp]> = [
  ['terms', /\/src\/store\/(sqlite\/|postgres\/)?terms\.|\/dist\/store\/(sqlite\/|postgres\/)?terms\./],
  ['ledger', /\/(src|dist)\/store\/(sqlite|postgres)\/ledger\.|ledger-rules\./],
  ['history flush', /\/(src|dist)\/history\/|@duckdb|\/store\/(sqlite|postgres)\/flush\.|history-page\./],
  [
    'store (rows, rollup, quarantine, txn)',
    /\/(src|dist)\/store\/|better-sqlite3|node_modules\/pg(-copy-streams)?\//,
  ],
  [
    'fetch + parse',
    /\/(src|dist)\/(ingest|api|values)\/|node_modules\/(undici|zod)\/|node:internal\/(deps\/undici|worker)/,
  ],
  [
    'BullMQ + Redis',
    /node_modules\/(bullmq|ioredis|msgpackr|cron-parser)|\/(src|dist)\/(queue|redis|sync)\//,
  ],
  ['logging', /node_modules\/(pino|thread-stream|sonic-boom)|\/(src|dist)\/logger\./],
  ['alerts', /\/(src|dist)\/alerts\//],
];

const SPECIAL: Record<string, string> = {
  '(garbage collector)': 'GC',
  '(idle)': 'idle',
  '(program)': 'program (native, unattributed)',
  '(root)': 'program (native, unattributed)',
};

/** Milliseconds per stage over the whole profile (idle included, so the stages sum to the wall). */
export function stageTimes(profile: CpuProfile): Map<string, number> {
  const parent = new Map<number, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stageOf = new Map<number, string>();
  const classify = (id: number): string => {
    const known = stageOf.get(id);
    if (known !== undefined) return known;
    const leaf = byId.get(id)!.callFrame;
    let stage = SPECIAL[leaf.functionName];
    for (let at: number | undefined = id; stage === undefined && at !== undefined; at = parent.get(at)) {
      const url = byId.get(at)!.callFrame.url;
      if (url) stage = STAGE_RULES.find(([, test]) => test.test(url))?.[0];
    }
    stage ??= 'other';
    stageOf.set(id, stage);
    return stage;
  };
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stage = classify(id);
    out.set(stage, (out.get(stage) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  return out;
}
