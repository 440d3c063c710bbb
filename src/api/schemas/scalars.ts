// Scalar building blocks shared by the response schemas.
import { z } from 'zod';

export const int32 = z.number().int().min(-2_147_483_648).max(2_147_483_647);
/** int64 on the wire; JavaScript holds it exactly only up to 2^53, so larger values are refused. */
export const int64 = z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);

/** A date-time string the platform writes with or without an offset (e.g. `2024-10-15T00:27:45.848`). */
export const dateTime = z
  .string()
  .min(1)
  .refine((s) => !Number.isNaN(Date.parse(s)), { error: 'expected a date-time string' });

/** An integer member of an enumeration table. */
export function enumInt(name: string, table: Readonly<Record<string, number>>) {
  const values = new Set(Object.values(table));
  return int32.refine((v) => values.has(v), {
    error: (issue) => `${String(issue.input)} is not a ${name} (${[...values].join(', ')})`,
  });
}

/** Tolerant field of the non-video resources: may be null or missing (API-NOTES). */
export const opt = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** The inline error object of Shield answers: `{ success, message, errorKey }`. */
export const inlineError = z.looseObject({
  success: opt(z.boolean()),
  message: opt(z.string()),
  errorKey: opt(z.string()),
});
