// Pure: the line `edgelog status` gives alerts: how many alerts fire or wait — a rule's per zone and a
// sql rule's per row — and how many of them a silence holds now (alerts/silences.ts decides as the
// evaluator does).
import { silenceFromRow, silencing } from '../alerts/silences.js';
import { storedAlerts, type SeriesAlertRow, type ZoneAlertRow } from '../alerts/stored-alerts.js';
import type { SilenceRow } from '../store/store.js';

export type AlertSummaryState = ZoneAlertRow;
export type AlertSummarySeries = SeriesAlertRow;

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
  series: readonly AlertSummarySeries[],
  silenceRows: readonly SilenceRow[],
  rules: ReadonlyArray<{ name: string; severity?: string | undefined }>,
  now: number,
): AlertSummary {
  const silences = silenceRows.map(silenceFromRow).filter((s) => s.startsAt <= now && now < s.endsAt);
  const alerts = storedAlerts(states, series, rules);
  return {
    firing: alerts.filter((s) => s.state === 'firing').length,
    pending: alerts.filter((s) => s.state === 'pending').length,
    silenced: alerts.filter((s) => silencing(silences, s.labels, now).length > 0).length,
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
