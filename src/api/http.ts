// One GET with JSON in and typed errors out, retried per RetryPolicy. undici does what it does well
// (pooling, keep-alive, connect/headers/body timeouts, the response size cap, abort); the retry loop is
// ours because a page must be re-requested whole (undici's RetryHandler resumes with Range, which this
// API does not serve), a truncated JSON body is only detectable after reading it, and the final error
// must keep the server's error body.
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { Agent, type Dispatcher } from 'undici';
import {
  AuthError,
  EdgelogError,
  HttpStatusError,
  NetworkError,
  ResponseError,
  TimeoutError,
  WindowExpiredError,
  coerceError,
  type ErrorContext,
} from '../errors/index.js';
import { NO_METRICS, type RequestMetrics } from '../telemetry/events.js';
import { retryReason } from '../telemetry/labels.js';
import { redact, redactError } from '../redact.js';
import { describeBody, printable } from './describe-body.js';
import { requestPath } from './paths.js';
import { parseRetryAfter, retryDecision, type RetryPolicy } from './retry-timing.js';

export const WINDOW_EXPIRED_KEY = 'invalid_datetime_window.event_logs';

/** The default of `api.responseTimeout`: room for a large origin day on a slow link. */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 10 * 60_000;

export interface HttpOptions {
  dispatcher: Dispatcher;
  /** The dispatcher's cap on one answer (api.maxResponseBytes), named when an answer exceeds it. @defaultValue not said */
  maxResponseBytes?: number | undefined;
  retry: RetryPolicy;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /**
   * Bound on one attempt's whole answer, from sending the request to the last byte of its body (an
   * error body included). bodyTimeout only bounds the silence between two chunks, so without this a
   * body trickled a byte at a time would hold the request for ever. @defaultValue DEFAULT_RESPONSE_TIMEOUT_MS
   */
  responseTimeoutMs?: number;
  logger: Logger;
  /** Jitter source; tests pass a fixed one. @defaultValue Math.random */
  random?: () => number;
  /** @defaultValue Date.now */
  now?: () => number;
  /** Told of every attempt and retry. @defaultValue NO_METRICS */
  metrics?: RequestMetrics;
}

export interface DispatcherOptions {
  connectTimeoutMs: number;
  maxResponseBytes: number;
  /** Connections per origin. */
  connections: number;
}

/** The shared connection pool. Close it (`await dispatcher.close()`) when done. */
export function createDispatcher(opts: DispatcherOptions): Agent {
  return new Agent({
    connect: { timeout: opts.connectTimeoutMs },
    connections: opts.connections,
    maxResponseSize: opts.maxResponseBytes,
    keepAliveTimeout: 10_000,
  });
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** Safe-to-log form of the URL (secrets redacted). */
  displayUrl: string;
  context: ErrorContext;
  signal?: AbortSignal | undefined;
}

export interface JsonResponse {
  status: number;
  body: unknown;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export class HttpJson {
  private readonly random: () => number;
  private readonly now: () => number;
  private readonly metrics: RequestMetrics;
  private readonly responseTimeoutMs: number;

  constructor(private readonly opts: HttpOptions) {
    this.responseTimeoutMs = opts.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
    this.random = opts.random ?? Math.random;
    this.now = opts.now ?? Date.now;
    this.metrics = opts.metrics ?? NO_METRICS;
  }

  /** GETs `url` and returns its 2xx JSON body; retries what is retryable; throws an EdgelogError otherwise. */
  getJson(url: URL, opts: GetOptions): Promise<JsonResponse> {
    return this.get(url, opts, (body) => JSON.parse(Buffer.from(body).toString('utf8')) as unknown);
  }

  /**
   * GETs `url` and returns `decode(body)` of its 2xx body, inside the retry loop: a decode that throws
   * DecodeError('malformed-json') (a truncated body) is retried like a network error.
   */
  get<T>(
    url: URL,
    opts: GetOptions,
    decode: (body: ArrayBuffer) => T | Promise<T>,
  ): Promise<{ status: number; body: T }> {
    return this.withRetries(url, opts, async (res) => {
      const body = await res.arrayBuffer();
      try {
        return await decode(body);
      } catch (err) {
        // A decoder's failure to parse is about the answer (retried); anything else is not.
        if (err instanceof SyntaxError || typeof (err as { kind?: unknown }).kind === 'string') throw err;
        throw new ConsumerError(err);
      }
    });
  }

  /**
   * GETs `url` and hands its 2xx body, chunk by chunk as it arrives, to `consume`. A failure while
   * reading (a reset, a truncated document) retries the whole request: `consume` is then called again
   * with the new body and the attempt number, and must start over.
   */
  stream<T>(
    url: URL,
    opts: GetOptions,
    consume: (body: AsyncIterable<Buffer>, attempt: number) => Promise<T>,
  ): Promise<{ status: number; body: T }> {
    return this.withRetries(url, opts, (res, attempt) => consume(res.chunks(), attempt));
  }

  private async withRetries<T>(
    url: URL,
    opts: GetOptions,
    read: (res: WatchedBody, attempt: number) => Promise<T>,
  ): Promise<{ status: number; body: T }> {
    const started = this.now();
    const { deadlineMs } = this.opts.retry;
    const operation = opts.context.operation ?? 'unknown';
    for (let attempt = 1; ; attempt++) {
      // A monotonic clock: durations must not jump with the wall clock (nor stand still with a test's).
      const attemptStarted = performance.now();
      const took = () => (performance.now() - attemptStarted) / 1000;
      try {
        const remaining = Math.max(0, deadlineMs - (this.now() - started));
        const done = await this.attempt(url, opts, remaining, (res) => read(res, attempt));
        this.metrics.request(operation, done.status, took());
        return done;
      } catch (raw) {
        if (opts.signal?.aborted) throw raw; // the caller stopped us: not a failure to retry
        if (raw instanceof ConsumerError) throw raw.cause; // the reader's own failure (e.g. storing)
        const err = redactError(this.classify(raw, opts));
        this.metrics.request(operation, err instanceof HttpStatusError ? err.status : null, took());
        if (!err.retryable) throw err;
        const decision = retryDecision(this.opts.retry, {
          attempt,
          elapsedMs: this.now() - started,
          retryAfterMs: err instanceof HttpStatusError ? err.retryAfterMs : undefined,
          random: this.random(),
        });
        if (!decision.retry) {
          // Keep the error's type and body (a caller may still retry the job later); say why we stopped.
          err.message = `${err.message} (${decision.reason})`;
          throw err;
        }
        this.metrics.retry(operation, retryReason(err));
        // Routine (the retry policy is there for it): info, and `sync` counts them in its summary.
        this.opts.logger.info(
          { url: opts.displayUrl, attempt, delayMs: decision.delayMs, err: err.message },
          'request failed; retrying',
        );
        try {
          await sleep(decision.delayMs, undefined, opts.signal ? { signal: opts.signal } : {});
        } catch {
          throw this.classify(opts.signal?.reason ?? new Error('aborted'), opts);
        }
      }
    }
  }

  /**
   * One request. The deadline bounds the wait for the response headers (what is left of it after the
   * attempts before); a body that keeps arriving is bounded by bodyTimeout, undici's limit on the
   * silence between chunks, so a large day that streams for longer than the deadline still completes.
   * The whole answer, headers and body, is bounded by responseTimeout: a body that never stops arriving
   * (a byte at a time) ends there, and the attempt is retried like a timeout.
   */
  private async attempt<T>(
    url: URL,
    opts: GetOptions,
    remainingMs: number,
    read: (res: WatchedBody) => Promise<T>,
  ): Promise<{ status: number; body: T }> {
    const answer = new AbortController();
    const answerTimer = setTimeout(
      () =>
        answer.abort(
          new DeadlineError(
            `whole answer not received within the ${this.responseTimeoutMs} ms response timeout (api.responseTimeout)`,
          ),
        ),
      this.responseTimeoutMs,
    );
    try {
      return await this.answered(url, opts, remainingMs, answer.signal, read);
    } catch (err) {
      // undici ends the body with the abort's reason, but a reader may have wrapped it: say what it was.
      throw answer.signal.aborted ? answer.signal.reason : err;
    } finally {
      clearTimeout(answerTimer);
    }
  }

  /** attempt's work, under `answer` (the response timeout's signal). */
  private async answered<T>(
    url: URL,
    opts: GetOptions,
    remainingMs: number,
    answer: AbortSignal,
    read: (res: WatchedBody) => Promise<T>,
  ): Promise<{ status: number; body: T }> {
    const deadline = new AbortController();
    const timer = setTimeout(
      () =>
        deadline.abort(
          new DeadlineError(`no answer within the ${this.opts.retry.deadlineMs} ms request deadline`),
        ),
      remainingMs,
    );
    const signal = AbortSignal.any([deadline.signal, answer, ...(opts.signal ? [opts.signal] : [])]);
    let res: Dispatcher.ResponseData;
    try {
      // The dispatcher's own request takes the path as given (see paths.ts requestPath).
      res = await this.opts.dispatcher.request({
        origin: url.origin,
        path: requestPath(url),
        method: 'GET',
        headers: { accept: 'application/json', ...opts.headers },
        signal,
        headersTimeout: this.opts.headersTimeoutMs,
        bodyTimeout: this.opts.bodyTimeoutMs,
      });
    } catch (err) {
      throw deadline.signal.aborted ? deadline.signal.reason : err;
    } finally {
      clearTimeout(timer);
    }
    const context = { ...opts.context, url: opts.displayUrl };
    const status = res.statusCode;
    if (status < 200 || status > 299) {
      const text = redact(await res.body.text());
      throw statusError(status, text, res.headers['retry-after'], context, this.now());
    }
    const headers = {
      contentType: headerText(res.headers['content-type']),
      contentEncoding: headerText(res.headers['content-encoding']),
    };
    const seen = new WatchedBody(res.body);
    try {
      return { status, body: await read(seen) };
    } catch (cause) {
      // Leave nothing unread on the connection when the reader gave up early.
      if (!res.body.destroyed) res.body.destroy();
      const decodeKind = (cause as { kind?: unknown }).kind;
      if (cause instanceof SyntaxError || decodeKind === 'malformed-json') {
        const what = describeBody(seen.start, headers, seen.size);
        throw new ResponseError(
          'malformed-json',
          `${opts.displayUrl}: HTTP ${status} body is not the JSON expected (${what}): ${printable((cause as Error).message)}`,
          { context: { ...context, status }, cause },
        );
      }
      if (decodeKind === 'invalid-shape') {
        // Only a page's outer shape fails a whole answer (entries are checked one by one): worth a retry.
        throw new ResponseError('invalid-shape', `${opts.displayUrl}: ${(cause as Error).message}`, {
          context: { ...context, status },
          cause,
          retryable: true,
        });
      }
      if (cause instanceof ConsumerError || isTransportError(cause)) throw cause;
      // Anything else is the reader's own failure (storing a batch, say), not the request's.
      throw new ConsumerError(cause);
    }
  }

  private classify(raw: unknown, opts: GetOptions): EdgelogError {
    if (raw instanceof EdgelogError) return raw;
    const err = coerceError(raw);
    const context = { ...opts.context, url: opts.displayUrl };
    if (opts.signal?.aborted) {
      return new EdgelogError(`${opts.displayUrl}: aborted`, { context, cause: opts.signal.reason ?? err });
    }
    if (err instanceof DeadlineError) {
      return new TimeoutError(`${opts.displayUrl}: ${err.message}`, { retryable: true, context, cause: err });
    }
    const code = (err as { code?: unknown }).code;
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return new ResponseError(
        'too-large',
        `${opts.displayUrl}: response larger than api.maxResponseBytes` +
          (this.opts.maxResponseBytes === undefined ? '' : ` (${this.opts.maxResponseBytes} bytes)`) +
          '; raise it if the API answers that much at once',
        {
          context,
          cause: err,
        },
      );
    }
    if (typeof code === 'string' && TIMEOUT_CODES.has(code)) {
      return new TimeoutError(`${opts.displayUrl}: ${err.message}`, { retryable: true, context, cause: err });
    }
    return new NetworkError(`${opts.displayUrl}: ${redact(err.message)}`, {
      retryable: true,
      context,
      cause: err,
    });
  }
}

/** The request deadline passed before the response headers came, or the response timeout before its end. */
class DeadlineError extends Error {
  override name = 'DeadlineError';
}

/** Wraps what a body reader threw that is not about the request, so it is neither retried nor renamed. */
class ConsumerError extends Error {
  constructor(override readonly cause: unknown) {
    super('the body reader failed');
  }
}

const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/** undici's errors, and the socket errors of a body cut short: failures of the request, retried. */
function isTransportError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    (typeof code === 'string' && (code.startsWith('UND_ERR') || SOCKET_CODES.has(code))) ||
    (err as { name?: unknown } | null)?.name === 'AbortError'
  );
}

function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * A response body as its reader consumes it, whole or chunk by chunk, remembering its first bytes and
 * size for error messages. (Listening for 'data' instead would switch the stream to flowing mode and
 * defeat the backpressure an origin day's streaming relies on.)
 */
class WatchedBody {
  start: Uint8Array = new Uint8Array(0);
  size = 0;

  constructor(private readonly body: Dispatcher.ResponseData['body']) {}

  async arrayBuffer(): Promise<ArrayBuffer> {
    const bytes = await this.body.arrayBuffer();
    this.note(new Uint8Array(bytes));
    return bytes;
  }

  async *chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of this.body as AsyncIterable<Buffer>) {
      this.note(chunk);
      yield chunk;
    }
  }

  private note(chunk: Uint8Array): void {
    if (this.start.length < 64)
      this.start = Buffer.concat([this.start, chunk.subarray(0, 64 - this.start.length)]);
    this.size += chunk.length;
  }
}

function parseMaybeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The errorKey of an error body, wherever the shapes of API.md section 7 put it. */
export function errorKeyOf(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const b = body as {
    errorResponse?: { errorKey?: unknown };
    error?: { errorKey?: unknown };
    errorKey?: unknown;
  };
  const key = b.errorResponse?.errorKey ?? b.error?.errorKey ?? b.errorKey;
  return typeof key === 'string' ? key : undefined;
}

function summary(body: unknown): string {
  if (typeof body === 'string') return printable(body.slice(0, 200));
  if (typeof body !== 'object' || body === null) return '';
  const b = body as Record<string, unknown>;
  const key = errorKeyOf(body);
  const text = [key, b.title, b.detail, (b.errorResponse as { message?: unknown } | undefined)?.message]
    .filter((x) => typeof x === 'string' && x.length > 0)
    .join(': ');
  return text || JSON.stringify(body).slice(0, 200);
}

function statusError(
  status: number,
  text: string,
  retryAfter: string | string[] | undefined,
  context: ErrorContext,
  nowMs: number,
): HttpStatusError {
  const body = parseMaybeJson(text);
  const detail = summary(body);
  const message = `${context.url}: HTTP ${status}${detail ? ` ${detail}` : ''}`;
  const opts = { status, body, context, retryAfterMs: parseRetryAfter(retryAfter, nowMs) };
  if (errorKeyOf(body) === WINDOW_EXPIRED_KEY) {
    return new WindowExpiredError(`${message} (the date is outside the API's retention window)`, opts);
  }
  if (status === 401 || status === 403) {
    const hint =
      context.operation === 'videoPlayData'
        ? 'the video token is missing, wrong or expired'
        : 'check the access key';
    return new AuthError(`${message} (${hint})`, opts);
  }
  return new HttpStatusError(message, opts);
}
