// A read-only statement's bound, enforced from outside its session. statement_timeout is a setting the
// statement may change itself (`set_config('statement_timeout', '0', false)` inside it lifted --timeout
// for every read after it), and a client that is stopped leaves the server running the statement,
// holding its snapshot. So a second connection cancels the backend (pg_cancel_backend: a role may cancel
// its own sessions) once the bound has passed, or at once when the caller stops.
import pg from 'pg';

/** Past statement_timeout, how long the watchdog waits: the server's own timeout normally ends it first. */
export const CANCEL_GRACE_MS = 500;

/** Why a statement was cancelled from outside: its time bound passed, or the caller stopped. */
export type CancelReason = 'timeout' | 'stopped';

export class ServerCancel {
  private reason: CancelReason | null = null;
  private timer: NodeJS.Timeout | undefined;
  private cancelling: Promise<void> | null = null;
  private readonly onAbort = () => this.cancel('stopped');

  /**
   * @param config - how to connect (the same role as the session's)
   * @param pid - the session's backend (pg_backend_pid())
   */
  constructor(
    private readonly config: pg.ClientConfig,
    private readonly pid: number,
    private readonly signal?: AbortSignal,
  ) {
    if (signal?.aborted) this.cancel('stopped');
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Why the session's statement was cancelled from outside (null: it was not). */
  cancelled(): CancelReason | null {
    return this.reason;
  }

  /** Runs one statement with a cancel armed `timeoutMs` (and the grace) after it starts. */
  async bounded<T>(timeoutMs: number | null, statement: () => Promise<T>): Promise<T> {
    if (timeoutMs !== null && timeoutMs > 0)
      this.timer = setTimeout(() => this.cancel('timeout'), timeoutMs + CANCEL_GRACE_MS);
    try {
      return await statement();
    } finally {
      clearTimeout(this.timer);
      // The error the statement ends with is read knowing whether it was cancelled from here.
      await this.cancelling;
    }
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }

  private cancel(reason: CancelReason): void {
    if (this.reason !== null) return;
    this.reason = reason;
    this.cancelling = cancelBackend(this.config, this.pid);
  }
}

async function cancelBackend(config: pg.ClientConfig, pid: number): Promise<void> {
  const client = new pg.Client({
    ...config,
    application_name: 'edgelog cancel',
    connectionTimeoutMillis: 5_000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT pg_cancel_backend($1)', [pid]);
  } catch {
    // The server is away, or refused: the statement's own connection fails or ends with it.
  } finally {
    await client.end().catch(() => {});
  }
}
