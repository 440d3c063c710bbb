// CPU time from /proc (Linux): how busy the whole machine was between two instants (the share of all
// cores' time not idle; the worker-scaling figure only means something while the machine has cores to
// spare), and what one process, such as a PostgreSQL backend, has used.
import { readFileSync } from 'node:fs';

export type CpuTimes = readonly number[];

/** The machine's cumulative CPU times (user, nice, system, idle, iowait, …), or [] off Linux. */
export function cpuTimes(): CpuTimes {
  try {
    const all = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    return all.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return [];
  }
}

/** Pure: the share (0–1) of the machine's CPU time that was busy from `before` to `after`; NaN if unknown. */
export function busyShare(before: CpuTimes, after: CpuTimes): number {
  if (before.length < 5 || after.length !== before.length) return Number.NaN;
  const d = after.map((v, i) => v - before[i]!);
  const total = d.reduce((a, b) => a + b, 0);
  return total > 0 ? (total - d[3]! - d[4]!) / total : Number.NaN;
}

/** CPU time (ms) process `pid` has used, utime + stime in clock ticks of 10 ms; NaN if it is not here. */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN; // e.g. the server runs on another machine
  }
}
