// The log lines of a day's pass as a machine reads them: one JSON object per line, each key once.
import { describe, expect, it } from 'vitest';
import { ownerId } from '../../src/ingest/day-ingestor.js';
import { createLogger } from '../../src/logger.js';
import { addDays } from '../../src/time/utc-day.js';
import { harness, TODAY } from '../support/harness.js';
import { ingestorPerTest, testIngestor } from '../support/ingestor.js';

const s = ingestorPerTest();

/** The top-level keys of a JSON object text, in order, repeats included (JSON.parse keeps only the last). */
function topLevelKeys(json: string): string[] {
  const keys: string[] = [];
  let depth = 0;
  const tokens = json.matchAll(/"(?:[^"\\]|\\.)*"(\s*:)?|[{}[\]]/g);
  for (const [token, colon] of tokens) {
    if (token === '{' || token === '[') depth++;
    else if (token === '}' || token === ']') depth--;
    else if (colon && depth === 1)
      keys.push(JSON.parse(token.slice(0, token.lastIndexOf('"') + 1)) as string);
  }
  return keys;
}

describe('the day fetched line', () => {
  it('names each key once (the day was there twice, as `date`)', async () => {
    s.h = await harness({ entriesPerDay: 30 });
    const lines: string[] = [];
    const logger = createLogger({ level: 'info', destination: { write: (l: string) => void lines.push(l) } });
    s.t = await testIngestor(s.h, { deps: { logger } });
    const result = await s.t.ingestor.run(
      { source: 'shield', zone: 201, day: addDays(TODAY, -1) },
      { owner: ownerId('job-1') },
    );
    const fetched = lines.find((l) => l.includes('"msg":"day fetched"'));
    expect(fetched).toBeDefined();
    const keys = topLevelKeys(fetched!);
    expect(keys.filter((k, i) => keys.indexOf(k) !== i)).toEqual([]);
    expect(JSON.parse(fetched!)).toMatchObject({
      source: 'shield',
      zone: 201,
      date: addDays(TODAY, -1),
      entries: 30,
    });
    // The result names the day once too.
    expect(Object.keys(result)).not.toContain('date');
  });
});
