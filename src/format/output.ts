// Where command output goes: an async sink that waits when the reader is slower than the query.
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { EdgelogError } from '../errors/edgelog-error.js';

export interface Output {
  /** Resolves when the text is accepted and more may be written. */
  write(text: string): Promise<void>;
}

/** The reader went away (e.g. `edgelog query … | head`); not a failure of the query. */
export class OutputClosedError extends EdgelogError {
  override name = 'OutputClosedError';
}

/** Writes to a stream, honouring backpressure; an EPIPE-style error closes the output instead of crashing. */
export function streamOutput(stream: Writable): { write(chunk: string | Uint8Array): Promise<void> } {
  let failure: Error | null = null;
  // A pipe closed by the reader emits 'error' asynchronously; without a listener the process would crash.
  stream.on('error', (err) => (failure ??= err));
  const closed = () => new OutputClosedError('output closed', { cause: failure });
  return {
    async write(text) {
      if (failure) throw closed();
      if (stream.write(text)) return;
      try {
        await once(stream, 'drain');
      } catch {
        throw closed();
      }
    },
  };
}

/** The slice of process.stdout the commands use; tests pass a collecting stream. */
export type Stdout = Writable & { isTTY?: boolean; columns?: number };
