// Odd log entries (the `oddEntryRate` knob): elements of `logs` that a careless API really sends.
// Keyable ones still carry a usable logId and timestamp, so an archive can store them with NULL columns;
// unkeyable ones cannot be stored as rows and must be quarantined as raw JSON. Pure: the entry's parts
// and a reseeded Rng in, the element's JSON text out.
import { q } from './json-text.js';
import type { Rng } from './prng.js';

export const KEYABLE_ODD_KINDS = [
  'null-log',
  'missing-log',
  'null-labels',
  'missing-labels',
  'null-label-value',
  'nested-label',
  'number-label',
] as const;

export const UNKEYABLE_ODD_KINDS = [
  'null-logId',
  'missing-logId',
  'empty-logId',
  'number-logId',
  'null-timestamp',
  'string-timestamp',
  'float-timestamp',
  'negative-timestamp',
  'not-an-object',
] as const;

export type KeyableOddKind = (typeof KEYABLE_ODD_KINDS)[number];
export type UnkeyableOddKind = (typeof UNKEYABLE_ODD_KINDS)[number];
export type OddKind = KeyableOddKind | UnkeyableOddKind;

/** Every odd kind; an odd entry's kind is drawn uniformly from this list. */
export const ODD_KINDS: readonly OddKind[] = [...KEYABLE_ODD_KINDS, ...UNKEYABLE_ODD_KINDS];

const KEYABLE: ReadonlySet<string> = new Set(KEYABLE_ODD_KINDS);

/** True when an entry of this kind has a string logId and an integer timestamp (null: a plain entry). */
export function isKeyable(kind: OddKind | null): kind is KeyableOddKind | null {
  return kind === null || KEYABLE.has(kind);
}

/** A plain entry's pieces: `log` is ESCAPED string content, `labels` a JSON object text. */
export interface EntryParts {
  logId: string;
  timestamp: number;
  log: string;
  labels: string;
}

/** The labels with one value (picked by `rng`) replaced by `value`. */
function oddLabel(labels: string, rng: Rng, value: (old: string) => unknown): string {
  const parsed = JSON.parse(labels) as Record<string, unknown>;
  const keys = Object.keys(parsed);
  if (keys.length === 0) return JSON.stringify({ odd: value('') });
  const key = keys[Math.floor(rng.float() * keys.length)]!;
  parsed[key] = value(String(parsed[key]));
  return JSON.stringify(parsed);
}

/** The JSON text of an entry of kind `kind` made from a plain entry's parts. */
export function oddEntryJson(kind: OddKind, p: EntryParts, rng: Rng): string {
  let logId: string | undefined = `"logId":"${p.logId}"`;
  let timestamp: string | undefined = `"timestamp":${p.timestamp}`;
  let log: string | undefined = `"log":"${p.log}"`;
  let labels: string | undefined = `"labels":${p.labels}`;
  switch (kind) {
    case 'null-log':
      log = '"log":null';
      break;
    case 'missing-log':
      log = undefined;
      break;
    case 'null-labels':
      labels = '"labels":null';
      break;
    case 'missing-labels':
      labels = undefined;
      break;
    case 'null-label-value':
      labels = `"labels":${oddLabel(p.labels, rng, () => null)}`;
      break;
    case 'nested-label':
      labels = `"labels":${oddLabel(p.labels, rng, () => ({ a: 1 }))}`;
      break;
    case 'number-label':
      // A numeric-looking value sent as the number it spells (StatusCode 503), others as some number.
      labels = `"labels":${oddLabel(p.labels, rng, (old) => (/^\d{1,15}$/.test(old) ? Number(old) : rng.int(1, 65_535)))}`;
      break;
    case 'null-logId':
      logId = '"logId":null';
      break;
    case 'missing-logId':
      logId = undefined;
      break;
    case 'empty-logId':
      logId = '"logId":""';
      break;
    case 'number-logId':
      logId = `"logId":${rng.int(1, 2_147_483_647)}`;
      break;
    case 'null-timestamp':
      timestamp = '"timestamp":null';
      break;
    case 'string-timestamp':
      timestamp = `"timestamp":"${p.timestamp}"`;
      break;
    case 'float-timestamp':
      timestamp = `"timestamp":${p.timestamp}.${rng.int(1, 9)}`;
      break;
    case 'negative-timestamp':
      timestamp = `"timestamp":-${p.timestamp}`;
      break;
    case 'not-an-object': {
      const plain = `{${logId},${timestamp},${log},${labels}}`;
      // null, the entry encoded a second time as a string, or a bare number.
      return [() => 'null', () => q(plain), () => String(p.timestamp)][rng.int(0, 2)]!();
    }
  }
  return `{${[logId, timestamp, log, labels].filter((f) => f !== undefined).join(',')}}`;
}
