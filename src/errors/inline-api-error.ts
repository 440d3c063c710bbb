import { EdgelogError, type ErrorContext } from './edgelog-error.js';

/** A 2xx answer that carries an inline `error`/`errorResponse` object with `success: false`. */
export class InlineApiError extends EdgelogError {
  override name = 'InlineApiError';
  readonly status: number;
  readonly errorKey: string | null;
  readonly apiMessage: string | null;

  constructor(opts: {
    status: number;
    errorKey: string | null;
    apiMessage: string | null;
    context: ErrorContext;
  }) {
    const what =
      [opts.errorKey, opts.apiMessage].filter(Boolean).join(': ') || 'no errorKey or message given';
    super(`API reported failure inside HTTP ${opts.status}: ${what}`, {
      retryable: false,
      context: { ...opts.context, status: opts.status },
    });
    this.status = opts.status;
    this.errorKey = opts.errorKey;
    this.apiMessage = opts.apiMessage;
  }
}
