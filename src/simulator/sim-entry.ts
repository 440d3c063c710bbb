// The oracle's view of one served entry: the element's JSON text as sent, and its fields typed as
// honestly as its odd kind allows (a plain entry has every field; an unkeyable one may have none).
import { isKeyable, type KeyableOddKind, type OddKind, type UnkeyableOddKind } from './odd-entry.js';

/** What every oracle entry has besides the fields of the served element. */
interface SimEntryCommon {
  /** The exact JSON text of the element as served inside `logs: [...]`. */
  raw: string;
  /** The served element's `log` is a string cut short (malformedRate); false when it has no string log. */
  malformed: boolean;
}

/** An entry as the API documents it. */
export interface PlainSimEntry extends SimEntryCommon {
  odd: null;
  keyable: true;
  logId: string;
  timestamp: number;
  log: string;
  labels: Record<string, string>;
}

/** An odd entry with a usable key: `log` and `labels` are what was served (undefined when missing). */
export interface OddKeyableSimEntry extends SimEntryCommon {
  odd: KeyableOddKind;
  keyable: true;
  logId: string;
  timestamp: number;
  log: string | null | undefined;
  labels: Record<string, unknown> | null | undefined;
}

/**
 * An entry that cannot be keyed: each field holds what the served element has (undefined when it is
 * missing, or when the element is not an object at all); `raw` is what to compare a quarantine with.
 */
export interface UnkeyableSimEntry extends SimEntryCommon {
  odd: UnkeyableOddKind;
  keyable: false;
  logId: unknown;
  timestamp: unknown;
  log: unknown;
  labels: unknown;
}

/**
 * One entry of the oracle. Narrow on `keyable` (or `odd`): `entries().filter((e) => e.keyable)` are the
 * rows an archive must hold, with `logId: string` and `timestamp: number`.
 */
export type SimEntry = PlainSimEntry | OddKeyableSimEntry | UnkeyableSimEntry;

/** The oracle entry of an element served as `raw`; `cutLog` when its log string was cut short. */
export function toSimEntry(raw: string, odd: OddKind | null, cutLog: boolean): SimEntry {
  const value: unknown = JSON.parse(raw);
  const fields = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const { logId, timestamp, log, labels } = fields;
  const malformed = cutLog && typeof log === 'string';
  // The kind decides keyability (the generator guarantees the fields to match); the cast records that.
  return { logId, timestamp, log, labels, malformed, raw, odd, keyable: isKeyable(odd) } as SimEntry;
}
