import { describe, expect, it } from 'vitest';
import { FaultPlan } from '../../src/simulator/faults.js';
import type { FaultSpec } from '../../src/simulator/index.js';

const kinds = (plan: FaultPlan, operation: Parameters<FaultPlan['decide']>[0], url: string) => {
  const d = plan.decide(operation, url);
  return [d.answer?.kind, d.delayMs, d.truncate?.kind, d.paging.map((f) => f.kind)];
};

const bodyKinds = (plan: FaultPlan, operation: Parameters<FaultPlan['decide']>[0], url = '/u') => {
  const d = plan.decide(operation, url);
  return [d.answer?.kind, d.gzip?.kind, d.slowBody?.kind, d.paging.map((f) => f.kind)];
};

describe('FaultPlan', () => {
  it('times: each distinct URL gets the fault its first N times, interleaving does not matter', () => {
    const plan = new FaultPlan([{ kind: '503', times: 2 }], 1);
    const seq = ['/a', '/b', '/a', '/a', '/b', '/b', '/c'].map(
      (url) => plan.decide('ddosEnums', url).answer?.kind,
    );
    expect(seq).toEqual(['503', '503', '503', undefined, '503', undefined, '503']);
  });

  it('rate: deterministic per seed over the request sequence, close to the rate', () => {
    const draw = (seed: number) => {
      const plan = new FaultPlan([{ kind: '500', rate: 0.3 }], seed);
      return Array.from(
        { length: 2000 },
        (_, i) => plan.decide('edgeScript', `/x/${i}`).answer !== undefined,
      );
    };
    const a = draw(5);
    expect(draw(5)).toEqual(a);
    expect(draw(6)).not.toEqual(a);
    const hits = a.filter(Boolean).length;
    expect(hits).toBeGreaterThan(500);
    expect(hits).toBeLessThan(700);
  });

  it('operation restricts a fault; paging faults only reach Shield event logs', () => {
    const faults: FaultSpec[] = [{ kind: '429', operation: 'rateLimit' }, { kind: 'loop' }];
    const plan = new FaultPlan(faults, 1);
    expect(kinds(plan, 'edgeScript', '/e')).toEqual([undefined, 0, undefined, []]);
    expect(kinds(plan, 'rateLimit', '/r')).toEqual(['429', 0, undefined, []]);
    expect(kinds(plan, 'shieldEventLogs', '/s')).toEqual([undefined, 0, undefined, ['loop']]);
  });

  it('checks in order: slow and truncate add up, the first answering fault ends the check', () => {
    const plan = new FaultPlan(
      [
        { kind: 'slow', delayMs: 5 },
        { kind: 'slow' },
        { kind: 'truncate' },
        { kind: '502', times: 1 },
        { kind: '503', times: 1 },
      ],
      1,
    );
    expect(kinds(plan, 'ddosEnums', '/d')).toEqual(['502', 2005, 'truncate', []]);
    // The 503 never saw the first request, so its first time is now.
    expect(kinds(plan, 'ddosEnums', '/d')).toEqual(['503', 2005, 'truncate', []]);
    expect(kinds(plan, 'ddosEnums', '/d')).toEqual([undefined, 2005, 'truncate', []]);
  });

  it('set replaces the faults and restarts their counters', () => {
    const plan = new FaultPlan([{ kind: '503', times: 1 }], 1);
    expect(plan.decide('ddosEnums', '/d').answer?.kind).toBe('503');
    expect(plan.decide('ddosEnums', '/d').answer).toBeUndefined();
    plan.set([{ kind: '503', times: 1 }]);
    expect(plan.decide('ddosEnums', '/d').answer?.kind).toBe('503');
    plan.set([]);
    expect(plan.decide('ddosEnums', '/d').answer).toBeUndefined();
  });

  it('refuses a bad fault with a message naming the field', () => {
    expect(() => new FaultPlan([{ kind: '503', rate: 2 }], 1)).toThrow(
      'faults[0].rate must be a number from 0 to 1',
    );
    expect(() => new FaultPlan([{ kind: 'oops' as '503' }], 1)).toThrow(/faults\[0\]\.kind must be one of/);
  });

  it('html answers instead of the handler; gzip and slow-body shape the body; all add up in order', () => {
    const plan = new FaultPlan(
      [{ kind: 'gzip' }, { kind: 'slow-body', chunks: 3 }, { kind: 'html', times: 1 }, { kind: '503' }],
      1,
    );
    expect(bodyKinds(plan, 'edgeScript')).toEqual(['html', 'gzip', 'slow-body', []]);
    expect(bodyKinds(plan, 'edgeScript')).toEqual(['503', 'gzip', 'slow-body', []]);
  });

  it('more reaches origin answers only, null-fields both log operations; elsewhere they are not counted', () => {
    const plan = new FaultPlan(
      [
        { kind: 'more', times: 1 },
        { kind: 'null-fields', times: 1 },
      ],
      1,
    );
    expect(bodyKinds(plan, 'rateLimit')).toEqual([undefined, undefined, undefined, []]);
    expect(bodyKinds(plan, 'shieldEventLogs')).toEqual([undefined, undefined, undefined, ['null-fields']]);
    // The Shield request used null-fields' one time on /u; more's is still there.
    expect(bodyKinds(plan, 'originErrorLogs')).toEqual([undefined, undefined, undefined, ['more']]);
    expect(bodyKinds(plan, 'originErrorLogs', '/v')).toEqual([
      undefined,
      undefined,
      undefined,
      ['more', 'null-fields'],
    ]);
  });

  it('refuses an operation a fault cannot reach, and a slow-body of no pieces', () => {
    expect(() => new FaultPlan([{ kind: 'more', operation: 'shieldEventLogs' }], 1)).toThrow(
      'faults[0]: more applies only to originErrorLogs, not shieldEventLogs',
    );
    expect(() => new FaultPlan([{ kind: 'slow-body', chunks: 0 }], 1)).toThrow(
      'faults[0].chunks must be an integer >= 1',
    );
  });
});
