// Pure: the alerts the store holds — a rule's per zone (alert_state), a sql rule's per row of its
// statement (alert_series_state) — each with the labels silences match, as the evaluator builds them;
// what `status`, `/metrics` and `alerts list` count and show silenced.
import type { AlertLabels } from './silence-matchers.js';
import { alertLabels, seriesLabels } from './silences.js';

export interface StoredAlert {
  rule: string;
  state: string;
  labels: AlertLabels;
}

/** The alert_state columns read here. */
export interface ZoneAlertRow {
  rule: string;
  zone_id: number;
  source: string;
  state: string;
}

/** The alert_series_state columns read here: `labels` is the row's labels as JSON. */
export interface SeriesAlertRow {
  rule: string;
  labels: string;
  state: string;
}

/** A series' stored labels (written by the evaluator as a JSON object of strings); {} if not that. */
export function storedLabels(json: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
  return Object.fromEntries(
    Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string'),
  );
}

/**
 * The stored alerts of the configured rules (a rule no longer configured keeps its rows; they are not
 * counted), in the order given: the zones' first, then the series'.
 */
export function storedAlerts(
  zones: readonly ZoneAlertRow[],
  series: readonly SeriesAlertRow[],
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
): StoredAlert[] {
  const severity = new Map(rules.map((r) => [r.name, r.severity]));
  const out: StoredAlert[] = [];
  for (const s of zones) {
    if (!severity.has(s.rule)) continue;
    out.push({
      rule: s.rule,
      state: s.state,
      labels: alertLabels(s.rule, s.source, s.zone_id, severity.get(s.rule)),
    });
  }
  for (const s of series) {
    if (!severity.has(s.rule)) continue;
    out.push({
      rule: s.rule,
      state: s.state,
      labels: seriesLabels(s.rule, storedLabels(s.labels), severity.get(s.rule)),
    });
  }
  return out;
}
