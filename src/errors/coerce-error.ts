/** Turns any thrown value into an Error, so callers can rely on `.message` and `.stack`. */
export function coerceError(err: unknown): Error {
  if (err instanceof Error) return err;
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') {
    return Object.assign(new Error(err.message), err);
  }
  return new Error(typeof err === 'string' ? err : `Non-error thrown: ${String(err)}`);
}

/** One line describing an error and its causes, for CLI output and ledger rows. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    const e = coerceError(current);
    const code = (e as { code?: unknown }).code;
    const text = typeof code === 'string' && !e.message.includes(code) ? `${e.message} (${code})` : e.message;
    // A message that already quotes its cause's is not repeated.
    if (!parts.some((p) => p.includes(e.message))) parts.push(text);
    current = e.cause;
  }
  return parts.join(': ');
}
