// Bounded durations and numbers for the configuration schema. Every key has a floor and a ceiling, and a
// value outside them gets a message with the bound it broke and an example of a good value (the key
// itself is named by the line the loader prints), instead of passing validation and failing later.
import { z } from 'zod';
import { formatDuration, parseDuration } from './duration.js';

/**
 * Node keeps a timer's delay in a signed 32-bit count of milliseconds: a longer one fires after 1 ms
 * (with a TimeoutOverflowWarning), and AbortSignal.timeout throws a RangeError past 2^32-1. Every
 * duration that ends up in a timer has a ceiling below this.
 */
export const TIMER_MAX_MS = 2 ** 31 - 1;

export interface DurationBounds {
  /** Shortest accepted duration, e.g. "1s"; "0s" allows zero. */
  min: string;
  /** Longest accepted duration, e.g. "1h". */
  max: string;
  /** A good value for the messages. @defaultValue the key's default */
  example?: string;
}

function ms(text: string): number {
  const value = parseDuration(text);
  if (value === undefined) throw new TypeError(`not a duration: ${text}`);
  return value;
}

/** A duration key: "30s", "15m", "1h", "2d" or milliseconds, within `bounds`, parsed to milliseconds. */
export function duration(fallback: string, bounds: DurationBounds) {
  const min = ms(bounds.min);
  const max = ms(bounds.max);
  const eg = `e.g. "${bounds.example ?? fallback}"`;
  return z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const got = parseDuration(value);
      if (got === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a duration such as "30s", "15m", "1h" or milliseconds, ${eg}`,
        });
        return z.NEVER;
      }
      if (got < min || got > max) {
        const bound = got < min ? `at least ${bounds.min}` : `at most ${bounds.max}`;
        ctx.addIssue({ code: 'custom', message: `must be ${bound} (got ${formatDuration(got)}), ${eg}` });
        return z.NEVER;
      }
      return got;
    })
    .meta({ accepted: `\`${bounds.min}\`–\`${bounds.max}\`` });
}

export interface NumberBounds {
  min: number;
  max: number;
  /** A good value for the messages. */
  example: number;
}

const show = (n: number) => (Number.isSafeInteger(n) && n >= 10_000 ? n.toLocaleString('en-US') : String(n));

/** A whole-number key within `bounds`. */
export function wholeNumber(bounds: NumberBounds) {
  const eg = `e.g. ${bounds.example}`;
  const expected = `expected a whole number from ${show(bounds.min)} to ${show(bounds.max)}, ${eg}`;
  return z
    .number({ error: expected })
    .int({ error: expected })
    .min(bounds.min, {
      error: (iss) => `must be at least ${show(bounds.min)} (got ${String(iss.input)}), ${eg}`,
    })
    .max(bounds.max, {
      error: (iss) => `must be at most ${show(bounds.max)} (got ${String(iss.input)}), ${eg}`,
    });
}

/** A number key, possibly fractional, greater than `above` and at most `max`. */
export function positiveNumber(bounds: { above: number; max: number; example: number }) {
  const eg = `e.g. ${bounds.example}`;
  return z
    .number({ error: `expected a number above ${bounds.above} and at most ${bounds.max}, ${eg}` })
    .gt(bounds.above, { error: (iss) => `must be above ${bounds.above} (got ${String(iss.input)}), ${eg}` })
    .max(bounds.max, { error: (iss) => `must be at most ${bounds.max} (got ${String(iss.input)}), ${eg}` })
    .meta({ accepted: `above ${bounds.above}, at most ${bounds.max}` });
}
