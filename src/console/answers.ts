// A statement's answer as the console sends it: the rows exactly as `edgelog query --format json` writes
// them (the same runner, the same encoder, the same limit and time bound), with the columns, whether
// there were more rows, and the bounds that applied. The query layer's errors become 4xx problems. A
// page's statements are answered together (answerEach): over one snapshot, under one bound.
import { QueryError } from '../query/query-error.js';
import { QueryTimeoutError } from '../query/query-timeout-error.js';
import { runStoreQueries, runStoreQuery } from '../query/run-store-query.js';
import type { ArchiveQueryStore } from '../history/archive-queries.js';
import type { QueryStore } from '../store/store.js';
import { ConsoleRequestError } from './request-error.js';

export interface AnswerBounds {
  /** Rows at most (and the query stops reading there). */
  limit: number;
  /** Working time, ms (the queue's wait excluded). */
  timeoutMs: number;
}

export interface Answer {
  columns: string[];
  /** The rows as a JSON array of objects, `edgelog query --json`'s text. */
  rowsJson: string;
  rows: number;
  more: boolean;
}

export async function answer(queries: QueryStore, sql: string, bounds: AnswerBounds): Promise<Answer> {
  let rowsJson = '';
  const out = {
    write(text: string) {
      rowsJson += text;
      return Promise.resolve();
    },
  };
  try {
    const r = await runStoreQuery(
      queries,
      sql,
      { format: 'json', limit: bounds.limit, timeoutMs: bounds.timeoutMs },
      out,
    );
    return { columns: r.columns, rowsJson, rows: r.rows, more: r.more };
  } catch (err) {
    throw requestErrorOf(err);
  }
}

/**
 * The answers of a page's statements, each as `answer` gives it (its own row limit), in their order: over
 * one snapshot of the archive, on one DuckDB (archive-queries.ts readEach); `timeoutMs` bounds them
 * together.
 */
export async function answerEach(
  queries: ArchiveQueryStore,
  statements: ReadonlyArray<{ sql: string; limit: number }>,
  timeoutMs: number,
): Promise<Answer[]> {
  try {
    const results = await runStoreQueries(
      queries,
      statements.map((s) => ({ sql: s.sql, opts: { format: 'json', limit: s.limit } })),
      { timeoutMs },
    );
    return results.map((r) => ({ columns: r.columns, rowsJson: r.text, rows: r.rows, more: r.more }));
  } catch (err) {
    throw requestErrorOf(err);
  }
}

/** The query layer's errors as the problems the console answers with; anything else as it is. */
export function requestErrorOf(err: unknown): unknown {
  if (err instanceof QueryTimeoutError)
    return new ConsoleRequestError(504, 'query stopped', err.message, { cause: err });
  if (err instanceof QueryError) {
    const refused = /^query refused/.test(err.message);
    return new ConsoleRequestError(400, refused ? 'query refused' : 'query failed', err.message, {
      cause: err,
    });
  }
  return err;
}

/** The rows of an answer as values (the console's own questions read them back). */
export function answerRows<T>(a: Answer): T[] {
  return JSON.parse(a.rowsJson) as T[];
}

/** The body of an answer: its JSON text with the columns, the count and the bounds around the rows. */
export function answerBody(a: Answer, bounds: AnswerBounds, extra: Record<string, unknown> = {}): string {
  const head = JSON.stringify({ ...extra, columns: a.columns, count: a.rows, more: a.more, ...bounds });
  return `${head.slice(0, -1)},"rows":${a.rowsJson.trimEnd()}}`;
}
