// What runQueryProcess (query-process.ts) and its child (query-child.ts) say to each other over IPC.
import type { TransferredError } from '../errors/transfer.js';
import type { QueryOptions, QueryResult } from './run-query.js';

/** Parent → child: the one query to run. */
export interface QueryRequest extends QueryOptions {
  /** The archive's path. */
  path: string;
  sql: string;
}

/** Child → parent: `ready` once loaded; then `done` or `error` after the result is written to stdout. */
export type QueryReply =
  { type: 'ready' } | { type: 'done'; result: QueryResult } | { type: 'error'; error: TransferredError };
