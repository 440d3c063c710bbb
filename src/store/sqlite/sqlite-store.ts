// The archive in one SQLite file, as an ArchiveStore: thin asynchronous adapters over the synchronous
// repositories (one module per table), which do the work.
//
// better-sqlite3 is synchronous: every method does its work at once and returns a settled promise, one
// per call (a page's rows go through one transaction and one promise, never one per row). A report's
// snapshot reads through a read-only connection of its own inside one read transaction, so that it never
// shares the writer's connection (a page's transaction cannot start inside another). `queries.readOnly`
// takes no time bound here: `edgelog query` bounds a SQLite query from its own child process (src/query/).
import { AlertsRepository } from './alerts.js';
import { RuleReadsRepository } from './rule-reads.js';
import { HistoryRepository } from './history.js';
import { SqliteFlush } from './flush.js';
import { SilencesRepository } from './silences.js';
import { AlertSeriesRepository } from './alert-series.js';
import { newTerms } from './terms.js';
import { openArchive, type Archive, type ArchiveOptions } from './archive.js';
import { openDatabase } from './database.js';
import { sqliteHealth } from './health.js';
import type { DayKey } from '../ledger-types.js';
import { migrate } from './migrate.js';
import { readOnlyQuery } from './read-only-query.js';
import { childQuery } from './child-query.js';
import { checkRuleQuery } from '../rule-queries.js';
import { sqliteReportStore } from './reports.js';
import { pageCounts } from '../store.js';
import { dayOf } from '../../time/utc-day.js';
import type { AlertsStore, ArchiveStore, LeaseLost, PageInput, PageStored, QueryStore } from '../store.js';

/** Thrown inside a page's transaction to roll it back when the lease is lost. */
class LeaseLostSignal extends Error {}

// An async function turns a synchronous throw into a rejected promise.
// eslint-disable-next-line @typescript-eslint/require-await
const settle = async <T>(work: () => T): Promise<T> => work();

/** The SQLite store, with its repositories for what only SQLite does (backup, the file's checks). */
export interface SqliteStore extends ArchiveStore {
  readonly dialect: 'sqlite';
  readonly archive: Archive;
}

/** Opens the SQLite archive at `path` (migrated) as an ArchiveStore. */
export function openSqliteStore(path: string, opts: ArchiveOptions = {}): SqliteStore {
  const archive = openArchive(path, opts);
  const { db } = archive;
  const alerts = new AlertsRepository(db);
  const ruleReads = new RuleReadsRepository(db);
  const history = new HistoryRepository(db, { origin: archive.origin.terms, shield: archive.shield.terms });
  const silences = new SilencesRepository(db);
  const series = new AlertSeriesRepository(db);
  const queries: QueryStore = {
    dialect: 'sqlite',
    readOnly: (sql, _opts, consume) => readOnlyQuery(path, sql, consume),
  };
  let termFailures = 0;
  const termsFailed = (err: unknown) => {
    termFailures++;
    opts.logger?.warn(
      { err: err instanceof Error ? err.message : String(err), failures: termFailures },
      'merging term counts after a page failed; the page is stored, the next merge counts its entries',
    );
  };
  return {
    dialect: 'sqlite',
    archive,
    location: db.name,
    ledger: {
      get: (key) => settle(() => archive.ledger.get(key)),
      claim: (key, owner, now, leaseMs, resume, abandoned) =>
        settle(() => archive.ledger.claim(key, owner, now, leaseMs, resume, abandoned)),
      renew: (key, owner, now, leaseMs) => settle(() => archive.ledger.renew(key, owner, now, leaseMs)),
      finish: (key, owner, state, coveredUntil, now) =>
        settle(() => archive.ledger.finish(key, owner, state, coveredUntil, now)),
      stop: (key, owner, state, error, now, keep) =>
        settle(() => archive.ledger.stop(key, owner, state, error, now, keep)),
      list: (filter) => settle(() => archive.ledger.list(filter)),
    },
    quarantine: { list: (filter) => settle(() => archive.quarantine.list(filter)) },
    guardian: {
      // An absent `error` is undefined here too, so add()'s default (the metrics' own error) applies.
      add: (zone, takenAt, metrics, error) =>
        settle(() => archive.guardian.add(zone, takenAt, metrics, error)),
      list: (zone, from, to) => settle(() => archive.guardian.list(zone, from, to)),
    },
    alerts: alertsStore(alerts, ruleReads),
    silences: {
      add: (row) => settle(() => silences.add(row)),
      list: (filter) => settle(() => silences.list(filter)),
      expire: (id, now) => settle(() => silences.expire(id, now)),
    },
    terms: { newTerms: (q) => settle(() => newTerms(db, q)) },
    alertSeries: {
      states: (rule) => settle(() => series.states(rule)),
      save: (key, from, to, measured, notices, now) =>
        settle(() => series.save(key, from, to, measured, notices, now)),
      list: () => settle(() => series.list()),
    },
    reports: {
      async snapshot(read) {
        // An in-memory archive has no file to open twice: its one connection reads.
        const reader = db.memory ? db : openDatabase(db.name, { readonly: true });
        try {
          return await sqliteReportStore(reader).snapshot(read);
        } finally {
          if (reader !== db) reader.close();
        }
      },
    },
    queries,
    // Checked on the read-only path; run in a child process killed at the rule's bound (a statement
    // better-sqlite3 cannot interrupt would hold the worker's event loop).
    ruleQueries: {
      check: checkRuleQuery(queries),
      run: (sql, opts) => childQuery(db.name, sql, opts),
    },
    health: sqliteHealth(db),
    history: {
      list: (filter) => settle(() => history.list(filter)),
      claim: (key, owner, now, leaseMs) => settle(() => history.claim(key, owner, now, leaseMs)),
      release: (key, owner) => settle(() => history.release(key, owner)),
      record: (key, owner, rec, now) => settle(() => history.record(key, owner, rec, now)),
      markPruned: (key, owner, now) => settle(() => history.markPruned(key, owner, now)),
      entryPage: (key, after, limit, bounds, below) =>
        settle(() => history.entryPage(key, after, limit, bounds, below)),
      quarantinePage: (key, after, limit, below) =>
        settle(() => history.quarantinePage(key, after, limit, below)),
      flush: new SqliteFlush(db),
      restore: (key, table, rows) => settle(() => history.restore(key, table, rows)),
      unprune: (key, owner) => settle(() => history.unprune(key, owner)),
      markLost: (key, owner, entries, now) => settle(() => history.markLost(key, owner, entries, now)),
      deleteEntries: (key, keys) => settle(() => history.deleteEntries(key, keys)),
      deleteQuarantined: (key, keys) => settle(() => history.deleteQuarantined(key, keys)),
      reclaim: (_beforeDay, maxPages) => settle(() => history.reclaim(maxPages)),
    },
    storePage: (key, owner, page, now, leaseMs) =>
      settle(() => storePage(archive, termsFailed, key, owner, page, now, leaseMs)),
    prepareAhead: () => Promise.resolve(),
    prune: (beforeMs, now = Date.now()) =>
      settle(() => {
        const origin = archive.origin.prune(beforeMs);
        const shield = archive.shield.prune(beforeMs);
        const quarantined = archive.quarantine.prune(dayOf(beforeMs));
        archive.ledger.markExpired(dayOf(beforeMs), now);
        history.forget(dayOf(beforeMs));
        return { origin, shield, quarantined };
      }),
    migrate: () => settle(() => migrate(db)),
    close: () => archive.close(),
  };
}

function storePage(
  archive: Archive,
  termsFailed: (err: unknown) => void,
  key: DayKey,
  owner: string,
  page: PageInput,
  now: number,
  leaseMs: number,
): PageStored | LeaseLost {
  if (page.source !== key.source)
    throw new TypeError(`storePage: a ${page.source} page for a ${key.source} day`);
  const { terms } = page.source === 'origin' ? archive.origin : archive.shield;
  let stored: PageStored;
  try {
    stored = archive.db
      .transaction((): PageStored => {
        // The page's rows carry its write batch: the history flushes them by it (write-batch.ts).
        const batch = archive.batches.next();
        const stored =
          page.source === 'origin'
            ? archive.origin.store(key.zone, key.day, page.batch, batch)
            : archive.shield.store(key.zone, key.day, page.batch, batch);
        const rejected = page.batch.rejected;
        const kept = archive.quarantine.store(key.source, key.zone, key.day, page.page, rejected, now, batch);
        const counts = pageCounts(page, stored.malformed);
        const held = archive.ledger.recordPage(
          key,
          owner,
          {
            nextToken: page.nextToken,
            entries: counts.entries,
            pages: page.pages,
            inserted: stored.inserted,
            malformed: counts.malformed,
            quarantined: counts.quarantined,
            quarantineInserted: kept,
            firstTs: stored.firstTs,
            lastTs: stored.lastTs,
          },
          now,
          leaseMs,
        );
        if (!held) throw new LeaseLostSignal();
        return { kind: 'stored', ...stored, malformed: counts.malformed, quarantineInserted: kept };
      })
      .immediate();
  } catch (err) {
    terms.rolledBack();
    if (err instanceof LeaseLostSignal) return { kind: 'lease-lost' };
    throw err;
  }
  // The page is stored, and is reported so whatever happens next: its terms are counted now. A merge
  // that fails here (the archive locked past the busy timeout) leaves its entries above the watermark,
  // where judgements count them live and the next merge counts them from the table; failing the page
  // would only have its day fetched again.
  try {
    terms.committed();
  } catch (err) {
    termsFailed(err);
  }
  return stored;
}

/** The rule state and outbox, and what the rules measure, as one AlertsStore. */
function alertsStore(repo: AlertsRepository, reads: RuleReadsRepository): AlertsStore {
  return {
    getState: (rule, zone) => settle(() => repo.getState(rule, zone)),
    save: (key, from, to, measured, notices, now) =>
      settle(() => repo.save(key, from, to, measured, notices, now)),
    listStates: () => settle(() => repo.listStates()),
    unqueued: (limit) => settle(() => repo.unqueued(limit)),
    undelivered: (maxAttempts, limit, after) => settle(() => repo.undelivered(maxAttempts, limit, after)),
    delivered: (id, hook) => settle(() => repo.delivered(id, hook)),
    createdSince: (since) => settle(() => repo.createdSince(since)),
    markEnqueued: (id, hook, now) => settle(() => repo.markEnqueued(id, hook, now)),
    markAttempt: (id, hook, now, error) => settle(() => repo.markAttempt(id, hook, now, error)),
    notifications: (limit) => settle(() => repo.notifications(limit)),
    coverage: (source, zone) => settle(() => new Map(reads.coverage(source, zone))),
    count: (source, zone, from, to, filter) => settle(() => reads.count(source, zone, from, to, filter)),
    lastSuccess: (source, zone) => settle(() => reads.lastSuccess(source, zone)),
    latestSnapshot: (zone, column, until) => settle(() => reads.latestSnapshot(zone, column, until)),
  };
}
