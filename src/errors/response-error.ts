import { EdgelogError } from './edgelog-error.js';

/**
 * A 2xx body that cannot be used: not JSON (retryable: a truncated body is usually a transient fault),
 * too large (permanent), or not of the documented shape (the message names the field path; permanent,
 * unless the maker says otherwise: a log page whose outer shape is broken is asked for again).
 */
export class ResponseError extends EdgelogError {
  override name = 'ResponseError';
  readonly kind: 'malformed-json' | 'too-large' | 'invalid-shape';

  constructor(
    kind: ResponseError['kind'],
    message: string,
    opts: ConstructorParameters<typeof EdgelogError>[1] = {},
  ) {
    super(message, { ...opts, retryable: opts.retryable ?? kind === 'malformed-json' });
    this.kind = kind;
  }
}
