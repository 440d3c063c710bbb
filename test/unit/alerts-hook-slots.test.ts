import { describe, expect, it } from 'vitest';
import { busyHookDelayMs, HookSlots, PER_HOOK_IN_FLIGHT } from '../../src/alerts/hook-slots.js';

describe('HookSlots', () => {
  it('lets each hook have perHook deliveries in flight, independently of the others', () => {
    const slots = new HookSlots(2);
    expect(slots.tryTake('hang')).toBe(true);
    expect(slots.tryTake('hang')).toBe(true);
    expect(slots.tryTake('hang')).toBe(false); // full: the job goes back to the queue
    expect(slots.tryTake('ops')).toBe(true); // another hook is not affected
    expect(slots.busy()).toEqual({ hang: 2, ops: 1 });
    slots.release('hang');
    expect(slots.tryTake('hang')).toBe(true);
    slots.release('ops');
    expect(slots.busy()).toEqual({ hang: 2 });
  });

  it.each([
    { hooks: 0, perHook: 2, concurrency: 2 },
    { hooks: 1, perHook: 2, concurrency: 2 },
    { hooks: 2, perHook: 2, concurrency: 4 },
    { hooks: 5, perHook: 1, concurrency: 5 },
  ])('$hooks hooks × $perHook per hook → $concurrency worker slots', ({ hooks, perHook, concurrency }) => {
    expect(new HookSlots(perHook).concurrency(hooks)).toBe(concurrency);
  });

  it('rejects a per-hook bound below 1', () => {
    expect(() => new HookSlots(0)).toThrow(RangeError);
    expect(new HookSlots().perHook).toBe(PER_HOOK_IN_FLIGHT);
  });

  it.each([
    { random: 0, delayMs: 1_000 },
    { random: 0.5, delayMs: 1_500 },
    { random: 0.9999, delayMs: 1_999 },
  ])('a busy hook is tried again after $delayMs ms (random $random)', ({ random, delayMs }) => {
    expect(busyHookDelayMs(random)).toBe(delayMs);
  });
});
