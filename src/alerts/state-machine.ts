// Pure: an alert's life — inactive → (pending →) firing → resolved — and when to notify.

export type AlertStateName = 'inactive' | 'pending' | 'firing' | 'resolved';

export interface AlertState {
  state: AlertStateName;
  /** When the current state began (ms). For firing, the alert's startsAt. */
  since: number;
  lastNotifiedAt: number | null;
  /** First evaluation of this rule for this zone (ms). */
  firstEvaluatedAt: number;
}

/** true: the condition holds; false: it does not; null: cannot tell now (keep the state). */
export type Condition = boolean | null;

export interface Transition {
  next: AlertState;
  notify: 'firing' | 'resolved' | null;
}

export function transition(
  prev: AlertState | undefined,
  condition: Condition,
  now: number,
  opts: { forMs: number; renotifyMs: number },
): Transition {
  const current: AlertState = prev ?? {
    state: 'inactive',
    since: now,
    lastNotifiedAt: null,
    firstEvaluatedAt: now,
  };
  const fire = (): Transition => ({
    next: { ...current, state: 'firing', since: now, lastNotifiedAt: now },
    notify: 'firing',
  });
  const stay = (): Transition => ({ next: current, notify: null });
  const renotifyDue = current.lastNotifiedAt === null || now - current.lastNotifiedAt >= opts.renotifyMs;

  if (condition === null) {
    if (current.state === 'firing' && renotifyDue)
      return { next: { ...current, lastNotifiedAt: now }, notify: 'firing' };
    return stay();
  }
  if (condition) {
    switch (current.state) {
      case 'inactive':
      case 'resolved':
        return opts.forMs <= 0
          ? fire()
          : { next: { ...current, state: 'pending', since: now }, notify: null };
      case 'pending':
        return now - current.since >= opts.forMs ? fire() : stay();
      case 'firing':
        return renotifyDue ? { next: { ...current, lastNotifiedAt: now }, notify: 'firing' } : stay();
    }
  }
  switch (current.state) {
    case 'firing':
      return { next: { ...current, state: 'resolved', since: now, lastNotifiedAt: now }, notify: 'resolved' };
    case 'pending':
      return { next: { ...current, state: 'inactive', since: now }, notify: null };
    default:
      return stay();
  }
}
