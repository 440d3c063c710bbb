// Pure: the README's sample outputs, found, compared with real output and replaced. A sample is the
// fenced block right after a `<!-- sample: <name> -->` line. Comparing: what a run prints differs from
// the README's copy in the figures (dates, counts, durations, ports, bars), never in its words, columns
// and layout, so both are reduced to those first; a `…` line in the README stands for lines left out.

const MARK = /^<!-- sample: ([\w-]+) -->\n\n?```[^\n]*\n([\s\S]*?)^```$/gm;

export interface Sample {
  name: string;
  /** The block's text, without its fences. */
  text: string;
}

export function samplesIn(markdown: string): Sample[] {
  return [...markdown.matchAll(MARK)].map((m) => ({ name: m[1]!, text: m[2]! }));
}

/** `markdown` with the sample `name`'s block holding `text` (a trailing newline added if missing). */
export function withSample(markdown: string, name: string, text: string): string {
  let found = false;
  const out = markdown.replace(MARK, (whole, n: string, old: string) => {
    if (n !== name) return whole;
    found = true;
    return whole.replace(old, () => (text.endsWith('\n') ? text : `${text}\n`));
  });
  if (!found) throw new Error(`README has no sample named ${name}`);
  return out;
}

/** A line reduced to its words and layout: figures, bars and runs of spaces made alike. */
export function shape(line: string): string {
  return line
    .replace(/\/tmp\/[\w./-]+/g, '<path>') // temporary directories of a run
    .replace(/[▁▂▃▄▅▆▇█▏▎▍▌▋▊▉]+/g, '▇') // charts and sparklines
    .replace(/\b\d+(\.\d+)?(ms|s)\b/g, '0s') // durations, in ms or s
    .replace(/[+-]?\d[\d,.:]*/g, '0') // numbers, dates, times, ports, durations' figures
    .replace(/\s+/g, ' ')
    .trim();
}

/** The README's lines, in runs that must appear one after another in the output (split at `…`). */
function runs(text: string): string[][] {
  const out: string[][] = [[]];
  for (const line of text.split('\n')) {
    if (line.trim() === '…') out.push([]);
    else if (line.trim() !== '') out.at(-1)!.push(shape(line));
  }
  return out.filter((r) => r.length > 0);
}

/**
 * Why `readme` does not describe `actual`, or null when it does: each run of the README's lines (between
 * `…`) appears, line after line, in the output, and the runs in order.
 */
export function sampleDrift(readme: string, actual: string): string | null {
  const lines = actual
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map(shape);
  let from = 0;
  for (const run of runs(readme)) {
    let at = -1;
    for (let i = from; i + run.length <= lines.length && at < 0; i++) {
      if (run.every((l, k) => lines[i + k] === l)) at = i;
    }
    if (at < 0) return `the README's sample and the output part at: ${divergence(run, lines.slice(from))}`;
    from = at + run.length;
  }
  return null;
}

/**
 * A long run's text made readable: of more than `keep` + 1 consecutive lines of one shape (a table's
 * rows, a chart's bars), the first `keep` and the last stay, a `…` line between them.
 */
export function condense(text: string, keep = 2): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && lines[i]!.trim() !== '' && shape(lines[j]!) === shape(lines[i]!)) j++;
    const run = lines.slice(i, j);
    out.push(...(run.length > keep + 1 ? [...run.slice(0, keep), '…', run.at(-1)!] : run));
    i = j;
  }
  return out.join('\n');
}

/** Where `run` parts from `lines`, at the start where most of it matches: the README's line and the output's. */
function divergence(run: readonly string[], lines: readonly string[]): string {
  let best = { matched: -1, at: 0 };
  for (let i = 0; i < lines.length; i++) {
    let k = 0;
    while (k < run.length && lines[i + k] === run[k]) k++;
    if (k > best.matched) best = { matched: k, at: i };
  }
  const readme = run[Math.max(0, best.matched)] ?? '';
  const output = best.matched > 0 ? (lines[best.at + best.matched] ?? '(the end)') : '(no such line)';
  return `"${readme}" (the output: "${output}")`;
}
