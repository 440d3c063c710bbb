// The worker's history in a process of its own (history-process.ts): the same work as a HistoryRunner in
// the worker, answered from another process whose log lines reach the worker's logger; a child that dies
// fails the calls in hand and the next call starts another; the child ends when the worker closes it,
// and when the worker is gone without a word (SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { HistoryError } from '../../src/errors/index.js';
import { HistoryProcess } from '../../src/history/history-process.js';
import { dayDir } from '../../src/history/layout.js';
import { createLogger } from '../../src/logger.js';
import type { DayKey } from '../../src/store/store.js';
import { openSqlite, storeOriginPass, type OpenedStore } from '../support/page-store.js';
import { until } from '../support/until.js';

const DAY = '2026-11-20';
const DAY_START = Date.parse(`${DAY}T00:00:00Z`);
const NOW = DAY_START + 5 * 86_400_000;

let s: OpenedStore | undefined;
let root: string | undefined;
let history: HistoryProcess | undefined;
afterEach(async () => {
  await history?.close();
  await s?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** A SQLite store with one origin zone-day of `n` entries stored, and a history root. */
async function storedDay(n: number): Promise<{ day: DayKey; s: OpenedStore; root: string }> {
  const opened = (s = await openSqlite(() => NOW));
  const dir = (root = mkdtempSync(join(tmpdir(), 'edgelog-hp-')));
  const day: DayKey = { source: 'origin', zone: 31, day: DAY };
  const entries = Array.from({ length: n }, (_, i) =>
    JSON.stringify({ logId: `o-${i}`, timestamp: DAY_START + i * 1000, log: '{}', labels: {} }),
  );
  await storeOriginPass(opened.store, day, entries, NOW, 100);
  return { day, s: opened, root: dir };
}

function processOn(s: OpenedStore, dir: string, lines: string[] = [], flushRows?: number): HistoryProcess {
  return new HistoryProcess({
    ...(flushRows === undefined ? {} : { flushRows }),
    store: s.store,
    database: { path: s.where },
    root: dir,
    hotDays: null,
    originLookbackDays: 1,
    leaseMs: 8_000,
    owner: 'worker',
    logLevel: 'debug',
    now: () => NOW,
    logger: createLogger({ level: 'debug', destination: { write: (l) => void lines.push(l) } }),
  });
}

it('flushes from a process of its own, relays its log lines, and ends when closed', async () => {
  const { day, s, root } = await storedDay(250);
  const lines: string[] = [];
  history = processOn(s, root, lines);
  expect(await history.peakRssMb()).toBeNull(); // nothing started yet
  expect(await history.flush()).toMatchObject({ outcome: 'flushed', rows: 250, parts: 1 });
  expect(readdirSync(dayDir(root, 'origin_error_logs', day.zone, day.day))).toHaveLength(1);
  const pid = history.pid!;
  expect(pid).not.toBe(process.pid);
  expect(await history.peakRssMb()).toBeGreaterThan(0);
  // Its 'history flushed' line came through this process's logger, as a line of its own.
  expect(lines.map((l) => JSON.parse(l) as { msg: string; rows?: number })).toContainEqual(
    expect.objectContaining({ msg: 'history flushed', rows: 250 }),
  );
  await history.close();
  expect(alive(pid)).toBe(false);
});

it('starts a flush once flushRows rows were stored since the last, and not before', async () => {
  const { day, s, root } = await storedDay(120);
  history = processOn(s, root, [], 120);
  history.noteStored(119);
  // Nothing asked of the history: no process started.
  expect(history.pid).toBeUndefined();
  history.noteStored(1);
  const dir = dayDir(root, 'origin_error_logs', day.zone, day.day);
  // A missing directory rejects, which until takes for "not yet".
  await until(
    'the part of the flush that 120 rows started',
    () => new Promise<true | undefined>((done) => done(readdirSync(dir).length === 1 ? true : undefined)),
  );
});

it('a child killed while it works fails the calls in hand, and the next call starts another', async () => {
  const { s, root } = await storedDay(100);
  history = processOn(s, root);
  const first = history.flush();
  // Killed before it could answer: it opens the store and DuckDB first.
  process.kill(history.pid!, 'SIGKILL');
  await expect(first).rejects.toThrow(HistoryError);
  await expect(first).rejects.toThrow(/history process stopped \(SIGKILL\)/);
  expect(await history.flush()).toMatchObject({ outcome: 'flushed', rows: 100 });
});

it('a child that cannot be reached (EPIPE) fails the calls in hand as retryable and ends no worker; the next call starts another', async () => {
  const { s, root } = await storedDay(100);
  history = processOn(s, root);
  const first = history.flush();
  const child = (history as unknown as { child: ChildProcess }).child;
  // What a send to a child that died starting raises: an 'error' event (with no listener, it ends the
  // process; found by the front-door test, a Ctrl-C to the group while a child was starting).
  child.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  await expect(first).rejects.toThrow(HistoryError);
  await expect(first).rejects.toThrow(/could not be reached \(write EPIPE\)/);
  expect(await history.flush()).toMatchObject({ outcome: 'flushed', rows: 100 });
});

it('ends when the worker that started it is killed', async () => {
  const { s, root } = await storedDay(50);
  // A worker of its own (this test's process must live on): it starts the history, prints the child's
  // pid once the flush is done, and waits until it is killed.
  const script = join(root, 'worker.mts');
  const module = new URL('../../src/history/history-process.ts', import.meta.url).href;
  const logger = new URL('../../src/logger.ts', import.meta.url).href;
  writeFileSync(
    script,
    [
      `import { HistoryProcess } from ${JSON.stringify(module)};`,
      `import { silentLogger } from ${JSON.stringify(logger)};`,
      `const h = new HistoryProcess({ database: { path: ${JSON.stringify(s.where)} }, root: ${JSON.stringify(root)},`,
      `  hotDays: null, originLookbackDays: 1, leaseMs: 8000, owner: 'w', logLevel: 'silent',`,
      `  now: () => ${NOW}, logger: silentLogger() });`,
      `await h.flush();`,
      `console.log(h.pid);`,
      `setInterval(() => {}, 1000);`,
    ].join('\n'),
  );
  const worker = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  worker.stdout.on('data', (b: Buffer) => (out += b.toString()));
  const child = await until(
    'the history process pid',
    () => Promise.resolve(Number(out.trim()) || undefined),
    30_000,
  );
  expect(alive(child)).toBe(true);
  worker.kill('SIGKILL');
  await until('the history process gone', () => Promise.resolve(alive(child) ? undefined : true), 10_000);
});
