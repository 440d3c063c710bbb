import { EdgelogError } from './edgelog-error.js';

/** The configuration is missing or invalid; the message names the key and the fix. */
export class ConfigError extends EdgelogError {
  override name = 'ConfigError';
  constructor(message: string, opts: { cause?: unknown } = {}) {
    super(message, { retryable: false, ...opts });
  }
}
