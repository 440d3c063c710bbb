// Errors across a thread boundary. A structured clone keeps an Error's message and stack but not its
// class or fields, and callers decide on both (instanceof WindowExpiredError, `retryable`, `status`).
import { coerceError } from './coerce-error.js';
import * as errors from './index.js';

/** Classes an error is rebuilt as, by name: every error class of edgelog's (index.ts), and two built-ins. */
const CLASSES: Record<string, { prototype: Error }> = Object.fromEntries(
  [...Object.values(errors), TypeError, RangeError]
    .filter((c): c is ErrorConstructor => typeof c === 'function' && c.prototype instanceof Error)
    .map((c) => [c.name, c]),
);

/** An error as plain data: what postMessage can carry. */
export interface TransferredError {
  name: string;
  message: string;
  stack: string | undefined;
  /** Own enumerable fields (name, retryable, context, status, code, …). */
  fields: Record<string, unknown>;
  cause?: TransferredError;
}

function cloneable(value: unknown): unknown {
  try {
    return structuredClone(value);
  } catch {
    return String(value);
  }
}

export function toTransferable(err: unknown, depth = 0): TransferredError {
  const e = coerceError(err);
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(e)) if (key !== 'cause') fields[key] = cloneable(value);
  const out: TransferredError = { name: e.name, message: e.message, stack: e.stack, fields };
  if (e.cause !== undefined && depth < 5) out.cause = toTransferable(e.cause, depth + 1);
  return out;
}

/** The error again, of its class when it is one of edgelog's (so instanceof and its fields hold). */
export function fromTransferable(t: TransferredError): Error {
  const err = Object.create((CLASSES[t.name] ?? Error).prototype) as Error;
  Object.assign(err, t.fields);
  Object.defineProperty(err, 'message', { value: t.message, writable: true, configurable: true });
  Object.defineProperty(err, 'stack', { value: t.stack, writable: true, configurable: true });
  if (t.cause)
    Object.defineProperty(err, 'cause', {
      value: fromTransferable(t.cause),
      writable: true,
      configurable: true,
    });
  if (!(t.name in CLASSES) && t.name !== 'Error') err.name = t.name;
  return err;
}
