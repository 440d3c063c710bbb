// Origin error log entries (API.md 2.5 + API-NOTES): `log` is a JSON object whose StatusCode is a
// number, while labels.StatusCode is a string. A vocabulary renders a zone's pieces once, pre-escaped.
import { plainText, type Mark } from './hostile.js';
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

function render(zone: number, e: OriginError, m: Mark): RenderedError {
  return {
    tails: e.statuses.map((status) =>
      esc(
        `","PullZoneId":${zone},"Message":${q(m(e.message))},"ErrorCode":${q(m(e.code))},"StatusCode":${status}}`,
      ),
    ),
    labels: e.statuses.map((status) =>
      SERVER_ZONES.map(
        (sz) =>
          `{"ErrorCode":${q(m(e.code))},"StatusCode":${q(m(String(status)))},"ServerZone":${q(m(sz.code))}}`,
      ),
    ),
  };
}

/**
 * The pieces of one pull zone's entries; with an override, every entry has its status and code. `mark`
 * is applied to every string the entries hold (the hostileText knob).
 */
export function originVocab(zone: number, override?: OriginOverride, mark: Mark = plainText): OriginVocab {
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
    // The URL is a string built of pieces: the mark goes in front of the first.
    head: esc(`{"RequestUrl":${q(mark(`https://pz-${zone}.b-cdn.net`)).slice(0, -1)}`),
    paths: ORIGIN_PATHS.map(esc),
    picks: weighted(errors.map((e, i) => [i, e.weight] as const)),
    errors: errors.map((e) => render(zone, e, mark)),
  };
}

export function originEntry(vocab: OriginVocab, rng: Rng, out: EntryText): void {
  const error = vocab.errors[rng.pick(vocab.picks)]!;
  const s = Math.floor(rng.float() * error.tails.length);
  const path = rng.pick(vocab.paths);
  out.log = `${vocab.head}${path}${rng.int(1, 99_999)}${error.tails[s]!}`;
  out.labels = error.labels[s]![Math.floor(rng.float() * SERVER_ZONES.length)]!;
}
