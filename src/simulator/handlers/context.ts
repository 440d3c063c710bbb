// What every handler gets: the options, the data, the clock reading of this answer, and the request.
import { parseDay, type Day } from '../../time/utc-day.js';
import type { DataSet } from '../data.js';
import type { FaultKind, FaultSpec, ResolvedOptions } from '../options.js';

export interface HandlerContext {
  opts: ResolvedOptions;
  data: DataSet;
  /** The simulator's clock, read once for this answer. */
  now: number;
  /** The request path below its host prefix, for problem details. */
  instance: string;
  query: URLSearchParams;
  /** `loop`, `empty-more`, `more` and `null-fields` faults that fired; the log handlers apply them. */
  paging: readonly FaultSpec[];
  /** The AccessKey to echo in error bodies: set when echoKey is on and the request carried one. */
  echo: string | undefined;
  countFault(kind: FaultKind): void;
}

/** A path date: `MM-dd-yyyy` naming a real day, or undefined. */
export function pathDay(text: string): Day | undefined {
  if (!/^\d{2}-\d{2}-\d{4}$/.test(text)) return undefined;
  try {
    return parseDay(text);
  } catch {
    return undefined;
  }
}

export const BAD_DATE = 'the date must be a real day written MM-dd-yyyy';
