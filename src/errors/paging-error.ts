import { EdgelogError } from './edgelog-error.js';

/** Paging cannot go on safely: a repeating token, an empty page that claims more data, or the page cap. */
export class PagingError extends EdgelogError {
  override name = 'PagingError';
  readonly reason: 'token-loop' | 'empty-page-with-more' | 'page-cap';

  constructor(
    reason: PagingError['reason'],
    message: string,
    opts: ConstructorParameters<typeof EdgelogError>[1] = {},
  ) {
    super(message, { ...opts, retryable: false });
    this.reason = reason;
  }
}
