// Pure helpers for UTC calendar days. The API's dates are UTC days (API-NOTES); edgelog writes them as
// ISO `YYYY-MM-DD` everywhere and converts to the API's `MM-dd-yyyy` only when building a URL.
import { UsageError } from '../errors/usage-error.js';

/** A UTC calendar day written `YYYY-MM-DD`. */
export type Day = string & { readonly __brand: 'Day' };

export const DAY_MS = 86_400_000;

const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const API_DAY = /^(\d{2})-(\d{2})-(\d{4})$/;

function checkedDay(year: number, month: number, day: number, input: string): Day {
  const ms = Date.UTC(year, month - 1, day);
  const d = new Date(ms);
  if (year < 1970 || d.getUTCFullYear() !== year || d.getUTCMonth() !== month - 1 || d.getUTCDate() !== day) {
    throw new UsageError(`"${input}" is not a real calendar day`);
  }
  return dayOf(ms);
}

/** Whether `text` is written `YYYY-MM-DD` (the shape only: parseDay checks the calendar too). */
export function isDayText(text: string): boolean {
  return ISO_DAY.test(text);
}

/** Parses `YYYY-MM-DD` or the API's `MM-dd-yyyy`; throws UsageError on anything else or an impossible day. */
export function parseDay(input: string): Day {
  const iso = ISO_DAY.exec(input);
  if (iso) return checkedDay(Number(iso[1]), Number(iso[2]), Number(iso[3]), input);
  const api = API_DAY.exec(input);
  if (api) return checkedDay(Number(api[3]), Number(api[1]), Number(api[2]), input);
  throw new UsageError(`"${input}" is not a date: use YYYY-MM-DD (a UTC day), or MM-dd-yyyy`);
}

/** The UTC day containing the instant `ms` (milliseconds since the epoch). */
export function dayOf(ms: number): Day {
  return new Date(ms).toISOString().slice(0, 10) as Day;
}

/** The API's path form of a day: `MM-dd-yyyy`. */
export function toApiDate(day: Day): string {
  return `${day.slice(5, 7)}-${day.slice(8, 10)}-${day.slice(0, 4)}`;
}

/** First millisecond of the day. */
export function dayStartMs(day: Day): number {
  return Date.parse(`${day}T00:00:00.000Z`);
}

/** First millisecond after the day. */
export function dayEndMs(day: Day): number {
  return dayStartMs(day) + DAY_MS;
}

export function addDays(day: Day, n: number): Day {
  return dayOf(dayStartMs(day) + n * DAY_MS);
}

/** Every day from `from` to `to`, both included, oldest first; empty when `to` is before `from`. */
export function dayRange(from: Day, to: Day): Day[] {
  const days: Day[] = [];
  for (let ms = dayStartMs(from), end = dayStartMs(to); ms <= end; ms += DAY_MS) days.push(dayOf(ms));
  return days;
}

/** ISO-8601 UTC time of a millisecond timestamp, e.g. `2024-10-15T00:27:45.848Z`. */
export function isoTime(ms: number): string {
  return new Date(ms).toISOString();
}
