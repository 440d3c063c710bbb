// Pure: the range of `timestamp` a statement's own filter allows for an entry table, read from DuckDB's
// parse tree (json_serialize_sql), so that the view of that table leaves out the days whose files hold no
// timestamp in it (their markers, time-range.ts) and DuckDB never binds their paths. Binding a day's
// files costs the same whether the optimizer then drops the day or not (file-parts.ts); this skips it.
//
// Only what is provably true is used: the table is read in exactly one place, as the FROM of a SELECT
// whose WHERE is a conjunction (AND) holding comparisons of the table's own `timestamp` column with
// integer constants. Every row that SELECT sees passes its WHERE, so a row whose timestamp fails one of
// those comparisons is never seen, wherever the SELECT sits (subquery, CTE, UNION). Anything else —
// the table read twice, a join, a sample, renamed columns, OR, a cast, a constant that is not an
// integer, any table function (`query_table('…')` reads the table by a name held only as a string) —
// says nothing, and then no day is left out. The days kept still carry their guards, so DuckDB's
// optimizer prunes further by everything else (`time`, the other conjuncts).
import { isDayText } from '../time/utc-day.js';
import type { HistoryTable } from './layout.js';

/** Inclusive bounds on `timestamp`; null: unbounded on that side. */
export interface TimestampBounds {
  min: bigint | null;
  max: bigint | null;
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Integer types whose constants compare exactly with the BIGINT `timestamp`. */
const INTEGER_TYPES = new Set(['TINYINT', 'SMALLINT', 'INTEGER', 'BIGINT', 'HUGEINT']);

/** The BASE_TABLE nodes naming `table` in DuckDB's default catalog and schema. */
function isTableRef(node: Node, table: HistoryTable): boolean {
  if (node.type !== 'BASE_TABLE' || typeof node.table_name !== 'string') return false;
  const schema = typeof node.schema_name === 'string' ? node.schema_name : '';
  const catalog = typeof node.catalog_name === 'string' ? node.catalog_name : '';
  return (
    node.table_name.toLowerCase() === table &&
    (schema === '' || schema === 'main') &&
    (catalog === '' || catalog === 'memory')
  );
}

/**
 * Every reference to `table`, the SELECT nodes whose FROM is one of them, and whether the statement calls
 * a table function: `query_table('origin_error_logs')` or `query('SELECT … FROM origin_error_logs')`
 * read the view by a name the parse tree holds only as a string.
 */
function references(
  tree: unknown,
  table: HistoryTable,
): { refs: Node[]; selects: Map<Node, Node>; tableFunction: boolean } {
  const refs: Node[] = [];
  const selects = new Map<Node, Node>();
  let tableFunction = false;
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isNode(node)) return;
    if (isTableRef(node, table)) refs.push(node);
    if (node.type === 'TABLE_FUNCTION') tableFunction = true;
    if (node.type === 'SELECT_NODE' && isNode(node.from_table)) selects.set(node.from_table, node);
    for (const value of Object.values(node)) walk(value);
  };
  walk(tree);
  return { refs, selects, tableFunction };
}

/** An integer constant of the tree as a bigint, or null (NULL, another type, beyond 2^53 in the JSON). */
function integerConstant(node: unknown): bigint | null {
  if (!isNode(node) || node.class !== 'CONSTANT' || !isNode(node.value)) return null;
  const { type, is_null: isNull, value } = node.value;
  if (isNull !== false || !isNode(type) || typeof type.id !== 'string' || !INTEGER_TYPES.has(type.id))
    return null;
  return typeof value === 'number' && Number.isSafeInteger(value) ? BigInt(value) : null;
}

/** The AND-ed conditions of a WHERE clause (one condition when it is no conjunction). */
function conjuncts(where: unknown): unknown[] {
  if (isNode(where) && where.type === 'CONJUNCTION_AND' && Array.isArray(where.children))
    return where.children.flatMap(conjuncts);
  return where === null || where === undefined ? [] : [where];
}

/** `a <op> b` with the column on the left: the operator seen from the other side. */
const FLIPPED: Record<string, string> = {
  COMPARE_EQUAL: 'COMPARE_EQUAL',
  COMPARE_GREATERTHAN: 'COMPARE_LESSTHAN',
  COMPARE_GREATERTHANOREQUALTO: 'COMPARE_LESSTHANOREQUALTO',
  COMPARE_LESSTHAN: 'COMPARE_GREATERTHAN',
  COMPARE_LESSTHANOREQUALTO: 'COMPARE_GREATERTHANOREQUALTO',
};

/** A comparison of one of the table's columns with a constant: `column op constant`. */
interface ColumnFilter {
  column: string;
  op: string;
  constant: unknown;
}

/** The one SELECT reading `table` (as its FROM), and its column names as seen from it; else null. */
interface TableSelect {
  select: Node;
  /** The column a node names when it is one of the table's own (`c`, `<alias or table>.c`), or null. */
  columnOf: (node: unknown) => string | null;
}

/** The SELECT whose FROM is the one reference to `table`, when nothing can read the table unseen. */
function tableSelect(tree: unknown, table: HistoryTable): TableSelect | null {
  const { refs, selects, tableFunction } = references(tree, table);
  // A table function may read the table a second time, unseen (query_table, query): nothing is sure.
  if (refs.length !== 1 || tableFunction) return null;
  const ref = refs[0]!;
  const select = selects.get(ref);
  if (select === undefined) return null;
  // A sample draws from the table before the WHERE; renamed columns may put another under a name.
  if (ref.sample != null || select.sample != null || ref.at_clause != null) return null;
  if (Array.isArray(ref.column_name_alias) && ref.column_name_alias.length > 0) return null;
  const qualifier = (typeof ref.alias === 'string' && ref.alias !== '' ? ref.alias : table).toLowerCase();
  const columnOf = (node: unknown): string | null => {
    if (!isNode(node) || node.class !== 'COLUMN_REF' || !Array.isArray(node.column_names)) return null;
    const names = node.column_names.map((n) => String(n).toLowerCase());
    if (names.length === 1) return names[0]!;
    return names.length === 2 && names[0] === qualifier ? names[1]! : null;
  };
  return { select, columnOf };
}

/**
 * The comparisons with constants that the WHERE of the one SELECT reading `table` AND-s (BETWEEN as two),
 * the column on the left; null when nothing can be relied on (see the head of this file).
 */
function filterOf(tree: unknown, table: HistoryTable): ColumnFilter[] | null {
  const found = tableSelect(tree, table);
  if (found === null) return null;
  const { select, columnOf } = found;
  const out: ColumnFilter[] = [];
  for (const cond of conjuncts(select.where_clause)) {
    if (!isNode(cond)) continue;
    if (cond.class === 'COMPARISON' && typeof cond.type === 'string' && cond.type in FLIPPED) {
      const left = columnOf(cond.left);
      const right = columnOf(cond.right);
      if (left !== null && right === null) out.push({ column: left, op: cond.type, constant: cond.right });
      else if (right !== null && left === null)
        out.push({ column: right, op: FLIPPED[cond.type]!, constant: cond.left });
    } else if (cond.class === 'BETWEEN' && cond.type === 'COMPARE_BETWEEN') {
      const column = columnOf(cond.input);
      if (column === null) continue;
      out.push({ column, op: 'COMPARE_GREATERTHANOREQUALTO', constant: cond.lower });
      out.push({ column, op: 'COMPARE_LESSTHANOREQUALTO', constant: cond.upper });
    }
  }
  return out;
}

/**
 * Pure: the bounds the statement's filter puts on `table`'s `timestamp`, or null when it says nothing
 * that can be relied on (see the head of this file). `tree` is json_serialize_sql's `statements`.
 */
export function timestampBounds(tree: unknown, table: HistoryTable): TimestampBounds | null {
  let min: bigint | null = null;
  let max: bigint | null = null;
  const atLeast = (v: bigint) => void (min = min === null || v > min ? v : min);
  const atMost = (v: bigint) => void (max = max === null || v < max ? v : max);
  for (const f of filterOf(tree, table) ?? []) {
    const c = f.column === 'timestamp' ? integerConstant(f.constant) : null;
    if (c === null) continue;
    if (f.op === 'COMPARE_EQUAL') {
      atLeast(c);
      atMost(c);
    } else if (f.op === 'COMPARE_GREATERTHAN') atLeast(c + 1n);
    else if (f.op === 'COMPARE_GREATERTHANOREQUALTO') atLeast(c);
    else if (f.op === 'COMPARE_LESSTHAN') atMost(c - 1n);
    else if (f.op === 'COMPARE_LESSTHANOREQUALTO') atMost(c);
  }
  return min === null && max === null ? null : { min, max };
}

/** Inclusive bounds on `log_date` (YYYY-MM-DD); null: unbounded on that side. */
export interface DayBounds {
  min: string | null;
  max: string | null;
}

/** A text constant of the tree that is a YYYY-MM-DD day, or null. */
function dayConstant(node: unknown): string | null {
  if (!isNode(node) || node.class !== 'CONSTANT' || !isNode(node.value)) return null;
  const { type, is_null: isNull, value } = node.value;
  if (isNull !== false || !isNode(type) || type.id !== 'VARCHAR') return null;
  return typeof value === 'string' && isDayText(value) ? value : null;
}

/**
 * Pure: the bounds the statement's filter puts on `table`'s `log_date`, as timestampBounds does, from
 * comparisons with YYYY-MM-DD text only: between two such texts the order of bytes, of DuckDB, SQLite and
 * any collation of PostgreSQL's is the same, so the store may apply them itself.
 */
export function dayBounds(tree: unknown, table: HistoryTable): DayBounds | null {
  let min: string | null = null;
  let max: string | null = null;
  const atLeast = (v: string) => void (min = min === null || v > min ? v : min);
  const atMost = (v: string) => void (max = max === null || v < max ? v : max);
  for (const f of filterOf(tree, table) ?? []) {
    const c = f.column === 'log_date' ? dayConstant(f.constant) : null;
    if (c === null) continue;
    // Strict bounds kept as inclusive ones: the store's rows are read wider, never narrower.
    if (f.op === 'COMPARE_EQUAL') {
      atLeast(c);
      atMost(c);
    } else if (f.op === 'COMPARE_GREATERTHAN' || f.op === 'COMPARE_GREATERTHANOREQUALTO') atLeast(c);
    else if (f.op === 'COMPARE_LESSTHAN' || f.op === 'COMPARE_LESSTHANOREQUALTO') atMost(c);
  }
  return min === null && max === null ? null : { min, max };
}

/** Pure: whether a row of log_date `day` (YYYY-MM-DD) may pass a statement whose filter has `bounds`. */
export function mayHoldDay(day: string, bounds: DayBounds | null): boolean {
  if (bounds === null) return true;
  return (bounds.min === null || day >= bounds.min) && (bounds.max === null || day <= bounds.max);
}

/** Pure: whether a file whose timestamps lie in `range` (unknown: undefined) may hold a row in `bounds`. */
export function mayHoldRows(
  range: { min: bigint; max: bigint } | undefined,
  bounds: TimestampBounds | null,
): boolean {
  if (range === undefined || bounds === null) return true;
  return (bounds.min === null || range.max >= bounds.min) && (bounds.max === null || range.min <= bounds.max);
}

/**
 * Pure: whether a statement may filter an entry table on `time` or `timestamp` in a way its bounds
 * (timestampBounds) do not already hold, so that the guards of the view's parts (file-parts.ts) may let
 * DuckDB's optimizer drop more files. A guard is a filter DuckDB evaluates on every row it reads (and it
 * reads `timestamp` for it): a statement that names neither column pays it for nothing (the 30-day count
 * per day and status, bench/history-queries.ts, spent 28% of its CPU time on it).
 *
 * True when the statement names `time`, or names `timestamp` and `bounds` is null; also when what it
 * filters on cannot be told from the tree: COLUMNS(…), positional references, and table functions
 * (`query('…')` holds SQL as a string). A guard changes no result, so a wrong "true" costs time only.
 */
export function guardsMayHelp(tree: unknown, bounds: TimestampBounds | null): boolean {
  let time = false;
  let timestamp = false;
  const walk = (node: unknown): void => {
    if (time) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (!isNode(node)) return;
    if (node.class === 'COLUMN_REF' && Array.isArray(node.column_names)) {
      const name = String(node.column_names[node.column_names.length - 1]).toLowerCase();
      if (name === 'time') time = true;
      if (name === 'timestamp') timestamp = true;
    }
    if (node.class === 'STAR' && node.columns === true) time = true;
    if (node.class === 'POSITIONAL_REFERENCE' || node.type === 'TABLE_FUNCTION') time = true;
    for (const value of Object.values(node)) walk(value);
  };
  walk(tree);
  return time || (timestamp && bounds === null);
}

/** The order in which a view lists its files: the newest timestamps first, or the oldest. */
export type TimeOrder = 'newest' | 'oldest';

/**
 * Pure: the order of `timestamp` (or `time`) that the one SELECT reading `table` sorts by first, or null.
 * Listed in that order, the view's files hand DuckDB the rows a top-N keeps first, and its dynamic filter
 * then skips the other files' row groups by their statistics: the explorer's newest 101 lines of 7 days
 * read 98,000 rows instead of 1,200,000 (docs/MEASUREMENTS.md, issue 31). Only a hint: the order of the
 * files changes no set of rows, and no order a statement's ORDER BY decides.
 */
export function timeOrder(tree: unknown, table: HistoryTable): TimeOrder | null {
  const found = tableSelect(tree, table);
  if (found === null || !Array.isArray(found.select.modifiers)) return null;
  const orderBy = found.select.modifiers.find((m) => isNode(m) && m.type === 'ORDER_MODIFIER') as
    Node | undefined;
  const first = Array.isArray(orderBy?.orders) ? (orderBy.orders[0] as unknown) : undefined;
  if (!isNode(first)) return null;
  const column = found.columnOf(first.expression);
  if (column !== 'timestamp' && column !== 'time') return null;
  return first.type === 'DESCENDING' ? 'newest' : 'oldest';
}
