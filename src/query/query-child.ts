// The process runQueryProcess starts (query-process.ts says why): opens the archive, runs the one query
// it is sent, writes the result to stdout, replies over IPC and exits.
import { toTransferable } from '../errors/transfer.js';
import { streamOutput } from './output.js';
import type { QueryReply, QueryRequest } from './query-protocol.js';
import { openReadOnlyConnection, verifiedRead } from './read-only.js';
import { runQuery } from './run-query.js';

async function answer(req: QueryRequest): Promise<QueryReply> {
  try {
    const conn = openReadOnlyConnection(req.path);
    try {
      const out = streamOutput(process.stdout);
      const result = await verifiedRead(conn, out, (db, o) => runQuery(db, req.sql, req, o));
      return { type: 'done', result };
    } finally {
      conn.db.close();
    }
  } catch (err) {
    return { type: 'error', error: toTransferable(err) };
  }
}

process.once('message', (req: QueryRequest) => {
  void answer(req).then((reply) => process.send?.(reply, () => process.disconnect()));
});
process.send?.({ type: 'ready' } satisfies QueryReply);
