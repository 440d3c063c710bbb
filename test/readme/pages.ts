// The pages of the documentation: README.md and every docs/*.md, read from the repository. Samples,
// links and the configuration reference are checked across all of them.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface Page {
  /** The path from the repository's root, e.g. `docs/COMMANDS.md`. */
  path: string;
  text: string;
}

/** README.md, then docs/*.md by name. */
export function docPages(root = ROOT): Page[] {
  const docs = readdirSync(`${root}docs`)
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs].map((path) => ({ path, text: readFileSync(`${root}${path}`, 'utf8') }));
}
