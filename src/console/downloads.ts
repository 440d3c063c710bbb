// Downloads (docs/CONSOLE.md): the SQL page's statement, or the explorer's whole current result, as
// NDJSON, CSV or Parquet, written by what `edgelog query` and `edgelog export` write with (the row
// encoders; DuckDB's COPY with the history's Parquet encoding) through the one query layer, bounded by
// the statement's time and a row limit. The file is spooled first, in the statement's turn of the query
// lane, to a private temporary directory, then streamed: a slow client holds no statement and no memory.
// Its name says what it is and when, from fixed words: never from an archived or requested string.
import { once } from 'node:events';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { logsExportSql } from '../history/console-statements.js';
import { streamOutput } from '../format/output.js';
import { runStoreQuery, runStoreQueryToParquet } from '../query/run-store-query.js';
import { requestErrorOf } from './answers.js';
import { parseLogsRequest } from './logs-request.js';
import type { QueryLane } from './query-lane.js';
import { badRequest } from './request-error.js';
import { SECURITY_HEADERS } from './responses.js';

export const DOWNLOAD_FORMATS = ['ndjson', 'csv', 'parquet'] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

const CONTENT_TYPES: Readonly<Record<DownloadFormat, string>> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8; header=present',
  parquet: 'application/vnd.apache.parquet',
};

/** Rows a download holds at most unless the console is told otherwise. @defaultValue 1,000,000 */
export const DEFAULT_DOWNLOAD_LIMIT = 1_000_000;

/** What to download: a statement, the file's name and format. */
export interface Download {
  sql: string;
  format: DownloadFormat;
  /** The file name's subject: a fixed word (`query`, `origin`, `shield`). */
  what: string;
}

/** Pure: the file's name, `edgelog-<what>-<UTC time>.<format>`; `what` must be a plain word. */
export function downloadName(what: string, at: number, format: DownloadFormat): string {
  if (!/^[a-z]+$/.test(what)) throw new RangeError(`not a download subject: ${what}`);
  const stamp = new Date(at)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
  return `edgelog-${what}-${stamp}.${format}`;
}

function formatOf(params: URLSearchParams): DownloadFormat {
  const format = params.get('format');
  const known = DOWNLOAD_FORMATS.find((f) => f === format);
  if (known === undefined) throw badRequest(`format: one of ${DOWNLOAD_FORMATS.join(', ')}`);
  return known;
}

/** `/api/v1/query/download?sql=…&format=…`: the SQL page's statement. */
export function queryDownload(params: URLSearchParams): Download {
  const sql = params.get('sql');
  if (sql === null || sql.trim() === '') throw badRequest('sql: the statement to run');
  return { sql, format: formatOf(params), what: 'query' };
}

/**
 * `/api/v1/logs/download?format=…&<the explorer's filter>`: every line the filter matches (all pages:
 * `cursor` and `limit` are the page's, and left out), every column, newest first.
 */
export function logsDownload(params: URLSearchParams, now: number): Download {
  const format = formatOf(params);
  const filter = new URLSearchParams(params);
  for (const name of ['format', 'cursor', 'limit']) filter.delete(name);
  const req = parseLogsRequest(filter, now);
  return { sql: logsExportSql(req.filter), format, what: req.filter.source };
}

/** The download routes: the request's query string to what to download. */
export const DOWNLOAD_ROUTES: Readonly<Record<string, (params: URLSearchParams, now: number) => Download>> = {
  '/api/v1/query/download': queryDownload,
  '/api/v1/logs/download': logsDownload,
};

export interface DownloadBounds {
  /** Rows at most. */
  limit: number;
  /** The statement's working time, ms. */
  timeoutMs: number;
}

/** Writes the download's rows to a private temporary file and streams it as the answer. */
export async function sendDownload(
  res: ServerResponse,
  queries: QueryLane,
  d: Download,
  bounds: DownloadBounds,
  now: number,
): Promise<void> {
  // mkdtemp makes the directory 0700: entries hold what clients sent (cookies, tokens).
  const dir = mkdtempSync(join(tmpdir(), 'edgelog-download-'));
  try {
    const file = join(dir, 'download');
    let rows: number;
    let more = false;
    try {
      if (d.format === 'parquet') rows = await runStoreQueryToParquet(queries, d.sql, bounds, file);
      else {
        const stream = createWriteStream(file, { flags: 'wx', mode: 0o600 });
        try {
          const r = await runStoreQuery(
            queries,
            d.sql,
            { format: d.format, ...bounds, encoding: { csvRaw: false, terminal: false } },
            streamOutput(stream),
          );
          rows = r.rows;
          more = r.more;
        } finally {
          stream.end();
          await once(stream, 'close');
        }
      }
    } catch (err) {
      throw requestErrorOf(err);
    }
    res.writeHead(200, {
      ...SECURITY_HEADERS,
      'Content-Type': CONTENT_TYPES[d.format],
      'Content-Length': String(statSync(file).size),
      'Content-Disposition': `attachment; filename="${downloadName(d.what, now, d.format)}"`,
      'Cache-Control': 'no-store',
      'Edgelog-Rows': String(rows),
      // Parquet is cut at the limit without reading past it: whether there were more is not known.
      ...(d.format === 'parquet' ? {} : { 'Edgelog-More': String(more) }),
    });
    await pipeline(createReadStream(file), res).catch(() => {
      // The client went away: nothing more to send.
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
