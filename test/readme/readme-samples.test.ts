// The sample outputs of the README and docs/*.md are what the commands print today: each
// `<!-- sample: name -->` block, on whichever page it stands, is compared, figures aside, with a real run
// (test/readme/sessions.ts). `npm run readme:samples` rewrites them from a fresh run when a command's
// output changes on purpose.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type EmbeddedRedis } from '../../src/redis/embedded-redis.js';
import { sampleDrift, samplesIn } from './sample-text.js';
import { docPages } from './pages.js';
import { runSamples, type SampleRun } from './sessions.js';

const dir = mkdtempSync(join(tmpdir(), 'edgelog-readme-redis-'));
let redis: EmbeddedRedis;
let run: SampleRun;

beforeAll(async () => {
  redis = await startRedisServer({ dir });
  run = await runSamples(redis.display);
}, 120_000);

afterAll(async () => {
  await run?.close();
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('sample outputs of the README and docs/', () => {
  const samples = docPages().flatMap((page) => samplesIn(page.text));

  it('has a sample block for every run, and a run for every sample block', () => {
    expect(samples.map((s) => s.name).sort()).toEqual([...run.samples.keys()].sort());
  });

  it.each(samples.map((s) => [s.name, s.text] as const))('%s matches a real run', (name, text) => {
    const actual = run.samples.get(name) ?? '';
    const drift = sampleDrift(text, actual);
    const hint = `${drift}; run \`npm run readme:samples\` to rewrite it from a real run. The run printed:\n${actual}`;
    expect(drift, hint).toBeNull();
  });
});
