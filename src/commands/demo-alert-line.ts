// The demo's line about its sample alert rule: the rule's state and how the last value it measured
// compares with its threshold. Pure, so the comparison is tested by a table.
import type { AlertStateRow } from '../store/store.js';

export function sampleAlertLine(
  rule: string,
  zone: number,
  alert: Pick<AlertStateRow, 'state' | 'last_value' | 'last_threshold'> | undefined,
): string {
  const head = `Sample alert rule ${rule} on zone ${zone}: ${alert?.state ?? 'not evaluated'}`;
  if (alert?.last_value == null) return head;
  if (alert.last_threshold == null) return `${head} (${alert.last_value} errors)`;
  // The sign follows the figures: an inactive rule used to read "11 errors ≥ threshold 33".
  const sign = alert.last_value >= alert.last_threshold ? '≥' : '<';
  return `${head} (${alert.last_value} errors ${sign} threshold ${alert.last_threshold})`;
}
