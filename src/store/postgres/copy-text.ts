// Pure: rows in PostgreSQL's COPY text format (tab-separated, one line per row, \N for NULL), for bulk
// writes with COPY … FROM STDIN. Backslash, tab, newline and carriage return are escaped; nothing else
// needs it (the server decodes the rest as UTF-8 text).

const SPECIAL = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field: NULL as \N, numbers as their decimal text, text escaped. */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return SPECIAL.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c]!) : value;
}

/**
 * The COPY text of `n` rows whose fields `field(i, c)` gives for column `c` of row `i` (`width` columns).
 */
export function copyRows(
  n: number,
  width: number,
  field: (i: number, c: number) => string | number | null,
): string {
  let text = '';
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < width; c++) {
      if (c > 0) text += '\t';
      text += copyField(field(i, c));
    }
    text += '\n';
  }
  return text;
}
