// Pure: silences as the alerts layer sees them (the store keeps their matchers as JSON text), which of
// them hold at a time, and the silence `edgelog alerts silence <rule> --zone …` asks for.
import { randomInt } from 'node:crypto';
import type { SilenceRow } from '../store/store.js';
import {
  MatcherError,
  matchesAll,
  parseMatcher,
  SILENCE_LABELS,
  type AlertLabels,
  type Matcher,
} from './silence-matchers.js';
import { zoneOf } from './sql-rows.js';

export interface Silence {
  id: string;
  matchers: Matcher[];
  /** ms */
  startsAt: number;
  /** ms: the silence holds in [startsAt, endsAt). */
  endsAt: number;
  comment: string | null;
  createdAt: number;
}

export function silenceFromRow(row: SilenceRow): Silence {
  return {
    id: row.id,
    matchers: JSON.parse(row.matchers) as Matcher[],
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    comment: row.comment,
    createdAt: row.created_at,
  };
}

export function silenceToRow(s: Silence): SilenceRow {
  return {
    id: s.id,
    matchers: JSON.stringify(s.matchers),
    starts_at: s.startsAt,
    ends_at: s.endsAt,
    comment: s.comment,
    created_at: s.createdAt,
  };
}

/** A silence's id: twelve random digits (easy to read out and type; no letters to mistake). */
export function newSilenceId(): string {
  return String(randomInt(100_000_000_000, 1_000_000_000_000));
}

export const isActive = (s: Silence, now: number): boolean => s.startsAt <= now && now < s.endsAt;

/** The silences that hold for an alert with these labels at `now` (empty: it is not silenced). */
export function silencing(silences: readonly Silence[], labels: AlertLabels, now: number): Silence[] {
  return silences.filter((s) => isActive(s, now) && matchesAll(s.matchers, labels));
}

/** An alert's labels, as receivers get them (payload.ts) and silences match them. */
export function alertLabels(rule: string, source: string, zone: number, severity?: string): AlertLabels {
  return { alertname: rule, source, zone: String(zone), severity };
}

/**
 * The labels edgelog gives every alert (payload.ts labelsOf): a sql rule's row cannot claim them, so a
 * statement returning a column named `alertname` or `severity` can neither slip out of a silence of its
 * rule nor into another's.
 */
const RESERVED = new Set(['alertname', 'source', 'zone', 'severity', 'rule_type']);

/**
 * A sql rule's alert as silences see it: its row's labels, and edgelog's own over them, as receivers get
 * them (alertname the rule, source `sql`, zone the row's zone id or 0, the rule's severity).
 */
export function seriesLabels(
  rule: string,
  labels: Readonly<Record<string, string>>,
  severity?: string,
): AlertLabels {
  // No prototype: a column named `__proto__` or `constructor` is a label like another.
  const out: Record<string, string | undefined> = Object.create(null) as Record<string, string | undefined>;
  for (const [k, v] of Object.entries(labels)) if (!RESERVED.has(k)) out[k] = v;
  return Object.assign(out, alertLabels(rule, 'sql', zoneOf(labels), severity));
}

export interface SilenceRequest {
  rule: string;
  zones: readonly number[];
  /** More matchers, as text (`severity=critical`). */
  match: readonly string[];
  /** How long from now; or `until`. */
  forMs?: number | undefined;
  until?: number | undefined;
  comment?: string | undefined;
  /**
   * Whether the rule's alerts carry labels of their own (a sql rule's: its statement's columns), which
   * matchers may then name. @defaultValue false: a label beyond alertname, zone, source and severity is
   * refused (a typo would otherwise silence nothing, or with `!=`, everything else the silence names)
   */
  rowLabels?: boolean | undefined;
}

/** Silences last an hour unless told otherwise (amtool's default). */
export const DEFAULT_SILENCE_MS = 3_600_000;

/**
 * The silence a request asks for: the rule by name (`alertname="rule"`), its zones as one anchored
 * alternative (`zone=~"101|102"`), and the extra matchers. Throws a RangeError for an end not after now.
 */
export function planSilence(req: SilenceRequest, id: string, now: number): Silence {
  if (req.forMs !== undefined && req.until !== undefined)
    throw new RangeError('give --for or --until, not both');
  const endsAt = req.until ?? now + (req.forMs ?? DEFAULT_SILENCE_MS);
  if (!(endsAt > now))
    throw new RangeError(`the silence would end at once (${new Date(endsAt).toISOString()})`);
  const matchers: Matcher[] = [{ name: 'alertname', op: '=', value: req.rule }];
  if (req.zones.length === 1) matchers.push({ name: 'zone', op: '=', value: String(req.zones[0]) });
  else if (req.zones.length > 1) matchers.push({ name: 'zone', op: '=~', value: req.zones.join('|') });
  for (const text of req.match) {
    const m = parseMatcher(text);
    if (!req.rowLabels && !(SILENCE_LABELS as readonly string[]).includes(m.name))
      throw new MatcherError(
        `unknown label "${m.name}" in a matcher (known: ${SILENCE_LABELS.join(', ')}; a sql rule's alerts also carry its statement's columns)`,
      );
    matchers.push(m);
  }
  return { id, matchers, startsAt: now, endsAt, comment: req.comment ?? null, createdAt: now };
}
