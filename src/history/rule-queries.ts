// The sql alert rules' reads in the archive's one dialect (archive-queries.ts): a rule reads what
// `edgelog query` reads, over every day the archive holds. Checked at start against the archive's schema
// alone (nothing is read); run bounded by its timeout, which interrupts DuckDB from outside the statement
// (no setting a statement makes can lift it: DuckDB's configuration is locked before it runs). DuckDB
// cannot write to the store: a rule reads with nothing but the rows the worker copies in for it.
import { storeRuleQueries } from '../store/rule-queries.js';
import type { QueryStore, RuleQueries } from '../store/store.js';
import { archiveQueries, checkArchiveStatement } from './archive-queries.js';

export function archiveRuleQueries(opts: { root: string | null; store: QueryStore }): RuleQueries {
  const rows = storeRuleQueries(archiveQueries({ root: opts.root, store: opts.store }));
  return { check: (sql) => checkArchiveStatement(sql), run: (sql, o) => rows.run(sql, o) };
}
