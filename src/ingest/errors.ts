import { EdgelogError } from '../errors/index.js';

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

/** The pass was asked to stop (shutdown or cancel) between pages; its checkpoint is saved. */
export class InterruptedError extends EdgelogError {
  override name = 'InterruptedError';
  constructor(context: ConstructorParameters<typeof EdgelogError>[1] = {}) {
    super('interrupted; the checkpoint is saved and the next run resumes from it', {
      retryable: true,
      ...context,
    });
  }
}
