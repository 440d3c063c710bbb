// The Shield report's data: WAF events by rule, country, ASN, method, severity and status, and over time.
import type { ReportReads } from '../store/store.js';
import { logReportHead, type LogReportHead, type ReportParams, type TopItem } from './sources.js';

export interface RuleItem extends TopItem {
  /** The rule's name, from the message of one of its events in the window. */
  message: string | null;
}

export interface ShieldReport extends LogReportHead<'shield'> {
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
  { scope, top, now }: ReportParams,
): Promise<ShieldReport> {
  const { head, read: s, zoneIds } = await logReportHead(reads, 'shield', scope, now);
  const rules = (await reads.rollupTop('shield', s, 'rule_id', top)) as TopItem[];
  const named: RuleItem[] = [];
  // A rule's message is its name; frequent rules match within the first few entries of the range.
  for (const r of rules)
    named.push({ ...r, message: r.key === null ? null : await reads.ruleMessage(zoneIds, s, r.key) });
  return {
    ...head,
    rules: named,
    severities: (await reads.rollupTop('shield', s, 'severity', top)) as TopItem[],
    statuses: (await reads.rollupTop('shield', s, 'status', top)) as TopItem[],
    countries: await reads.rawTop('shield', zoneIds, s, 'country', top),
    asns: await reads.rawTop('shield', zoneIds, s, 'asn', top),
    methods: await reads.rawTop('shield', zoneIds, s, 'method', top),
  };
}
