// The line `edgelog run` redraws on a terminal, from its figures, by table.
import { describe, expect, it } from 'vitest';
import { ledgerFigures, runLine, type RunFigures } from '../../src/status/run-line.js';
import type { Day } from '../../src/time/utc-day.js';

const at = (iso: string) => Date.parse(iso);

describe('runLine', () => {
  it.each<[RunFigures, string]>([
    [
      { lastPassAt: null, nextPassAt: null, entriesToday: 0, alertsFiring: 0 },
      'worker running · last pass none yet · next pass not scheduled · today 0 entries · 0 alerts firing',
    ],
    [
      {
        lastPassAt: at('2026-11-23T10:42:05.900Z'),
        nextPassAt: at('2026-11-23T10:44:05Z'),
        entriesToday: 12_345,
        alertsFiring: 1,
      },
      'worker running · last pass 10:42:05 · next pass 10:44:05 · today 12,345 entries · 1 alert firing',
    ],
    [
      { lastPassAt: 0, nextPassAt: 0, entriesToday: 1, alertsFiring: 2 },
      'worker running · last pass 00:00:00 · next pass 00:00:00 · today 1 entry · 2 alerts firing',
    ],
  ])('%j', (figures, line) => {
    expect(runLine(figures)).toBe(line);
  });
});

describe('ledgerFigures', () => {
  const today = '2026-11-23' as Day;
  it('takes the newest end of a pass, and sums the entries of today alone', () => {
    expect(
      ledgerFigures(
        [
          { log_date: '2026-11-23', finished_at: at('2026-11-23T10:00:00Z'), archived_entries: 100 },
          { log_date: '2026-11-23', finished_at: null, archived_entries: 20 },
          { log_date: '2026-11-22', finished_at: at('2026-11-23T10:05:00Z'), archived_entries: 5_000 },
        ],
        today,
      ),
    ).toEqual({ lastPassAt: at('2026-11-23T10:05:00Z'), entriesToday: 120 });
    expect(ledgerFigures([], today)).toEqual({ lastPassAt: null, entriesToday: 0 });
  });
});
