// A strict parser of the Prometheus text exposition format (version 0.0.4), for tests: it refuses what
// Prometheus would refuse (bad names, bad escapes, bad values, a family split in two, a sample before its
// TYPE, a duplicate series), and also what edgelog promises never to serve: a family without HELP or TYPE.

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  /** The sample's own name (e.g. `x_bucket` of the histogram `x`). */
  name: string;
  labels: Record<string, string>;
  value: number;
  timestamp?: number;
}

export interface Family {
  name: string;
  help: string;
  type: MetricType;
  samples: Sample[];
}

export class PromTextError extends Error {
  constructor(line: number, message: string) {
    super(`line ${line}: ${message}`);
  }
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);
const SUFFIXES: Record<MetricType, readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

function parseValue(text: string, line: number): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  // Prometheus reads values with Go's strconv.ParseFloat, which ignores case in "NaN": prom-client
  // writes a NaN value as "Nan" (seen once in a scrape right after start).
  if (/^nan$/i.test(text)) return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) {
    throw new PromTextError(line, `not a sample value: "${text}"`);
  }
  return Number(text);
}

function unescapeHelp(text: string, line: number): string {
  return text.replace(/\\(.?)/g, (_, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    throw new PromTextError(line, `bad escape "\\${c}" in HELP`);
  });
}

/** Reads `{a="x",b="y"}` from `text` at `at` (just past `{`); returns the labels and where it ended. */
function parseLabels(
  text: string,
  at: number,
  line: number,
): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = at;
  for (;;) {
    if (text[i] === '}') return { labels, end: i + 1 };
    const eq = text.indexOf('=', i);
    if (eq < 0) throw new PromTextError(line, 'label without "="');
    const name = text.slice(i, eq).trim();
    if (!LABEL_NAME.test(name)) throw new PromTextError(line, `bad label name "${name}"`);
    if (name in labels) throw new PromTextError(line, `label "${name}" given twice`);
    if (text[eq + 1] !== '"') throw new PromTextError(line, `label "${name}": value not quoted`);
    let value = '';
    let j = eq + 2;
    for (; ; j++) {
      const c = text[j];
      if (c === undefined) throw new PromTextError(line, `label "${name}": unterminated value`);
      if (c === '"') break;
      if (c === '\\') {
        const n = text[++j];
        if (n === '\\' || n === '"') value += n;
        else if (n === 'n') value += '\n';
        else throw new PromTextError(line, `label "${name}": bad escape "\\${n ?? ''}"`);
      } else value += c;
    }
    labels[name] = value;
    i = j + 1;
    if (text[i] === ',') i++;
    else if (text[i] !== '}') throw new PromTextError(line, `after label "${name}": expected "," or "}"`);
  }
}

/** Parses a whole exposition; throws PromTextError naming the line of the first problem. */
export function parsePromText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const partial = new Map<string, { help?: string; type?: MetricType; samples: Sample[] }>();
  const seenSeries = new Set<string>();
  let current: string | undefined;
  const closed = new Set<string>();
  const open = (name: string, line: number) => {
    if (current !== name) {
      if (closed.has(name)) throw new PromTextError(line, `family ${name} appears in two places`);
      if (current !== undefined) closed.add(current);
      current = name;
    }
    let f = partial.get(name);
    if (!f) partial.set(name, (f = { samples: [] }));
    return f;
  };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  else throw new PromTextError(lines.length, 'the text must end with a line feed');
  lines.forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    if (raw.startsWith('#')) {
      const m = /^#\s+(HELP|TYPE)\s+(\S+)(?:\s(.*))?$/.exec(raw);
      if (!m) return; // a comment
      const [, kind, name, rest = ''] = m;
      if (!METRIC_NAME.test(name!)) throw new PromTextError(line, `bad metric name "${name}"`);
      const f = open(name!, line);
      if (kind === 'HELP') {
        if (f.help !== undefined) throw new PromTextError(line, `second HELP for ${name}`);
        f.help = unescapeHelp(rest, line);
      } else {
        if (f.type !== undefined) throw new PromTextError(line, `second TYPE for ${name}`);
        if (f.samples.length > 0) throw new PromTextError(line, `TYPE for ${name} after its samples`);
        if (!TYPES.has(rest.trim() as MetricType)) throw new PromTextError(line, `unknown type "${rest}"`);
        f.type = rest.trim() as MetricType;
      }
      return;
    }
    const nameEnd = raw.search(/[{\s]/);
    const name = nameEnd < 0 ? raw : raw.slice(0, nameEnd);
    if (!METRIC_NAME.test(name)) throw new PromTextError(line, `bad metric name "${name}"`);
    let labels: Record<string, string> = {};
    let rest = raw.slice(name.length);
    if (rest.startsWith('{')) {
      const parsed = parseLabels(raw, name.length + 1, line);
      labels = parsed.labels;
      rest = raw.slice(parsed.end);
    }
    const fields = rest.trim().split(/\s+/);
    if (!/^\s/.test(rest) || fields.length < 1 || fields.length > 2 || fields[0] === '') {
      throw new PromTextError(line, `expected "<name>{labels} <value> [timestamp]"`);
    }
    const value = parseValue(fields[0]!, line);
    const timestamp = fields[1] === undefined ? undefined : Number(fields[1]);
    if (timestamp !== undefined && !Number.isInteger(timestamp)) {
      throw new PromTextError(line, `bad timestamp "${fields[1]}"`);
    }
    const exact = partial.get(name);
    const family: [string, typeof exact & object] | undefined =
      exact?.type && SUFFIXES[exact.type].includes('')
        ? [name, exact]
        : [...partial.entries()].find(
            ([fname, f]) => f.type && SUFFIXES[f.type].some((s) => `${fname}${s}` === name),
          );
    if (!family) throw new PromTextError(line, `sample ${name} has no TYPE before it`);
    const [fname, f] = family;
    if (current !== fname) throw new PromTextError(line, `sample ${name} is away from its family ${fname}`);
    if (f.type === 'histogram' && name.endsWith('_bucket') && labels.le === undefined) {
      throw new PromTextError(line, `bucket of ${fname} without "le"`);
    }
    const series = `${name}${JSON.stringify(Object.entries(labels).sort())}`;
    if (seenSeries.has(series)) throw new PromTextError(line, `duplicate series ${series}`);
    seenSeries.add(series);
    f.samples.push({ name, labels, value, ...(timestamp === undefined ? {} : { timestamp }) });
  });
  for (const [name, f] of partial) {
    if (f.help === undefined) throw new PromTextError(lines.length, `family ${name} has no HELP`);
    if (f.type === undefined) throw new PromTextError(lines.length, `family ${name} has no TYPE`);
    families.set(name, { name, help: f.help, type: f.type, samples: f.samples });
  }
  return families;
}

/** The value of the one sample of `family` whose labels include `labels`; throws when none or several. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Record<string, string> = {},
): number {
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const f = families.get(name) ?? families.get(base);
  if (!f) throw new Error(`no family ${name}`);
  const found = f.samples.filter(
    (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (found.length !== 1) {
    throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  }
  return found[0]!.value;
}
