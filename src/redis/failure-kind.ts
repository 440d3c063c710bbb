// What a Redis error from ioredis or BullMQ means for edgelog, decided from the error alone.

/**
 * - `unreachable`: Redis cannot be reached or cannot serve yet (refused, reset, timed out, loading its
 *   data, a read-only replica); ioredis reconnects and the commands go on once it is back.
 * - `job-lost`: a job's record or lock is gone from Redis (Redis lost its data, or an outage outlasted
 *   the lock); the ledger in SQLite still holds the day's progress.
 * - `other`: anything else.
 */
export type RedisFailureKind = 'unreachable' | 'job-lost' | 'other';

/** Socket error codes of a connection that failed or broke. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOENT', // a unix socket whose server is gone
]);

/** Messages ioredis and BullMQ give to the same conditions (their errors often carry no code). */
const UNREACHABLE_MESSAGES = [
  /Connection is closed/i,
  /Stream isn't writeable/i,
  /max retries per request/i,
  /Command timed out/i,
  /^LOADING\b/, // a restarted server reading its AOF
  /^READONLY\b/, // a replica that has not been promoted yet
  /^MASTERDOWN\b/,
  /\b(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH)\b/,
];

const JOB_LOST_MESSAGES = [/^Missing (key|lock) for job\b/];

/** Pure: sorts an error raised by a Redis client or BullMQ. */
export function redisFailureKind(err: { message: string; code?: unknown }): RedisFailureKind {
  if (typeof err.code === 'string' && UNREACHABLE_CODES.has(err.code)) return 'unreachable';
  if (UNREACHABLE_MESSAGES.some((re) => re.test(err.message))) return 'unreachable';
  if (JOB_LOST_MESSAGES.some((re) => re.test(err.message))) return 'job-lost';
  return 'other';
}
