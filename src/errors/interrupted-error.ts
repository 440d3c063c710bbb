import { EdgelogError } from './edgelog-error.js';

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
