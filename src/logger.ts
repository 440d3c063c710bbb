// The one logger. JSON lines on stderr (stdout is the CLI's own output), secrets redacted by path.
import pino, { type Logger } from 'pino';
import { redact } from './redact.js';

export type { Logger } from 'pino';

/** Paths that could carry the access key or a hook secret; pino's redact paths are case-sensitive. */
export const REDACT_PATHS = [
  'accessKey',
  '*.accessKey',
  'api.accessKey',
  'config.api.accessKey',
  'headers.AccessKey',
  'headers.accesskey',
  '*.headers.AccessKey',
  '*.headers.accesskey',
  'secret',
  '*.secret',
];

export interface LoggerOptions {
  level?: string;
  /** Where lines go. @defaultValue stderr */
  destination?: pino.DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  return pino(
    {
      level: opts.level ?? 'info',
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: pino.stdSerializers.err },
      // The last line of defence: a secret quoted anywhere in a line (an echoed key in an error message).
      hooks: { streamWrite: redact },
    },
    // Synchronous: edgelog logs per day and per job, not per entry, and no line may be lost to a crash.
    opts.destination ?? pino.destination({ fd: 2, sync: true }),
  );
}

/** A logger that drops everything, for tests and library callers that pass none. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
