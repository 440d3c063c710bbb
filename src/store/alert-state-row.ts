// Pure: alert_state's `notified` column as both stores write it.
import type { StoredAlertState } from './store.js';

/**
 * What a save writes to `notified`: the state's own, or, from a caller that does not track it, what
 * the state implies (a firing alert was notified firing), so that no notice is sent again for it.
 */
export function notifiedColumn(to: StoredAlertState): 'firing' | 'resolved' | null {
  if (to.notified !== undefined) return to.notified;
  return to.state === 'firing' ? 'firing' : null;
}
