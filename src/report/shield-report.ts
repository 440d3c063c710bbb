// The Shield report's data: WAF events by rule, country, ASN, method, severity and status, and over time.
import type { ReportReads } from '../store/store.js';
import type { ZoneTotal } from './origin-report.js';
import { readScope, type ReportParams, type TopItem } from './sources.js';
import { denseHistogram, type HistogramBucket, type ReportWindow } from './window.js';

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

/** Reads the report from one snapshot of the archive (`reads`). */
export async function buildShieldReport(
  reads: ReportReads,
  { scope, top }: ReportParams,
): Promise<ShieldReport> {
  const s = readScope(scope);
  const zones = await reads.zoneTotals('shield', s);
  const zoneIds = zones.map((z) => z.zone);
  const rules = (await reads.rollupTop('shield', s, 'rule_id', top)) as TopItem[];
  const named: RuleItem[] = [];
  // A rule's message is its name; frequent rules match within the first few entries of the range.
  for (const r of rules)
    named.push({ ...r, message: r.key === null ? null : await reads.ruleMessage(zoneIds, s, r.key) });
  return {
    source: 'shield' as const,
    zone: scope.zone,
    window: scope.window,
    total: zones.reduce((sum, z) => sum + z.count, 0),
    zones,
    histogram: denseHistogram(scope.window, await reads.buckets('shield', s, scope.window.bucketMs)),
    rules: named,
    severities: (await reads.rollupTop('shield', s, 'severity', top)) as TopItem[],
    statuses: (await reads.rollupTop('shield', s, 'status', top)) as TopItem[],
    countries: await reads.rawTop('shield', zoneIds, s, 'country', top),
    asns: await reads.rawTop('shield', zoneIds, s, 'asn', top),
    methods: await reads.rawTop('shield', zoneIds, s, 'method', top),
  };
}
