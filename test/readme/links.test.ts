// Every relative link of README.md and docs/*.md lands on a file that exists and, when it names an
// anchor in a Markdown page, on a heading of that page (the README's sections moved into docs/).
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchorsOf, linksOf, slug } from './links.js';
import { docPages, ROOT } from './pages.js';

const pages = docPages();

describe('links between the documentation pages', () => {
  it.each(pages.map((p) => [p.path, p.text] as const))('%s: every relative link resolves', (path, text) => {
    const broken: string[] = [];
    for (const link of linksOf(text)) {
      const target = link.path === '' ? path : posix.normalize(posix.join(posix.dirname(path), link.path));
      const where = `${path}:${link.line} → ${link.path}${link.anchor === null ? '' : `#${link.anchor}`}`;
      if (target.startsWith('..') || !existsSync(`${ROOT}${target}`)) {
        broken.push(`${where}: no file ${target}`);
        continue;
      }
      if (link.anchor !== null && target.endsWith('.md')) {
        const anchors = anchorsOf(readFileSync(`${ROOT}${target}`, 'utf8'));
        if (!anchors.has(link.anchor)) broken.push(`${where}: ${target} has no heading #${link.anchor}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs page but the measurement record opens with a table of contents', () => {
    const without = pages
      .filter((p) => p.path.startsWith('docs/') && !/\n## Contents\n/.test(p.text))
      .map((p) => p.path);
    expect(without).toEqual(['docs/ARCHITECTURE.md', 'docs/MEASUREMENTS.md', 'docs/POSTGRES.md']);
  });

  it('the README is a front door: at most 300 lines, the two commands first', () => {
    const readme = pages.find((p) => p.path === 'README.md')!.text;
    expect(readme.split('\n').length).toBeLessThanOrEqual(300);
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)![1]!;
    expect(firstBlock).toMatch(/^npm ci && npx edgelog demo\b/);
    expect(firstBlock).toMatch(/\nnpm test\b/);
  });
});

describe('the link checker itself', () => {
  it('names anchors as GitHub does', () => {
    expect(slug('PostgreSQL: many workers, one archive')).toBe('postgresql-many-workers-one-archive');
    expect(slug('End to end: `npm run bench -- --store postgres`')).toBe(
      'end-to-end-npm-run-bench------store-postgres',
    );
    expect([...anchorsOf('# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('finds relative links, not those in code or to other sites', () => {
    const md = 'see [a](docs/A.md#x), [b](#y), [c](https://e.net/#z), `[d](nope.md)`\n```\n[e](f.md)\n```\n';
    expect(linksOf(md)).toEqual([
      { path: 'docs/A.md', anchor: 'x', line: 1 },
      { path: '', anchor: 'y', line: 1 },
    ]);
  });
});
