// edgelog_archive_size_bytes on both stores: on SQLite the archive file and its write-ahead log, on
// PostgreSQL the database (pg_database_size), so that the dashboard's size panel is not empty there.
import { statSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { startEngine, type Engine } from '../../src/engine.js';
import { silentLogger } from '../../src/logger.js';
import type { Harness } from '../support/harness.js';
import { NOW } from '../support/harness.js';
import { parsePromText } from '../support/prom-text.js';
import { describeStores, storeHarness } from '../support/stores.js';

let h: Harness | undefined;
let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  await h?.close();
  engine = h = undefined;
});

const SIZE = 'edgelog_archive_size_bytes';

describeStores('the archive size gauge', (store) => {
  it('serves the size of what holds the archive', async () => {
    h = await storeHarness(store);
    engine = await startEngine(h.config({ metrics: { listen: '127.0.0.1:0' } }), silentLogger(), {
      now: () => NOW,
      metrics: true,
    });
    const url = (await engine.serveMetrics())!.url;
    const reader = await h.reader();
    const databaseSize = () => reader.value('SELECT pg_database_size(current_database())') as Promise<number>;
    const before = store === 'PostgreSQL' ? await databaseSize() : statSync(h.dbPath).size;
    const families = parsePromText(await (await fetch(`${url}/metrics`)).text());
    const after = store === 'PostgreSQL' ? await databaseSize() : statSync(h.dbPath).size;
    const sizes: Record<string, number> = {};
    for (const s of families.get(SIZE)?.samples ?? []) sizes[s.labels.file ?? ''] = s.value;
    expect(Object.keys(sizes).sort()).toEqual(store === 'PostgreSQL' ? ['database'] : ['database', 'wal']);
    expect(sizes.database).toBeGreaterThan(0);
    expect(sizes.database).toBeGreaterThanOrEqual(Math.min(before, after));
    expect(sizes.database).toBeLessThanOrEqual(Math.max(before, after));
  });
});
