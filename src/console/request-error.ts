// A request the console refuses or cannot answer, with the HTTP status it answers with. Its message is
// shown to the client (problem details), so it never holds a secret or a stack.
import { EdgelogError } from '../errors/edgelog-error.js';

export class ConsoleRequestError extends EdgelogError {
  override name = 'ConsoleRequestError';
  readonly status: number;
  /** The problem's title: a short phrase per kind of failure. */
  readonly title: string;

  constructor(status: number, title: string, detail: string, opts: { cause?: unknown } = {}) {
    super(detail, { retryable: status >= 500, ...opts });
    this.status = status;
    this.title = title;
  }
}

/** A parameter of the request is missing or malformed (400). */
export const badRequest = (detail: string): ConsoleRequestError =>
  new ConsoleRequestError(400, 'bad request', detail);
