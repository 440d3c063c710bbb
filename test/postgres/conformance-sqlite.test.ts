// The store conformance suite against the SQLite store (through src/store/sqlite-adapter.ts): the
// specification the PostgreSQL store is held to.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteStore } from '../../src/store/sqlite-adapter.js';
import { storeConformance } from './conformance.js';

storeConformance('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-store-'));
  const path = join(dir, 'archive.db');
  const store = openSqliteStore(path);
  const others: Array<{ close(): Promise<void> }> = [];
  return Promise.resolve({
    store,
    another: () => {
      const other = openSqliteStore(path);
      others.push(other);
      return Promise.resolve(other);
    },
    async cleanup() {
      await Promise.all(others.map((o) => o.close()));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
});
