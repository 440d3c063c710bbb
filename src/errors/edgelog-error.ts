/** Where a failure happened; every field is optional and none of them ever holds a secret. */
export interface ErrorContext {
  /** The API operation, e.g. `shieldEventLogs`. */
  operation?: string;
  /** The request URL with secret query parameters redacted. */
  url?: string;
  status?: number;
  source?: string;
  zone?: number;
  /** A UTC day, `YYYY-MM-DD`. */
  date?: string;
  page?: number;
}

/**
 * Root of edgelog's error hierarchy. `retryable` sorts failures: a retryable one may succeed if the same
 * thing is tried again later (network, 5xx, 429); a permanent one will not (401, validation, bad input),
 * and a job turns it into BullMQ's UnrecoverableError.
 */
export class EdgelogError extends Error {
  override name = 'EdgelogError';
  readonly retryable: boolean;
  readonly context: ErrorContext;

  constructor(message: string, opts: { retryable?: boolean; context?: ErrorContext; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.retryable = opts.retryable ?? false;
    this.context = opts.context ?? {};
  }

  /** Returns a copy of this error's context merged with more context (the error itself is not changed). */
  withContext(extra: ErrorContext): ErrorContext {
    return { ...this.context, ...extra };
  }
}
