// Pure: the line `edgelog status` gives alerts: how many alerts fire or wait, and how many of them a
// silence holds now (alerts/silences.ts decides as the evaluator does).
import { alertLabels, silenceFromRow, silencing } from '../alerts/silences.js';
import type { SilenceRow } from '../store/store.js';

export interface AlertSummaryState {
  rule: string;
  zone_id: number;
  source: string;
  state: string;
}

export interface AlertSummary {
  firing: number;
  pending: number;
  /** Alerts (any state) whose notices a silence holds now. */
  silenced: number;
  /** Silences in force now. */
  silences: number;
}

export function alertSummary(
  states: readonly AlertSummaryState[],
  silenceRows: readonly SilenceRow[],
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
  now: number,
): AlertSummary {
  const severity = new Map(rules.map((r) => [r.name, r.severity]));
  const silences = silenceRows.map(silenceFromRow).filter((s) => s.startsAt <= now && now < s.endsAt);
  const configured = states.filter((s) => severity.has(s.rule));
  return {
    firing: configured.filter((s) => s.state === 'firing').length,
    pending: configured.filter((s) => s.state === 'pending').length,
    silenced: configured.filter(
      (s) =>
        silencing(silences, alertLabels(s.rule, s.source, s.zone_id, severity.get(s.rule)), now).length > 0,
    ).length,
    silences: silences.length,
  };
}

export function renderAlertSummary(s: AlertSummary): string {
  const held = s.silenced > 0 ? `, ${s.silenced} silenced` : '';
  const silences =
    s.silences > 0
      ? `; ${s.silences} silence${s.silences === 1 ? '' : 's'} in force (edgelog alerts silences)`
      : '';
  return `alerts: ${s.firing} firing, ${s.pending} pending${held}${silences}`;
}
