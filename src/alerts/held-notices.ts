// Pure: what a silence does to a transition's notice. A silenced alert keeps its state but its notices
// are held; the state row remembers the last status receivers were told (`notified`), so that once no
// silence holds, one notice tells them what changed meanwhile: `firing` if it fires now and they last
// heard otherwise, `resolved` if they last heard `firing` and it no longer fires. A change that came and
// went inside the silence leaves them where they were: no notice.
import type { AlertState, Transition } from './state-machine.js';

/** The last status sent to receivers (null: none since the alert last did not fire). */
export type Notified = 'firing' | 'resolved' | null;

export interface HeldDecision {
  next: AlertState;
  notify: 'firing' | 'resolved' | null;
  notified: Notified;
}

/**
 * @param t - the state machine's transition
 * @param notified - the stored last status sent; undefined for a row saved before silences existed,
 *   read as "what the state says" (a firing row was notified firing)
 */
export function holdOrRelease(
  t: Transition,
  prev: AlertState | undefined,
  notified: Notified | undefined,
  silenced: boolean,
  now: number,
): HeldDecision {
  const told: Notified = notified !== undefined ? notified : prev?.state === 'firing' ? 'firing' : null;
  if (silenced) return { next: t.next, notify: null, notified: told };
  // Resolved, but receivers never heard it fire (it fired only inside the silence): nothing to say.
  if (t.notify === 'resolved' && told !== 'firing') return { next: t.next, notify: null, notified: told };
  if (t.notify !== null) return { next: t.next, notify: t.notify, notified: t.notify };
  const fires = t.next.state === 'firing';
  if (fires && told !== 'firing')
    return { next: { ...t.next, lastNotifiedAt: now }, notify: 'firing', notified: 'firing' };
  if (!fires && told === 'firing')
    return { next: { ...t.next, lastNotifiedAt: now }, notify: 'resolved', notified: 'resolved' };
  return { next: t.next, notify: null, notified: told };
}

/**
 * When a notice's alert started and ended: firing since the state did, resolved now, or, for a
 * resolution held by a silence, when the state resolved.
 */
export function noticeSpan(
  notify: 'firing' | 'resolved',
  next: AlertState,
  prev: AlertState | undefined,
  now: number,
): { startsAt: number; endsAt: number | null } {
  return {
    startsAt: notify === 'firing' ? next.since : (prev?.since ?? now),
    endsAt: notify === 'resolved' ? (next.state === 'resolved' ? next.since : now) : null,
  };
}
