// Storing pages: every row once whatever the overlap between pages, and the hourly rollups always equal
// a count over the rows (whether a page was all new, partly new, or already archived).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseOriginEntry, parseShieldEntry } from '../../src/ingest/parse-entries.js';
import { openArchive, type Archive } from '../../src/store/sqlite/archive.js';
import { dayStartMs, type Day } from '../../src/time/utc-day.js';

let dir: string;
let archive: Archive | undefined;
afterEach(async () => {
  await archive?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DAY = '2026-11-22' as Day;
// 40 entries over three hours, with two rules and some NULL attributes (they count as '' / 0).
const entry = (i: number) => ({
  logId: `e-${i}`,
  timestamp: dayStartMs(DAY) + i * 300_000,
  log: i % 7 === 0 ? 'not json' : `{"StatusCode":${i % 2 ? 502 : 504},"ErrorCode":"e${i % 3}"}`,
  labels: i % 5 === 0 ? null : { ruleId: `r${i % 2}`, severity: 'high', status: '403' },
});
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, k) => entry(from + k));

describe('storing pages', () => {
  it('keeps each row once and the rollups equal to the rows, across overlapping pages', () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-store-'));
    archive = openArchive(join(dir, 'a.db'));
    const a = archive;
    // All new (20 rows: one 16-row statement and 4 single ones); half known; all known; new again.
    const pages = [range(0, 20), range(10, 30), range(0, 30), range(30, 40)];
    const inserted = pages.map((page) =>
      a.db.transaction(() => ({
        origin: a.origin.storeRows(101, DAY, page.map(parseOriginEntry)).inserted,
        shield: a.shield.storeRows(201, DAY, page.map(parseShieldEntry)).inserted,
      }))(),
    );
    expect(inserted).toEqual([
      { origin: 20, shield: 20 },
      { origin: 10, shield: 10 },
      { origin: 0, shield: 0 },
      { origin: 10, shield: 10 },
    ]);
    const all = (sql: string) => a.db.prepare(sql).all();
    expect(all('SELECT count(*) AS n, count(DISTINCT log_id) AS ids FROM origin_error_logs')).toEqual([
      { n: 40, ids: 40 },
    ]);
    expect(
      all(`SELECT pull_zone_id, hour, status_code, error_code, count FROM origin_hourly ORDER BY 1, 2, 3, 4`),
    ).toEqual(
      all(`SELECT pull_zone_id, timestamp - timestamp % 3600000 AS hour, coalesce(status_code, 0) AS status_code,
             coalesce(error_code, '') AS error_code, count(*) AS count
           FROM origin_error_logs GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    );
    expect(
      all(
        `SELECT shield_zone_id, hour, rule_id, severity, status, count FROM shield_hourly ORDER BY 1, 2, 3, 4, 5`,
      ),
    ).toEqual(
      all(`SELECT shield_zone_id, timestamp - timestamp % 3600000 AS hour, coalesce(rule_id, '') AS rule_id,
             coalesce(severity, '') AS severity, coalesce(status, '') AS status, count(*) AS count
           FROM shield_event_logs GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
    );
    expect(a.db.prepare('SELECT sum(count) FROM shield_hourly').pluck().get()).toBe(40);
  });

  it('counts a page that repeats a row of its own once', () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-store-'));
    archive = openArchive(join(dir, 'a.db'));
    const a = archive;
    const page = [...range(0, 17), entry(3)].map(parseShieldEntry);
    const stored = a.db.transaction(() => a.shield.storeRows(201, DAY, page))();
    expect(stored.inserted).toBe(17);
    expect(a.db.prepare('SELECT sum(count) FROM shield_hourly').pluck().get()).toBe(17);
  });
});
