// Origin error log entries (API.md 2.5 + API-NOTES): `log` is a JSON object whose StatusCode is a
// number, while labels.StatusCode is a string. A vocabulary renders a zone's pieces once, pre-escaped.
import { esc, q } from './json-text.js';
import type { Rng } from './prng.js';
import { ORIGIN_ERRORS, ORIGIN_PATHS, SERVER_ZONES, weighted, type OriginError } from './tables.js';

/** One entry's texts: `log` is ESCAPED for use inside a JSON string; `labels` is a JSON object text. */
export interface EntryText {
  log: string;
  labels: string;
}

interface RenderedError {
  /** Per status: the end of the log text, from after the request URL to the closing brace. */
  tails: string[];
  /** Per status, per server zone: the labels object. */
  labels: string[][];
}

export interface OriginVocab {
  head: string;
  paths: readonly string[];
  /** Indexes into `errors`, repeated by weight. */
  picks: readonly number[];
  errors: readonly RenderedError[];
}

/** What a spike fixes for its entries. */
export interface OriginOverride {
  statusCode?: number | undefined;
  errorCode?: string | undefined;
}

function render(zone: number, e: OriginError): RenderedError {
  return {
    tails: e.statuses.map((status) =>
      esc(
        `","PullZoneId":${zone},"Message":${q(e.message)},"ErrorCode":${q(e.code)},"StatusCode":${status}}`,
      ),
    ),
    labels: e.statuses.map((status) =>
      SERVER_ZONES.map(
        (sz) => `{"ErrorCode":${q(e.code)},"StatusCode":"${status}","ServerZone":"${sz.code}"}`,
      ),
    ),
  };
}

/** The pieces of one pull zone's entries; with an override, every entry has its status and code. */
export function originVocab(zone: number, override?: OriginOverride): OriginVocab {
  let errors: readonly OriginError[] = ORIGIN_ERRORS;
  if (override) {
    const code = override.errorCode ?? 'http_timeout';
    const known = ORIGIN_ERRORS.find((e) => e.code === code);
    errors = [
      {
        code,
        message: known?.message ?? `Origin error ${code}`,
        statuses: [override.statusCode ?? 503],
        weight: 1,
      },
    ];
  }
  return {
    head: esc(`{"RequestUrl":"https://pz-${zone}.b-cdn.net`),
    paths: ORIGIN_PATHS.map(esc),
    picks: weighted(errors.map((e, i) => [i, e.weight] as const)),
    errors: errors.map((e) => render(zone, e)),
  };
}

export function originEntry(vocab: OriginVocab, rng: Rng, out: EntryText): void {
  const error = vocab.errors[rng.pick(vocab.picks)]!;
  const s = Math.floor(rng.float() * error.tails.length);
  const path = rng.pick(vocab.paths);
  out.log = `${vocab.head}${path}${rng.int(1, 99_999)}${error.tails[s]!}`;
  out.labels = error.labels[s]![Math.floor(rng.float() * SERVER_ZONES.length)]!;
}
