// `npm run readme:samples`: rewrites the sample outputs of the README and docs/*.md from a fresh run of their commands
// (after `npm run build`), on a private redis-server; long runs of table rows are cut to a `…`. Review the
// diff before committing it. Samples named as arguments are rewritten even when they still match (a
// sample's `…` can hide lines a change added).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '../../src/redis/embedded-redis.js';
import { condense, sampleDrift, samplesIn, withSample } from './sample-text.js';
import { docPages, ROOT } from './pages.js';
import { runSamples } from './sessions.js';

const forced = new Set(process.argv.slice(2));
const dir = mkdtempSync(join(tmpdir(), 'edgelog-readme-redis-'));
const redis = await startRedisServer({ dir });
try {
  const run = await runSamples(redis.display);
  try {
    const rewritten: string[] = [];
    for (const page of docPages()) {
      let markdown = page.text;
      for (const sample of samplesIn(markdown)) {
        const text = run.samples.get(sample.name);
        if (text === undefined) throw new Error(`no run makes the sample ${sample.name} of ${page.path}`);
        // A sample that still matches is kept as it is: no churn of ports, paths and durations.
        if (!forced.has(sample.name) && sampleDrift(sample.text, text) === null) continue;
        markdown = withSample(markdown, sample.name, condense(text));
        rewritten.push(`${sample.name} (${page.path})`);
      }
      if (markdown !== page.text) writeFileSync(`${ROOT}${page.path}`, markdown);
    }
    process.stdout.write(`rewrote ${rewritten.length ? rewritten.join(', ') : 'no sample'}\n`);
  } finally {
    await run.close();
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
