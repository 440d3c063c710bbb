// A hostile or broken API that trickles its answer (one byte every 0.8 s: never silent for bodyTimeout,
// and the body is read after the request deadline stopped counting) must not hold a worker's slot
// forever: api.responseTimeout bounds one attempt's whole answer, headers and body, and the attempt
// fails with a retryable TimeoutError. Error bodies are bounded the same way.
import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../../src/errors/index.js';
import { closeAfterEach, start } from './helpers.js';

closeAfterEach();

// One byte a piece (the body is far shorter than this many pieces), 0.8 s apart.
const TRICKLE = { kind: 'slow-body', chunks: 100_000, delayMs: 800 } as const;
const CLIENT = {
  headersTimeoutMs: 1000,
  bodyTimeoutMs: 1000,
  responseTimeoutMs: 2000,
  retry: { attempts: 2, deadlineMs: 3000 },
};

describe('a trickled answer', () => {
  it('stops each attempt at responseTimeout with a retryable TimeoutError', async () => {
    const { sim, client } = await start({ faults: [{ ...TRICKLE, operation: 'ddosEnums' }] }, CLIENT);
    const err = await client.ddosEnums().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as TimeoutError).retryable).toBe(true);
    expect((err as Error).message).toMatch(/whole answer not received within the 2000 ms response timeout/);
    // Both attempts were trickled, and both were stopped (a third request would be a third fault).
    expect(sim.stats.faults['slow-body']).toBe(2);
    expect(sim.stats.requests).toBe(2);
  });

  it('stops a trickled error body the same way', async () => {
    const { sim, client } = await start(
      {
        faults: [
          { ...TRICKLE, operation: 'edgeScript' },
          { kind: '503', operation: 'edgeScript' },
        ],
      },
      CLIENT,
    );
    const err = await client.edgeScript(1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TimeoutError);
    expect((err as Error).message).toMatch(/response timeout/);
    expect(sim.stats.faults['slow-body']).toBe(2);
  });

  it('leaves an answer that arrives within responseTimeout alone', async () => {
    const { sim, client } = await start(
      { faults: [{ kind: 'slow-body', chunks: 3, delayMs: 100, operation: 'ddosEnums' }] },
      CLIENT,
    );
    await expect(client.ddosEnums()).resolves.toBeTypeOf('object');
    expect(sim.stats.faults['slow-body']).toBe(1);
  });
});
