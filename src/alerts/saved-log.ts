// The log line of an alert's saved evaluation, the same for zone and sql rules: the notice it sent, or
// the change a silence held (said once, when the state moves, not at every evaluation it stays held).
import type { Logger } from '../logger.js';
import type { AlertState } from './state-machine.js';

export function logSaved(
  logger: Logger,
  /** Names the alert: its rule and its zone or series. */
  alert: Record<string, unknown>,
  hooks: readonly string[],
  notify: 'firing' | 'resolved' | null,
  silencedBy: readonly string[],
  next: AlertState,
  prev: AlertState | undefined,
): void {
  if (notify) logger.info({ ...alert, status: notify, hooks }, `alert ${notify}`);
  else if (silencedBy.length > 0 && next.state !== prev?.state)
    logger.info(
      { ...alert, state: next.state, silences: silencedBy },
      'alert changed while silenced: its notice is held',
    );
}
