// SQLite's read-only connection, for the one reader that drives better-sqlite3 itself: `edgelog query`
// runs its statement in a worker thread under a watchdog (query/run-bounded.ts), because a synchronous
// statement cannot be stopped from the thread that waits for it. Everything else reads through ports
// (open-reader.ts, store.ts).
export { openReadOnly, openReadOnlyConnection, verifiedRead } from './sqlite/read-only.js';
export type { ReadOnlyConnection } from './sqlite/read-only.js';
export type { Db as SqliteConnection } from './sqlite/database.js';
