// A defect the disk-full scenario found: on a full disk the background checkpointer logs a warning at
// every tick (4 a second) for as long as the disk stays full: in the 2m12s a sync took to give up with
// the default job attempts, hundreds of identical lines, written to the logs of a machine that has no
// room left. Pinned here on a full tmpfs (needs a run that may mount one; CI must: test/support/tmpfs.ts).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';
import { startCheckpointer } from '../../src/store/sqlite/checkpointer.js';
import { openDatabase, type Db } from '../../src/store/sqlite/database.js';
import { describeWithTmpfs } from '../support/tmpfs.js';
import { sleep } from './lib/wait.js';

describeWithTmpfs('the checkpointer on a full disk', () => {
  let dir: string;
  let db: Db;
  const lines: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-full-'));
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir]);
    db = openDatabase(join(dir, 'a.db'));
    db.exec('CREATE TABLE t (x BLOB)');
    const logger = createLogger({
      level: 'warn',
      destination: new Writable({
        write(chunk: Buffer, _enc, done) {
          lines.push(chunk.toString());
          done();
        },
      }),
    });
    // Ticks every 50 ms: about 40 in the 2 s below, so that a warning at every tick shows as dozens of
    // lines even when a loaded machine runs a fraction of them (the ticks are a thread's own, not seen).
    const checkpointer = startCheckpointer(db, logger, { intervalMs: 50 });
    // Fill the disk: the WAL takes the writes until there is no room; checkpoints then cannot copy them.
    try {
      for (;;) db.prepare('INSERT INTO t VALUES (randomblob(65536))').run();
    } catch {
      // full
    }
    const before = lines.length;
    await sleep(2_000);
    lines.splice(0, before);
    await checkpointer.stop();
  }, 30_000);

  afterAll(() => {
    db?.close();
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the checkpoints do fail meanwhile (the premise)', () => {
    expect(lines.some((l) => /background checkpoint failed/.test(l))).toBe(true);
  });

  // A failing checkpoint was logged at every tick (about 500 lines in a 2-minute sync on a full disk).
  // Now once when the failure starts (twice at most, should its message change).
  it('a failing checkpoint is not logged at every tick', () => {
    const warnings = lines.filter((l) => /background checkpoint failed/.test(l)).length;
    expect(warnings).toBeLessThanOrEqual(2);
  });
});
