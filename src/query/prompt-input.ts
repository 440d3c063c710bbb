// Pure: what the `edgelog query` prompt makes of the lines typed: statements ended by `;` (outside
// quotes and comments, so a statement may span lines), and the listing commands that psql, sqlite3 and
// duckdb users type (`.tables`, `\d name`, `.quit`).

/** The statements `text` completes, each without its `;`, and the unfinished rest. */
export function splitStatements(text: string): { statements: string[]; rest: string } {
  const statements: string[] = [];
  let start = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch === "'" || ch === '"') {
      const close = text.indexOf(ch, i + 1);
      // Unclosed: the statement goes on on the next line. A doubled quote closes and reopens.
      if (close < 0) break;
      i = close + 1;
    } else if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      if (end < 0) break;
      i = end + 1;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) break;
      i = end + 2;
    } else if (ch === ';') {
      const statement = text.slice(start, i).trim();
      if (statement !== '') statements.push(statement);
      start = ++i;
    } else i++;
  }
  return { statements, rest: text.slice(start).trimStart() };
}

export type PromptCommand =
  | { kind: 'tables' }
  | { kind: 'describe'; name: string }
  | { kind: 'help' }
  | { kind: 'quit' }
  | { kind: 'unknown'; text: string };

/**
 * The listing command a line is (`.tables`, `\dt`, `\d`; `\d name`, `.schema name`; `.help`, `\?`;
 * `.quit`, `.exit`, `\q`), or null for SQL. Only at the start of a statement: a `.` or `\` inside one
 * is the statement's.
 */
export function promptCommand(line: string): PromptCommand | null {
  const text = line.trim().replace(/;$/, '').trim();
  if (!/^[.\\]/.test(text)) return null;
  const [word = '', ...args] = text.split(/\s+/);
  const name = args.join(' ');
  switch (word.toLowerCase()) {
    case '.tables':
    case '\\dt':
    case '\\dv':
      return { kind: 'tables' };
    case '\\d':
    case '\\d+':
    case '.schema':
      return name === '' ? { kind: 'tables' } : { kind: 'describe', name };
    case '.help':
    case '\\?':
    case '\\h':
      return { kind: 'help' };
    case '.quit':
    case '.exit':
    case '\\q':
      return { kind: 'quit' };
    default:
      return { kind: 'unknown', text };
  }
}

/** The prompt's `.help`, naming the dialect its statements are in (e.g. "DuckDB's SQL: docs/SQL.md"). */
export function promptHelp(dialect: string): string {
  return `Statements end with ; and may span lines (${dialect}).
  .tables or \\d          the tables and views
  \\d <name>, .schema <name>  a table's or view's columns and types
  .help or \\?            this help
  .quit, \\q or Ctrl-D    leave
Tab completes table and column names; the up arrow recalls earlier lines; Ctrl-C stops a statement or drops the line.
`;
}
