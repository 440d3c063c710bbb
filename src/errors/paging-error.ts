import { EdgelogError } from './edgelog-error.js';

/**
 * Paging cannot go on safely: a repeating token, an empty page that claims more data, more claimed with
 * no token (or one that cannot be sent), or the page cap.
 */
export class PagingError extends EdgelogError {
  override name = 'PagingError';
  readonly reason:
    'token-loop' | 'empty-page-with-more' | 'page-cap' | 'more-without-token' | 'unusable-token';

  constructor(
    reason: PagingError['reason'],
    message: string,
    opts: ConstructorParameters<typeof EdgelogError>[1] = {},
  ) {
    super(message, { ...opts, retryable: false });
    this.reason = reason;
  }
}
