// Pure: the configuration reference's place in docs/CONFIGURATION.md (between two markers) and its table
// read back as cells, so that prettier's alignment of the columns does not count as a difference.

export const START =
  '<!-- config-reference: made from src/config/schema.ts by `npm run docs:config`; edit the schema, not this table -->';
export const END = '<!-- /config-reference -->';

/** The text between the markers, or null when the page has none. */
export function referenceBlock(markdown: string): string | null {
  const from = markdown.indexOf(START);
  const to = markdown.indexOf(END);
  if (from < 0 || to < from) return null;
  return markdown.slice(from + START.length, to);
}

/** `markdown` with the block between the markers replaced by `table`. */
export function withReference(markdown: string, table: string): string {
  const block = referenceBlock(markdown);
  if (block === null) throw new Error(`docs/CONFIGURATION.md has no ${START} … ${END} block`);
  const from = markdown.indexOf(START) + START.length;
  return `${markdown.slice(0, from)}\n\n${table.trimEnd()}\n\n${markdown.slice(from + block.length)}`;
}

/** A Markdown table's rows as trimmed cells, the separator row left out. */
export function tableCells(table: string): string[][] {
  return table
    .split('\n')
    .filter((l) => l.trim().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split(/(?<!\\)\|/)
        .map((c) => c.trim()),
    )
    .filter((cells) => !cells.every((c) => /^:?-+:?$/.test(c)));
}
