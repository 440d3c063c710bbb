import { describe, expect, it } from 'vitest';
import { busyShare, cpuTimes } from '../../bench/machine-cpu.js';

describe('bench: machine busy share', () => {
  it('is the non-idle, non-iowait share of the time between two readings', () => {
    // user nice system idle iowait irq softirq
    const before = [100, 0, 50, 1000, 10, 0, 0];
    const after = [160, 0, 70, 1080, 30, 0, 20];
    // busy 60 + 20 + 20 = 100 of 200
    expect(busyShare(before, after)).toBe(0.5);
  });

  it('is NaN when the readings cannot be compared', () => {
    expect(busyShare([], [1, 2, 3, 4, 5])).toBeNaN();
    expect(busyShare([1, 2, 3, 4, 5], [1, 2, 3, 4, 5])).toBeNaN();
  });

  it('reads this Linux machine', () => {
    const t = cpuTimes();
    expect(t.length).toBeGreaterThanOrEqual(5);
    expect(t.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
  });
});
