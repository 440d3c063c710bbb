// `npm run readme:samples`: rewrites the README's sample outputs from a fresh run of their commands
// (after `npm run build`), on a private redis-server; long runs of table rows are cut to a `…`. Review the
// diff before committing it. Samples named as arguments are rewritten even when they still match (a
// sample's `…` can hide lines a change added).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '../../src/redis/embedded-redis.js';
import { condense, sampleDrift, samplesIn, withSample } from './sample-text.js';
import { runSamples } from './sessions.js';

const path = new URL('../../README.md', import.meta.url);
const forced = new Set(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'edgelog-readme-redis-'));
const redis = await startRedisServer({ dir });
try {
  const run = await runSamples(redis.display);
  try {
    let readme = readFileSync(path, 'utf8');
    const rewritten: string[] = [];
    for (const sample of samplesIn(readme)) {
      const text = run.samples.get(sample.name);
      if (text === undefined) throw new Error(`no run makes the README's sample ${sample.name}`);
      // A sample that still matches is kept as it is: no churn of ports, paths and durations.
      if (!forced.has(sample.name) && sampleDrift(sample.text, text) === null) continue;
      readme = withSample(readme, sample.name, condense(text));
      rewritten.push(sample.name);
    }
    writeFileSync(path, readme);
    process.stdout.write(`rewrote ${rewritten.length ? rewritten.join(', ') : 'no sample'} in README.md\n`);
  } finally {
    await run.close();
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
