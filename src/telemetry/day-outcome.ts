// Pure: how a day job ended, as a label, from its result or its error (see queue/runtime.ts).
import { EdgelogError, InterruptedError, LeaseBusyError } from '../errors/index.js';
import type { DayJobMetrics, DayJobOutcome } from './events.js';

/** The slice of a day pass's result (ingest's DayResult) that names how it ended. */
export interface DayPassEnd {
  outcome: 'complete' | 'partial' | 'incomplete' | 'expired';
  skipped?: boolean;
}

export type DayJobEnd = { result: DayPassEnd } | { error: unknown };

/**
 * A finished pass: its outcome, or `skipped` (fetched since the job was made). A failure: `deferred`
 * (another run holds the day; the job waits), `interrupted` (shutdown; the checkpoint is kept),
 * `retrying` (a retryable error with attempts left), else `failed`.
 */
export function dayJobOutcome(end: DayJobEnd, finalAttempt: boolean): DayJobOutcome {
  if ('result' in end) return end.result.skipped ? 'skipped' : end.result.outcome;
  const err = end.error;
  if (err instanceof LeaseBusyError) return 'deferred';
  if (err instanceof InterruptedError) return 'interrupted';
  const retryable = err instanceof EdgelogError ? err.retryable : true;
  return retryable && !finalAttempt ? 'retrying' : 'failed';
}

/** Runs a day job and counts how it ended; its result or error passes through unchanged. */
export async function countDayJob<R extends DayPassEnd>(
  metrics: DayJobMetrics,
  source: 'origin' | 'shield',
  finalAttempt: boolean,
  run: () => Promise<R>,
): Promise<R> {
  try {
    const result = await run();
    metrics.dayJob(source, dayJobOutcome({ result }, finalAttempt));
    return result;
  } catch (error) {
    metrics.dayJob(source, dayJobOutcome({ error }, finalAttempt));
    throw error;
  }
}
