import { describe, expect, it } from 'vitest';
import { progressLine, RedrawnLine, startProgress } from '../../src/format/progress.js';
import { screenLines } from '../support/terminal.js';

describe('progressLine', () => {
  it.each([
    [
      'nothing done yet: no rate, no ETA',
      { done: 0, total: 12, pages: 0, entries: 0, elapsedMs: 200 },
      'zone-days 0/12 · 0 pages · 0 entries',
    ],
    [
      'a third done: rate and ETA from the pace so far',
      { done: 4, total: 12, pages: 45, entries: 123_456, elapsedMs: 10_000 },
      'zone-days 4/12 · 45 pages · 123,456 entries · 12,346/s · ETA 20.0s',
    ],
    [
      'all done: no ETA',
      { done: 3, total: 3, pages: 1, entries: 1_000, elapsedMs: 2_000 },
      'zone-days 3/3 · 1 page · 1,000 entries · 500/s',
    ],
  ])('%s', (_name, figures, line) => {
    expect(progressLine(figures)).toBe(line);
  });
});

const progressLineWidth = (w: string) => w.slice(1).trimEnd().length;

/** Waits until `n` lines were drawn (a loaded machine may run fewer ticks in any fixed time). */
async function drawn(written: string[], n: number): Promise<void> {
  for (let i = 0; written.length < n; i++) {
    if (i === 2_000) throw new Error(`timed out waiting for ${n} lines, got ${written.length}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('startProgress', () => {
  const figures = { done: 1, total: 2, pages: 1, entries: 10, elapsedMs: 2_000 };

  it('redraws one line in place on a terminal and clears it at the end', async () => {
    const written: string[] = [];
    const p = startProgress({
      out: { isTTY: true, write: (t) => written.push(t) },
      read: () => figures,
      ttyEveryMs: 5,
    });
    await drawn(written, 2);
    p.stop();
    expect(written.length).toBeGreaterThan(1);
    expect(written.slice(0, -1).every((w) => w.startsWith('\rzone-days 1/2'))).toBe(true);
    expect(written.join('')).not.toContain('\x1b');
    const width = progressLineWidth(written[0]!);
    expect(written.at(-1)).toBe(`\r${' '.repeat(width)}\r`);
  });

  it('prints plain lines, without control characters, elsewhere', async () => {
    const written: string[] = [];
    const p = startProgress({
      out: { isTTY: false, write: (t) => written.push(t) },
      read: () => figures,
      plainEveryMs: 5,
    });
    await drawn(written, 2);
    p.stop();
    expect(written.length).toBeGreaterThan(1);
    for (const w of written)
      expect(w).toMatch(/^progress: zone-days 1\/2 · 1 page · 10 entries · 5\/s · ETA 2\.0s\n$/);
  });
});

describe('RedrawnLine', () => {
  it('a line printed around it clears it first and draws it again under the line', () => {
    const written: string[] = [];
    const line = new RedrawnLine({ isTTY: true, write: (t) => written.push(t) });
    line.draw('zone-days 0/2 · 3 pages');
    line.around(() => written.push('12:00:00 WARN  day incomplete\n'));
    line.draw('zone-days 1/2');
    expect(screenLines(written.join(''))).toEqual(['12:00:00 WARN  day incomplete', 'zone-days 1/2']);
    line.clear();
    expect(screenLines(written.join(''))).toEqual(['12:00:00 WARN  day incomplete', '']);
  });

  it('with nothing shown, a line printed around it is all that is written', () => {
    const written: string[] = [];
    const line = new RedrawnLine({ isTTY: true, write: (t) => written.push(t) });
    line.around(() => written.push('log\n'));
    expect(written).toEqual(['log\n']);
  });
});
