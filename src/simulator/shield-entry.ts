// Shield event log entries (API.md 2.9 + API-NOTES): string labels, and a `log` JSON object with
// ServerZoneId, Message (the rule name), Url, anonymised RemoteIp, UrlEncodedBody, Headers and
// TriggerMatch. A vocabulary renders a zone's pieces once, pre-escaped; an entry joins a dozen strings.
import { plainText, type Mark } from './hostile.js';
import { esc, hex8, q } from './json-text.js';
import type { EntryText } from './origin-entry.js';
import type { Rng } from './prng.js';
import {
  ACCEPTS,
  ASNS,
  SERVER_ZONES,
  SHIELD_RULES,
  SHIELD_STATUSES,
  USER_AGENTS,
  shieldRuleById,
  weighted,
  type ShieldRule,
} from './tables.js';

interface RenderedVariant {
  /** Log text from after ServerZoneId up to the RemoteIp value. */
  beforeIp: string;
  /** Per (user agent, accept): log text from after the RemoteIp up to the X-Request-Id value. */
  afterIp: string[];
  /** Log text from after the X-Request-Id value to the end. */
  end: string;
  /** Labels text from ruleId up to the status value. */
  labels: string;
}

interface RenderedRule {
  variants: RenderedVariant[];
  /** Per status pick, per server zone: the labels' end from the status value on. */
  tails: string[][];
}

export interface ShieldVocab {
  /** Indexes into `rules`, repeated by weight. */
  picks: readonly number[];
  rules: readonly RenderedRule[];
  asns: readonly string[];
}

/** What a spike fixes for its entries. */
export interface ShieldOverride {
  ruleId?: string | undefined;
  severity?: string | undefined;
}

const LOG_HEAD = esc('{"ServerZoneId":');

/** A marked string's JSON literal without its closing quote (more of the string follows it). */
const unclosed = (m: Mark, text: string) => q(m(text)).slice(0, -1);

function render(zone: number, rule: ShieldRule, severity: string, m: Mark): RenderedRule {
  const host = `shield-${zone}.example.com`;
  const statuses = rule.ruleGroup === 'RATELIMIT' ? ['429'] : SHIELD_STATUSES;
  const header = (name: string, value: string) => `{"Name":${q(m(name))},"Value":${q(m(value))}}`;
  return {
    variants: rule.variants.map((v) => ({
      beforeIp: esc(
        `,"Message":${q(m(rule.message))},"Url":${q(m(`https://${host}${v.path}`))},"RemoteIp":${unclosed(m, '')}`,
      ),
      afterIp: USER_AGENTS.flatMap((ua) =>
        ACCEPTS.map((accept) =>
          esc(
            `.*","UrlEncodedBody":${v.body === null ? 'null' : q(m(v.body))},"Headers":[` +
              `${header('Host', host)},${header('User-Agent', ua)},${header('Accept', accept)},` +
              `{"Name":${q(m('X-Request-Id'))},"Value":${unclosed(m, '')}`,
          ),
        ),
      ),
      end: esc(`"}],"TriggerMatch":{"Key":${q(m(v.triggerKey))},"Value":${q(m(v.triggerValue))}}}`),
      labels:
        `"ruleId":${q(m(rule.ruleId))},"severity":${q(m(severity))},"method":${q(m(v.method))},` +
        `"ruleGroup":${q(m(rule.ruleGroup))},"status":${unclosed(m, '')}`,
    })),
    tails: statuses.map((status) => SERVER_ZONES.map((sz) => `${status}","serverZone":${q(m(sz.code))}}`)),
  };
}

/**
 * The pieces of one shield zone's entries; with an override, every entry matches that rule. `mark` is
 * applied to every string the entries hold (the hostileText knob).
 */
export function shieldVocab(zone: number, override?: ShieldOverride, mark: Mark = plainText): ShieldVocab {
  const rules =
    override?.ruleId !== undefined ? [shieldRuleById(override.ruleId)] : (SHIELD_RULES as ShieldRule[]);
  return {
    picks: weighted(rules.map((r, i) => [i, r.weight] as const)),
    rules: rules.map((r) => render(zone, r, override?.severity ?? r.severity, mark)),
    asns: ASNS.map(([asn, country]) => `{"asn":${q(mark(asn))},"country":${q(mark(country))},`),
  };
}

const PER_VARIANT = USER_AGENTS.length * ACCEPTS.length;

export function shieldEntry(vocab: ShieldVocab, rng: Rng, out: EntryText): void {
  const rule = vocab.rules[rng.pick(vocab.picks)]!;
  const v = rng.pick(rule.variants);
  const sz = Math.floor(rng.float() * SERVER_ZONES.length);
  const ip = `${rng.int(1, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}`;
  const afterIp = v.afterIp[Math.floor(rng.float() * PER_VARIANT)]!;
  out.log = `${LOG_HEAD}${SERVER_ZONES[sz]!.id}${v.beforeIp}${ip}${afterIp}${hex8(rng.next())}${v.end}`;
  out.labels = `${rng.pick(vocab.asns)}${v.labels}${rng.pick(rule.tails)[sz]!}`;
}
