// Pure: a spike rule's filter as `alerts list` shows it, in words a person reads at a glance
// (`status 500-599, error_code=http_timeout`) rather than the configuration's JSON.
import type { SpikeFilter } from '../store/store.js';

/** A value as written after `=`: bare when it is one plain word, else quoted as JSON. */
const value = (text: string) => (/^[\w.:/-]+$/.test(text) ? text : JSON.stringify(text));

/** The entries a filter counts: `status ≥ 500`, `status 500-599, severity=critical`, `every entry`. */
export function filterText(filter: SpikeFilter): string {
  const parts: string[] = [];
  const { statusCodeMin: min, statusCodeMax: max } = filter;
  if (min !== undefined && max !== undefined)
    parts.push(min === max ? `status ${min}` : `status ${min}-${max}`);
  else if (min !== undefined) parts.push(`status ≥ ${min}`);
  else if (max !== undefined) parts.push(`status ≤ ${max}`);
  const fields: Array<[string, string | undefined]> = [
    ['error_code', filter.errorCode],
    ['severity', filter.severity],
    ['rule_id', filter.ruleId],
    ['status', filter.status],
  ];
  for (const [name, v] of fields) if (v !== undefined) parts.push(`${name}=${value(v)}`);
  return parts.length === 0 ? 'every entry' : parts.join(', ');
}
