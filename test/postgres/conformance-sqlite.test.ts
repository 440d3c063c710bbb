// The store conformance suite against the SQLite store (src/store/sqlite/), opened as the commands open
// it (openStore with a file path).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { openReader } from '../../src/store/open-reader.js';
import { openStore } from '../../src/store/open-store.js';
import type { ArchiveStore } from '../../src/store/store.js';
import { storeConformance } from './conformance.js';

storeConformance('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-store-'));
  const path = join(dir, 'archive.db');
  const store = await openStore({ path });
  const others: ArchiveStore[] = [];
  return {
    store,
    async another() {
      const other = await openStore({ path });
      others.push(other);
      return other;
    },
    exec(sql) {
      const db = openDatabase(path);
      try {
        db.exec(sql);
      } finally {
        db.close();
      }
      return Promise.resolve();
    },
    reader: () => openReader({ path, url: null, readerUrl: null }, { applicationName: 'conformance' }),
    async cleanup() {
      await Promise.all(others.map((o) => o.close()));
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
});
