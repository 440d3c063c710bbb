// The Shield report's data: WAF events by rule, country, ASN, method, severity and status, and over time.
import type { Db } from '../store/sqlite/database.js';
import { rawParams, rawTop, ruleMessageSql } from './raw-queries.js';
import { histogram, rollupTop, zoneTotals, type ZoneTotal } from './rollup-queries.js';
import { SHIELD, type ReportParams, type ReportScope, type TopItem } from './sources.js';
import type { HistogramBucket, ReportWindow } from './window.js';

export interface RuleItem extends TopItem {
  /** The rule's name, from the message of one of its events in the window. */
  message: string | null;
}

export interface ShieldReport {
  source: 'shield';
  zone: number | null;
  window: ReportWindow;
  total: number;
  zones: ZoneTotal[];
  histogram: HistogramBucket[];
  rules: RuleItem[];
  severities: TopItem[];
  statuses: TopItem[];
  countries: TopItem[];
  asns: TopItem[];
  methods: TopItem[];
}

export function buildShieldReport(db: Db, { scope, top }: ReportParams): ShieldReport {
  return db.transaction(() => {
    const zones = zoneTotals(db, SHIELD, scope);
    const zoneIds = zones.map((z) => z.zone);
    // shield_hourly stores missing attributes as '' (they are key columns).
    const rules = rollupTop<string | null>(db, SHIELD, scope, "NULLIF(rule_id, '')", top);
    return {
      source: 'shield' as const,
      zone: scope.zone,
      window: scope.window,
      total: zones.reduce((sum, z) => sum + z.count, 0),
      zones,
      histogram: histogram(db, SHIELD, scope),
      rules: rules.map((r) => ({ ...r, message: ruleMessage(db, zoneIds, scope, r.key) })),
      severities: rollupTop<string | null>(db, SHIELD, scope, "NULLIF(severity, '')", top),
      statuses: rollupTop<string | null>(db, SHIELD, scope, "NULLIF(status, '')", top),
      countries: rawTop(db, SHIELD, zoneIds, scope, 'country', top),
      asns: rawTop(db, SHIELD, zoneIds, scope, 'asn', top),
      methods: rawTop(db, SHIELD, zoneIds, scope, 'method', top),
    };
  })();
}

/** A rule's message (its name). Frequent rules match within the first few entries of the range. */
function ruleMessage(db: Db, zones: number[], scope: ReportScope, ruleId: string | null): string | null {
  if (ruleId === null || zones.length === 0) return null;
  const message = db
    .prepare(ruleMessageSql)
    .pluck()
    .get({ ...rawParams(zones, scope), rule: ruleId }) as string | undefined;
  return message ?? null;
}
