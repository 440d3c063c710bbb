// The configuration file's schema: every key, its default, and the message a bad value gets.
import { z } from 'zod';
import { GUARDIAN_COUNTER_NAMES } from '../api/guardian-counters.js';
import { parseDuration } from './duration.js';

const zoneId = z
  .number({ error: 'expected a zone id: a positive integer' })
  .int({ error: 'expected a zone id: a positive integer' })
  .positive({ error: 'expected a zone id: a positive integer' })
  .max(Number.MAX_SAFE_INTEGER);

const zone = z.union([zoneId, z.strictObject({ id: zoneId, name: z.string().min(1).optional() })], {
  error: 'expected a zone id (a positive integer) or { "id": 123, "name": "…" }',
});

const duration = (fallback: string) =>
  z
    .union([z.string(), z.number()])
    .default(fallback)
    .transform((value, ctx) => {
      const ms = parseDuration(value);
      if (ms === undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `expected a duration such as "30s", "15m", "1h" or milliseconds`,
        });
        return z.NEVER;
      }
      return ms;
    });

const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' });

const apiSchema = z.strictObject({
  /** Shield, compute and rate-limit operations. */
  baseUrl: httpUrl.default('https://api.bunny.net'),
  /** Origin error logs. */
  originLogUrl: httpUrl.default('https://cdn-origin-logging.bunny.net'),
  /** Video play data. */
  videoUrl: httpUrl.default('https://video.bunnycdn.com'),
  /** Account API key, sent as the AccessKey header. Prefer the EDGELOG_ACCESS_KEY environment variable. */
  accessKey: z.string().min(1).optional(),
  /** Bound on establishing a TCP connection. */
  connectTimeout: duration('10s'),
  /** Bound on waiting for response headers. */
  headersTimeout: duration('30s'),
  /** Bound on silence while reading a response body. */
  bodyTimeout: duration('60s'),
  /** Largest response body accepted, in bytes. */
  maxResponseBytes: z
    .number()
    .int()
    .positive()
    .default(512 * 1024 * 1024),
  /** Attempts per request, the first included. */
  retryAttempts: z.number().int().min(1).max(50).default(6),
  /** First retry delay; doubles each attempt (with jitter) up to retryMaxDelay. */
  retryBaseDelay: duration('500ms'),
  retryMaxDelay: duration('30s'),
  /** Overall bound on one request including its retries. */
  requestDeadline: duration('5m'),
  /** Open connections per API host. */
  connections: z.number().int().min(1).max(256).default(16),
  /** Shield pages one zone-day may take before it is stopped as a runaway. */
  pageCap: z.number().int().positive().default(100_000),
});

const scheduleSchema = z.strictObject({
  /** How often today's (partial) day of every zone is fetched again. */
  refreshEvery: duration('1h'),
  /** A day counts as complete once fetched to exhaustion at least this long after it ended (late logs). */
  finalizeDelay: duration('1h'),
  /** Days before today that start-up catch-up covers for origin logs. */
  originLookbackDays: z.number().int().min(0).max(365).default(2),
  /** Days before today that Shield keeps (API-NOTES: today and the two days before). */
  shieldLookbackDays: z.number().int().min(0).max(30).default(2),
  /** How often API Guardian metrics are snapshotted. */
  guardianEvery: duration('15m'),
});

const workerSchema = z.strictObject({
  /** Jobs one process works at once. */
  concurrency: z.number().int().min(1).max(256).default(4),
  /**
   * Threads that fetch and decode Shield pages while the main thread stores them; 0 does it all on the
   * main thread. Default: 1 where there is a second core, else 0.
   */
  pageThreads: z.number().int().min(0).max(16).optional(),
  /** On SIGINT/SIGTERM, how long to wait for the jobs in hand before giving up on them. */
  shutdownTimeout: duration('20s'),
  /** Attempts of a job that fails with a retryable error. */
  jobAttempts: z.number().int().min(1).max(100).default(5),
  /** Completed jobs kept (by age and by count) for inspection. */
  keepCompleted: z
    .strictObject({ age: duration('1d'), count: z.number().int().min(0).default(1000) })
    .prefault({}),
  keepFailed: z
    .strictObject({ age: duration('7d'), count: z.number().int().min(0).default(5000) })
    .prefault({}),
});

const hookName = z.string().regex(/^[\w.-]+$/, { error: 'hook names are letters, digits, "_", "-" and "."' });

const hookSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      /** POST an Alertmanager-compatible (webhook v4) JSON payload. */
      type: z.literal('webhook'),
      url: httpUrl,
      /** Signs the body: header X-Edgelog-Signature: sha256=<hex HMAC-SHA256>. */
      secret: z.string().min(1).optional(),
      timeout: duration('10s'),
    }),
    z.strictObject({
      /** A Slack incoming webhook: a text message. */
      type: z.literal('slack'),
      url: httpUrl,
      timeout: duration('10s'),
    }),
  ],
  { error: 'expected a hook of type "webhook" or "slack"' },
);

const ruleBase = {
  name: z.string().regex(/^[\w.-]+$/, { error: 'rule names are letters, digits, "_", "-" and "."' }),
  /** Zones the rule watches; absent means every configured zone of its source. */
  zones: z.array(zoneId).optional(),
  hooks: z.array(hookName).default([]),
  /** How long the condition must hold before the alert fires. */
  for: duration('0s'),
  /** Free-form label passed to receivers (e.g. "critical"). */
  severity: z.string().optional(),
};

const hourMultiple = duration('1h').refine((ms) => ms > 0 && ms % 3_600_000 === 0, {
  error: 'must be a whole number of hours (the archive counts per hour), e.g. "1h" or "6h"',
});

const spikeRule = z.strictObject({
  ...ruleBase,
  type: z.literal('spike'),
  source: z.enum(['origin', 'shield']),
  /** Which entries count. Origin: statusCodeMin/Max, errorCode. Shield: severity, ruleId, status. */
  filter: z
    .strictObject({
      statusCodeMin: z.number().int().min(0).max(999).optional(),
      statusCodeMax: z.number().int().min(0).max(999).optional(),
      errorCode: z.string().optional(),
      severity: z.string().optional(),
      ruleId: z.string().optional(),
      status: z.string().optional(),
    })
    .prefault({}),
  window: hourMultiple,
  /** "previous": the windows just before; "same-hour": the same window on earlier days. */
  reference: z.enum(['previous', 'same-hour']).default('previous'),
  /** How many reference windows are averaged. */
  referenceWindows: z.number().int().min(1).max(60).default(3),
  /** Fire when count ≥ factor × reference … */
  factor: z.number().positive().default(3),
  /** … and count ≥ min. */
  min: z.number().int().min(1).default(20),
});

const flatlineRule = z.strictObject({
  ...ruleBase,
  type: z.literal('flatline'),
  source: z.enum(['origin', 'shield']),
  /** Fire when the zone's last successful ingestion is older than this. */
  maxAge: duration('3h'),
});

const guardianRule = z.strictObject({
  ...ruleBase,
  type: z.literal('guardian'),
  counter: z.enum(GUARDIAN_COUNTER_NAMES),
  /** Fire when the counter grows by more than this between two consecutive snapshots. */
  maxIncrease: z.number().int().min(0),
});

const ruleSchema = z.discriminatedUnion('type', [spikeRule, flatlineRule, guardianRule], {
  error: 'expected a rule of type "spike", "flatline" or "guardian"',
});

const alertsSchema = z
  .strictObject({
    hooks: z.record(hookName, hookSchema).default({}),
    rules: z.array(ruleSchema).default([]),
    /** A firing alert is sent again after this long. */
    renotifyEvery: duration('4h'),
    /** Rules are also evaluated on this schedule (besides after each ingestion job). */
    evaluateEvery: duration('5m'),
    /** Delivery attempts of one notice, with capped exponential backoff from retryDelay up to maxRetryDelay. */
    deliveryAttempts: z.number().int().min(1).max(1000).default(100),
    retryDelay: duration('5s'),
    maxRetryDelay: duration('10m'),
  })
  .superRefine((alerts, ctx) => {
    const names = new Set<string>();
    alerts.rules.forEach((rule, i) => {
      if (names.has(rule.name))
        ctx.addIssue({
          code: 'custom',
          path: ['rules', i, 'name'],
          message: `duplicate rule name "${rule.name}"`,
        });
      names.add(rule.name);
      rule.hooks.forEach((h, j) => {
        if (!(h in alerts.hooks)) {
          ctx.addIssue({
            code: 'custom',
            path: ['rules', i, 'hooks', j],
            message: `unknown hook "${h}": define it under alerts.hooks`,
          });
        }
      });
    });
  });

export const configSchema = z.strictObject({
  api: apiSchema.prefault({}),
  redis: z
    .strictObject({
      url: z
        .string()
        .regex(/^rediss?:\/\//, { error: 'expected a redis:// or rediss:// URL' })
        .default('redis://127.0.0.1:6379'),
      /** Namespace of every key edgelog writes in Redis. */
      prefix: z
        .string()
        .min(1)
        .regex(/^[^:]+$/, { error: 'must not contain ":"' })
        .default('edgelog'),
      /** Start a private redis-server under the data directory when the URL is unreachable. */
      embedded: z.boolean().default(true),
    })
    .prefault({}),
  database: z
    .strictObject({
      path: z.string().min(1).default('data/edgelog.db'),
      /** Whole UTC days kept before today (today is always kept); null keeps everything. Pruned daily. */
      retentionDays: z.number().int().positive().nullable().default(null),
      /** Checkpoint the WAL from a background thread instead of inside the ingesting writer. */
      backgroundCheckpoints: z.boolean().default(true),
    })
    .prefault({}),
  pullZones: z.array(zone).default([]),
  shieldZones: z.array(zone).default([]),
  schedule: scheduleSchema.prefault({}),
  worker: workerSchema.prefault({}),
  alerts: alertsSchema.prefault({}),
  log: z
    .strictObject({
      level: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    })
    .prefault({}),
});

export type ConfigInput = z.input<typeof configSchema>;
export type AlertRule = z.output<typeof ruleSchema>;
export type SpikeRule = z.output<typeof spikeRule>;
export type FlatlineRule = z.output<typeof flatlineRule>;
export type GuardianRule = z.output<typeof guardianRule>;
export type HookConfig = z.output<typeof hookSchema>;
type Parsed = z.output<typeof configSchema>;

export interface Zone {
  id: number;
  name?: string;
}

/** The validated, frozen configuration. Zones are normalised to objects. */
export type Config = Omit<Parsed, 'pullZones' | 'shieldZones'> & {
  pullZones: readonly Zone[];
  shieldZones: readonly Zone[];
  /** Where the configuration came from: a file path, or "defaults". */
  origin: string;
};
