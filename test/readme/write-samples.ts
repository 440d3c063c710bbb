// `npm run readme:samples`: rewrites the README's sample outputs from a fresh run of their commands
// (after `npm run build`), on a private redis-server; long runs of table rows are cut to a `…`. Review the
// diff before committing it.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startRedisServer } from '../../src/redis/embedded-redis.js';
import { condense, samplesIn, withSample } from './sample-text.js';
import { runSamples } from './sessions.js';

const path = new URL('../../README.md', import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'edgelog-readme-redis-'));
const redis = await startRedisServer({ dir });
try {
  const run = await runSamples(redis.display);
  try {
    let readme = readFileSync(path, 'utf8');
    for (const { name } of samplesIn(readme)) {
      const text = run.samples.get(name);
      if (text === undefined) throw new Error(`no run makes the README's sample ${name}`);
      readme = withSample(readme, name, condense(text));
    }
    writeFileSync(path, readme);
    process.stdout.write(`rewrote ${samplesIn(readme).length} samples in README.md\n`);
  } finally {
    await run.close();
  }
} finally {
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
}
