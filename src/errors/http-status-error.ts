import { EdgelogError, type ErrorContext } from './edgelog-error.js';

/**
 * The API answered with a non-2xx status. `body` is the parsed error body when it was JSON (one of the
 * shapes of API.md section 7: `{statusCode}`, a problem detail, or a model-state object), else its text.
 */
export class HttpStatusError extends EdgelogError {
  override name = 'HttpStatusError';
  readonly status: number;
  readonly body: unknown;
  /** Delay the server asked for (Retry-After), in milliseconds, when it sent one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    opts: { status: number; body: unknown; retryAfterMs?: number; context: ErrorContext; cause?: unknown },
  ) {
    const retryable = opts.status === 429 || opts.status === 408 || opts.status >= 500;
    super(message, { retryable, context: { ...opts.context, status: opts.status }, cause: opts.cause });
    this.status = opts.status;
    this.body = opts.body;
    this.retryAfterMs = opts.retryAfterMs;
  }
}
