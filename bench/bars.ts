// The bars of issue 29 ("The write path ahead again"), each with its verdict, from a bench run's figures.
// Pure: main.ts (and new-terms.ts for the judgement) pass the figures in; a figure a run did not measure
// (PostgreSQL's on a SQLite run, the judgement outside bench:new-terms) is said so, not judged.

export interface BarFigures {
  store: 'sqlite' | 'postgres';
  e2eRatioToLimit: number;
  e2eEntriesPerSec: number;
  limitRowsPerSec: number;
  e2eShieldEntriesPerSec: number;
  e2eOriginEntriesPerSec: number;
  latencyBound: { wallMs: number };
  latencyFloorMs: number;
  peakRssMb: number;
  twoWorkersSpeedup?: number | undefined;
  workerLatencyMs?: number | undefined;
}

export interface Bar {
  bar: string;
  /** The ratio or figure the bar judges, with the absolute figures it comes from. */
  figure: string;
  verdict: 'met' | 'NOT MET' | 'not measured here';
}

const judge = (ok: boolean): Bar['verdict'] => (ok ? 'met' : 'NOT MET');
const n = (x: number) => Math.round(x).toLocaleString('en-US');

export function bars(f: BarFigures): Bar[] {
  const pg = f.store === 'postgres';
  const limitName = pg ? 'COPY limit' : 'write limit';
  const origin = f.e2eOriginEntriesPerSec / f.e2eShieldEntriesPerSec;
  const latency = f.latencyBound.wallMs / f.latencyFloorMs;
  const e2e: Bar = {
    bar: `${pg ? 'PostgreSQL' : 'SQLite'}: end to end ÷ ${limitName} ≥ 0.6`,
    figure: `${f.e2eRatioToLimit.toFixed(3)} (${n(f.e2eEntriesPerSec)} / ${n(f.limitRowsPerSec)})`,
    verdict: judge(f.e2eRatioToLimit >= 0.6),
  };
  const other: Bar = {
    bar: `${pg ? 'SQLite' : 'PostgreSQL'}: end to end ÷ ${pg ? 'write' : 'COPY'} limit ≥ 0.6`,
    figure: `run with --store ${pg ? 'sqlite' : 'postgres'}`,
    verdict: 'not measured here',
  };
  return [
    ...(pg ? [other, e2e] : [e2e, other]),
    {
      bar: 'origin day ÷ Shield day, entries/s ≥ 0.85',
      figure: `${origin.toFixed(3)} (${n(f.e2eOriginEntriesPerSec)} / ${n(f.e2eShieldEntriesPerSec)})`,
      verdict: judge(origin >= 0.85),
    },
    {
      bar: 'latency-bound wall ÷ plain-undici floor ≤ 1.15',
      figure: `${latency.toFixed(3)} (${n(f.latencyBound.wallMs)} / ${n(f.latencyFloorMs)} ms)`,
      verdict: judge(latency <= 1.15),
    },
    {
      bar: 'peak RSS of the 1M-entry day ≤ 180 MiB',
      figure: `${f.peakRssMb} MiB`,
      verdict: judge(f.peakRssMb <= 180),
    },
    f.twoWorkersSpeedup === undefined
      ? {
          bar: 'PostgreSQL: two workers ÷ one ≥ 1.8 at 400 ms',
          figure: 'run with --store postgres',
          verdict: 'not measured here',
        }
      : {
          bar: `PostgreSQL: two workers ÷ one ≥ 1.8 at ${f.workerLatencyMs} ms`,
          figure: f.twoWorkersSpeedup.toFixed(3),
          verdict: f.workerLatencyMs === 400 ? judge(f.twoWorkersSpeedup >= 1.8) : 'not measured here',
        },
    {
      bar: 'new-term judgement ≤ 50 ms per zone on 10M entries',
      figure: 'npm run bench:new-terms -- --terms-only --rows 10000000',
      verdict: 'not measured here',
    },
  ];
}

/** The judgement's bar, for bench:new-terms: the slowest field's median for one zone. */
export function judgementBar(slowestMedianMs: number, entries: number): Bar {
  const ok = slowestMedianMs <= 50 && entries >= 10_000_000;
  return {
    bar: 'new-term judgement ≤ 50 ms per zone on 10M entries',
    figure: `${slowestMedianMs.toFixed(2)} ms (slowest field's median, one zone, ${n(entries)} entries)`,
    verdict: entries >= 10_000_000 ? judge(ok) : 'not measured here',
  };
}

export function barLines(list: readonly Bar[]): string[] {
  const w = Math.max(...list.map((b) => b.bar.length));
  const v = Math.max(...list.map((b) => b.verdict.length));
  return list.map((b) => `${b.bar.padEnd(w)}  ${b.verdict.padEnd(v)}  ${b.figure}`);
}
