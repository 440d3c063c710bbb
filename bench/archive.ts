// A generated archive for the query figures: origin rows spread over zones and days, with ledger
// coverage, written through the same repository the engine uses. Cached between runs.
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { OriginRow } from '../src/store/rows.js';
import { openArchive } from '../src/store/sqlite/archive.js';
import { addDays, dayEndMs, dayStartMs, type Day } from '../src/time/utc-day.js';

export const ARCHIVE_ZONES = 20;
export const ARCHIVE_DAYS = 30;
export const ARCHIVE_LAST_DAY = '2026-11-20' as Day;

const CODES: Array<[string, number]> = [
  ['http_timeout', 504],
  ['http_request_exception', 502],
  ['http_request_failure', 503],
  ['dns_lookup', 502],
  ['network_socket_exception', 502],
  ['network_io_error', 504],
  ['notfound_localdb', 404],
  ['error', 500],
  ['http_invalid_range', 416],
  ['http_loop_detected', 508],
  ['http_invalid_compression', 502],
];

/**
 * The archive's rows, a zone-day at a time, oldest day first: about `rows` in all, the same on every run
 * (seeded), so that an archive generated again, or a table of them generated alone, holds the same data.
 */
export function* archiveBatches(rows: number): Generator<{ zone: number; day: Day; batch: OriginRow[] }> {
  const perZoneDay = Math.ceil(rows / (ARCHIVE_ZONES * ARCHIVE_DAYS));
  let seed = 1;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
  for (let d = ARCHIVE_DAYS - 1; d >= 0; d--) {
    const day = addDays(ARCHIVE_LAST_DAY, -d);
    for (let zone = 1; zone <= ARCHIVE_ZONES; zone++) {
      const batch: OriginRow[] = [];
      const start = dayStartMs(day);
      for (let i = 0; i < perZoneDay; i++) {
        const [code, status] = CODES[Math.floor(rand() * rand() * CODES.length)]!;
        const timestamp = start + Math.floor((i * 86_400_000) / perZoneDay);
        const url = `https://cdn${zone}.example.net/v/${Math.floor(rand() * 5000)}.ts`;
        batch.push({
          logId: `${zone}-${timestamp}-${i}`,
          timestamp,
          requestUrl: url,
          message: 'origin error',
          errorCode: code,
          statusCode: status,
          serverZone: 'DE',
          log: `{"RequestUrl":"${url}","PullZoneId":${zone},"ErrorCode":"${code}","StatusCode":${status}}`,
          labels: `{"ErrorCode":"${code}","StatusCode":"${status}","ServerZone":"DE"}`,
          parseError: null,
        });
      }
      yield { zone, day, batch };
    }
  }
}

/** Path of an archive of about `rows` origin entries, generating it first when missing. */
export function generatedArchive(dir: string, rows: number, log: (line: string) => void): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `archive-${rows}.db`);
  if (existsSync(path)) return path;
  const tmp = `${path}.tmp`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(tmp + suffix, { force: true });
  const archive = openArchive(tmp, { cacheMiB: 64 });
  const started = performance.now();
  let lastDay: Day | null = null;
  let days = 0;
  for (const { zone, day, batch } of archiveBatches(rows)) {
    if (day !== lastDay) {
      if (lastDay !== null)
        log(
          `  generated ${++days}/${ARCHIVE_DAYS} days (${Math.round((performance.now() - started) / 1000)} s)`,
        );
      lastDay = day;
    }
    archive.db.transaction(() => {
      archive.origin.storeRows(zone, day, batch);
      archive.db
        .prepare(
          `INSERT INTO ingest_ledger (source, zone_id, log_date, state, pages, entries, new_entries, covered_until, updated_at, finished_at)
                  VALUES ('origin', ?, ?, 'complete', 1, ?, ?, ?, ?, ?)`,
        )
        .run(zone, day, batch.length, batch.length, dayEndMs(day), dayEndMs(day), dayEndMs(day));
    })();
    archive.origin.terms.committed(); // as storePage does once a page's transaction commits
  }
  log(
    `  generated ${ARCHIVE_DAYS}/${ARCHIVE_DAYS} days (${Math.round((performance.now() - started) / 1000)} s)`,
  );
  void archive.close();
  renameSync(tmp, path);
  return path;
}
