// Waiting on many BullMQ jobs with one pair of QueueEvents listeners (job.waitUntilFinished adds
// listeners per job, which does not scale to a sync of hundreds of days).
import { Job, type Queue, type QueueEvents } from 'bullmq';
import { coerceError } from '../errors/index.js';

export interface JobOutcome<R = unknown, D = unknown> {
  id: string;
  data: D;
  result?: R;
  error?: string;
  /** Still unfinished when the wait ended (timeout). */
  pending?: true;
}

const POLL_MS = 2_000;

export interface WaitOptions {
  /** Stop waiting on a job after its first failed attempt (its retries go on in the queue). */
  settleOnFailedAttempt?: boolean;
  /** Give up after this long; unfinished jobs come back `pending`. */
  timeoutMs?: number;
  /** Stop waiting when this fires (a shutdown); unfinished jobs come back `pending`. */
  signal?: AbortSignal;
  /** Called once per job as it finishes (progress). */
  onSettled?: (outcome: JobOutcome) => void;
}

export async function waitForJobs<D, R>(
  queue: Queue<D, unknown, string>,
  events: QueueEvents,
  jobs: ReadonlyArray<Job<D, unknown, string>>,
  opts: WaitOptions = {},
): Promise<Array<JobOutcome<R, D>>> {
  if (jobs.length === 0) return [];
  const pending = () => jobs.map((j) => ({ id: j.id!, data: j.data, pending: true as const }));
  if (opts.signal?.aborted) return pending();
  await events.waitUntilReady();
  const byId = new Map(jobs.map((j) => [j.id!, j]));
  const outcomes = new Map<string, JobOutcome<R, D>>();
  return new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    // A failed attempt that will be retried emits no 'failed' event: the job moves to 'delayed'.
    const names: Array<'completed' | 'failed' | 'delayed'> = ['completed', 'failed'];
    if (opts.settleOnFailedAttempt) names.push('delayed');
    // Events can be missed (QueueEvents starts reading its stream a moment after it is ready): a slow
    // poll of the unfinished jobs makes sure a finished job is always seen.
    const poll = setInterval(() => {
      for (const id of byId.keys()) if (!outcomes.has(id)) void settle(id).catch(fail);
    }, POLL_MS);
    // Every way out clears the poll, the timer and the listeners: a wait must never keep the process alive.
    const cleanup = () => {
      clearInterval(poll);
      for (const name of names) events.off(name, onEvent);
      if (timer) clearTimeout(timer);
      opts.signal?.removeEventListener('abort', finish);
    };
    const finish = () => {
      cleanup();
      resolve(jobs.map((j) => outcomes.get(j.id!) ?? { id: j.id!, data: j.data, pending: true }));
    };
    const fail = (err: unknown) => {
      cleanup();
      reject(coerceError(err));
    };
    opts.signal?.addEventListener('abort', finish, { once: true });
    const settle = async (id: string) => {
      const job = byId.get(id);
      if (!job || outcomes.has(id)) return;
      // The state first, then the job: read the other way round, a job that finishes in between looks
      // 'completed' with the return value it did not have yet (seen under load as a day "failed" with
      // no error). Once finished, a job's hash no longer changes.
      let state = await queue.getJobState(id);
      let fresh = state === 'unknown' ? undefined : await Job.fromId<D, R, string>(queue, id);
      // attemptsMade counts every finished attempt, the successful one too: a job read active that
      // completed before its hash was read has one. Its state, read again, tells a success from a retry.
      if (opts.settleOnFailedAttempt && state !== 'completed' && (fresh?.attemptsMade ?? 0) > 0) {
        const now = await queue.getJobState(id);
        if (now === 'completed') {
          state = now;
          fresh = await Job.fromId<D, R, string>(queue, id);
        }
      }
      if (outcomes.has(id)) return;
      if (state === 'completed' && fresh) outcomes.set(id, { id, data: job.data, result: fresh.returnvalue });
      else if (
        state === 'failed' ||
        !fresh ||
        (opts.settleOnFailedAttempt && (fresh?.attemptsMade ?? 0) > 0)
      ) {
        outcomes.set(id, {
          id,
          data: job.data,
          error: fresh?.failedReason || 'the job is no longer in the queue',
        });
      } else return; // waiting, active, or delayed for a retry: keep waiting
      opts.onSettled?.(outcomes.get(id)!);
      if (outcomes.size === byId.size) finish();
    };
    const onEvent = ({ jobId }: { jobId: string }) => void settle(jobId).catch(fail);
    for (const name of names) events.on(name, onEvent);
    if (opts.timeoutMs !== undefined) timer = setTimeout(finish, opts.timeoutMs);
    // Jobs that finished before we listened.
    for (const id of byId.keys()) void settle(id).catch(fail);
  });
}
