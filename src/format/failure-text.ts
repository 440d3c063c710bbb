// Pure: a failure as edgelog shows it to a person: its message and causes (errors/coerce-error.ts),
// secrets redacted, and escaped for the terminal (the message may quote the API or the archive), the
// lines of a multi-line message kept.
import { describeError, EdgelogError } from '../errors/index.js';
import { redact } from '../redact.js';
import { safeText } from './terminal-text.js';

/** `edgelog: <message>`, or `edgelog: unexpected error: <message>` for what is not edgelog's own. */
export function failureText(err: unknown): string {
  const prefix = err instanceof EdgelogError ? '' : 'unexpected error: ';
  return `edgelog: ${prefix}${safeText(redact(describeError(err)), { newlines: true })}`;
}
