import { EdgelogError } from './edgelog-error.js';

/** Another job holds this day's lease; try again shortly. */
export class LeaseBusyError extends EdgelogError {
  override name = 'LeaseBusyError';
  constructor(
    readonly owner: string,
    readonly untilMs: number,
    context: ConstructorParameters<typeof EdgelogError>[1] = {},
  ) {
    super(`the day is being fetched by ${owner}`, { retryable: true, ...context });
  }
}
