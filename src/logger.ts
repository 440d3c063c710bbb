// The one logger, on stderr (stdout is the CLI's own output; under PM2, split: see EDGELOG_LOG_SPLIT),
// secrets redacted by path. Off a terminal,
// JSON lines; on a terminal, short human lines (src/format/log-line.ts) written synchronously, like the
// JSON ones, so that neither form loses a line to a crash.
import { createRequire } from 'node:module';
import type pinoModule from 'pino';
import type { DestinationStream, Logger } from 'pino';
import { colorWanted, formatLogText } from './format/log-line.js';
import { stderrLine, type RedrawnLine } from './format/progress.js';
import { safeJson } from './format/terminal-text.js';
import { redact } from './redact.js';

export type { Logger } from 'pino';

// pino (about 15 ms of module loading) is required on first use, not at import: `edgelog query` and
// `--help` never log, and this module sits on their import path.
const require = createRequire(import.meta.url);
const loadPino = () => require('pino') as typeof pinoModule;

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
  /** Where lines go; set, it receives pino's JSON lines whatever `pretty` says. @defaultValue stderr */
  destination?: DestinationStream;
  /** Human-readable lines instead of JSON. @defaultValue whether stderr is a terminal */
  pretty?: boolean;
  /** Read for NO_COLOR. @defaultValue process.env */
  env?: NodeJS.ProcessEnv;
}

export function createLogger(opts: LoggerOptions = {}): Logger {
  const pino = loadPino();
  const level = opts.level ?? 'info';
  const pretty = opts.pretty ?? process.stderr.isTTY === true;
  // Synchronous: edgelog logs per day and per job, not per entry, and no line may be lost to a crash.
  const stderr = () => pino.destination({ fd: 2, sync: true });
  const env = opts.env ?? process.env;
  // EDGELOG_LOG_SPLIT=1 (ecosystem.config.cjs sets it): below error on stdout, errors on stderr, so that
  // PM2's out file holds the log and its error file (shown in red) the errors alone.
  const split =
    env.EDGELOG_LOG_SPLIT === '1'
      ? pino.multistream(
          [
            { level: 'trace', stream: pino.destination({ fd: 1, sync: true }) },
            { level: 'error', stream: stderr() },
          ],
          { dedupe: true },
        )
      : undefined;
  const destination =
    opts.destination ??
    split ??
    (pretty
      ? prettyDestination(stderr(), {
          color: colorWanted(env),
          stack: level === 'debug' || level === 'trace',
          line: stderrLine,
        })
      : stderr());
  return pino(
    {
      level,
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      serializers: { err: pino.stdSerializers.err },
      // The last line of defence: a secret quoted anywhere in a line (an echoed key in an error message)
      // is scrubbed; then what JSON leaves raw and a terminal acts on (C1, bidi controls, U+2028/2029 in
      // an archived label: `pm2 logs` shows the lines) is escaped as the commands' JSON output escapes it.
      // Redaction first: a secret's JSON form is matched as JSON.stringify writes it.
      hooks: { streamWrite: (line) => safeJson(redact(line)) },
    },
    destination,
  );
}

/**
 * A destination that turns each JSON line pino writes into a human line and passes it on to `out`;
 * with `line`, the redrawn line on the same terminal (progress) is cleared first and drawn again after.
 */
export function prettyDestination(
  out: DestinationStream & { flush?: (cb?: (err?: Error) => void) => void },
  opts: { color: boolean; stack: boolean; line?: RedrawnLine },
): DestinationStream & { flush: (cb?: (err?: Error) => void) => void } {
  const write = (text: string) => void out.write(text);
  return {
    write: (json: string) => {
      const text = formatLogText(json, opts);
      if (opts.line) opts.line.around(() => write(text));
      else write(text);
    },
    // logger.flush() reaches the file descriptor's stream through this.
    flush: (cb) => (out.flush ? out.flush(cb) : cb?.()),
  };
}

/** A logger that drops everything, for tests and library callers that pass none. */
export function silentLogger(): Logger {
  return loadPino()({ level: 'silent' });
}

const LEVELS: Record<number, 'trace' | 'debug' | 'info' | 'warn' | 'error' | 'fatal'> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/**
 * A JSON line another thread or process's logger wrote (its destination posts lines), logged again by
 * `logger`: one stream of lines, one format and one redaction, whoever wrote them.
 */
export function relayLogLine(logger: Logger, line: string, from: string): void {
  try {
    const { level, msg, time: _t, pid: _p, ...fields } = JSON.parse(line) as Record<string, unknown>;
    logger[LEVELS[Number(level)] ?? 'info'](fields, typeof msg === 'string' ? msg : '');
  } catch {
    logger.warn({ line }, `unreadable log line from ${from}`);
  }
}
