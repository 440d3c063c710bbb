// Pure: a Markdown page's headings as GitHub names their anchors, and its relative links, so that a test
// can check that every link between the pages lands on a file and a heading that exist.

/** GitHub's anchor for a heading: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/ /g, '-');
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
function prose(markdown: string): Array<{ line: string; n: number }> {
  const out: Array<{ line: string; n: number }> = [];
  let fence = false;
  markdown.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) fence = !fence;
    else if (!fence) out.push({ line, n: i + 1 });
  });
  return out;
}

/** The anchors of a page's headings; a repeated heading gets `-1`, `-2`… as on GitHub. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of prose(markdown)) {
    const m = /^#{1,6} (.+?)#*\s*$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

export interface Link {
  /** The target's path as written (empty for a link within the page). */
  path: string;
  /** The anchor without `#`, or null. */
  anchor: string | null;
  line: number;
}

/** The relative links of a page (outside code and inline code): not `http:`, `mailto:` and the like. */
export function linksOf(markdown: string): Link[] {
  const out: Link[] = [];
  for (const { line, n } of prose(markdown)) {
    const text = line.replace(/`[^`]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const hash = target.indexOf('#');
      out.push({
        path: hash < 0 ? target : target.slice(0, hash),
        anchor: hash < 0 ? null : decodeURIComponent(target.slice(hash + 1)),
        line: n,
      });
    }
  }
  return out;
}
