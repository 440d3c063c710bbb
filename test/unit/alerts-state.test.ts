import { describe, expect, it } from 'vitest';
import { transition, type AlertState } from '../../src/alerts/state-machine.js';

const opts = { forMs: 0, renotifyMs: 4 * 3_600_000 };
const s = (state: AlertState['state'], since = 0, lastNotifiedAt: number | null = null): AlertState => ({
  state,
  since,
  lastNotifiedAt,
  firstEvaluatedAt: 0,
});

describe('alert state machine', () => {
  it.each([
    ['first evaluation, condition false', undefined, false, 1000, opts, 'inactive', null],
    ['first evaluation, condition true', undefined, true, 1000, opts, 'firing', 'firing'],
    ['unknown keeps inactive', s('inactive'), null, 1000, opts, 'inactive', null],
    ['inactive → firing', s('inactive'), true, 1000, opts, 'firing', 'firing'],
    ['firing stays, no re-notify before the interval', s('firing', 0, 500), true, 1000, opts, 'firing', null],
    [
      'firing re-notifies after the interval',
      s('firing', 0, 0),
      true,
      4 * 3_600_000,
      opts,
      'firing',
      'firing',
    ],
    ['firing → resolved with a notice', s('firing', 0, 0), false, 1000, opts, 'resolved', 'resolved'],
    ['unknown never resolves a firing alert', s('firing', 0, 500), null, 1000, opts, 'firing', null],
    ['resolved stays quiet', s('resolved', 0, 0), false, 1000, opts, 'resolved', null],
    ['resolved → firing again', s('resolved', 0, 0), true, 1000, opts, 'firing', 'firing'],
    [
      'with `for`: inactive → pending, no notice',
      s('inactive'),
      true,
      1000,
      { ...opts, forMs: 600_000 },
      'pending',
      null,
    ],
    [
      'pending → firing once `for` has passed',
      s('pending', 1000),
      true,
      601_000,
      { ...opts, forMs: 600_000 },
      'firing',
      'firing',
    ],
    [
      'pending stays pending before',
      s('pending', 1000),
      true,
      300_000,
      { ...opts, forMs: 600_000 },
      'pending',
      null,
    ],
    [
      'pending → inactive when it clears, no notice',
      s('pending', 1000),
      false,
      300_000,
      { ...opts, forMs: 600_000 },
      'inactive',
      null,
    ],
  ] as const)('%s', (_n, prev, condition, now, o, state, notify) => {
    const t = transition(prev, condition, now, o);
    expect(t.next.state).toBe(state);
    expect(t.notify).toBe(notify);
    if (notify) expect(t.next.lastNotifiedAt).toBe(now);
  });

  it('firing keeps its start time across re-notifications', () => {
    const t = transition(s('firing', 123, 0), true, 5 * 3_600_000, opts);
    expect(t.next.since).toBe(123);
  });
});
