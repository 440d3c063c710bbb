// The configuration file's schema: every key, its default, and the message a bad value gets.
import { DEFAULT_DATABASE_PATH } from './defaults.js';
import { z } from 'zod';
import { GUARDIAN_COUNTER_NAMES } from '../values/guardian-counters.js';
import { duration, positiveNumber, wholeNumber } from './bounds.js';

const zoneId = z
  .number({ error: 'expected a zone id: a positive integer' })
  .int({ error: 'expected a zone id: a positive integer' })
  .positive({ error: 'expected a zone id: a positive integer' })
  .max(Number.MAX_SAFE_INTEGER, { error: 'expected a zone id: a positive integer' });

const zone = z.union([zoneId, z.strictObject({ id: zoneId, name: z.string().min(1).optional() })], {
  error: 'expected a zone id (a positive integer) or { "id": 123, "name": "…" }',
});

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'expected an http(s) URL' })
  .meta({ accepted: 'an http(s) URL' });
const postgresUrl = z.url({
  protocol: /^postgres(ql)?$/,
  error:
    'expected a postgres:// or postgresql:// URL, e.g. "postgres://edgelog:…@db.example.net:5432/edgelog"',
});

const apiSchema = z.strictObject({
  /** Shield, compute and rate-limit operations. */
  baseUrl: httpUrl
    .default('https://api.bunny.net')
    .describe('host of the Shield, compute and rate-limit operations'),
  /** Origin error logs. */
  originLogUrl: httpUrl
    .default('https://cdn-origin-logging.bunny.net')
    .describe('host of the origin error logs'),
  /** Video play data. */
  videoUrl: httpUrl.default('https://video.bunnycdn.com').describe('host of the video play data'),
  /** Account API key, sent as the AccessKey header. Prefer the EDGELOG_ACCESS_KEY environment variable. */
  accessKey: z
    .string()
    .min(1)
    .optional()
    .meta({ accepted: 'non-empty text' })
    .describe(
      'the account API key, sent as `AccessKey` to the first two hosts, never to the video host; never logged or stored. Prefer the `EDGELOG_ACCESS_KEY` environment variable: `edgelog init` never writes it',
    ),
  // Timeouts below 1 s mean little: undici's timers tick about once a second.
  /** Bound on establishing a TCP connection. @defaultValue "10s" */
  connectTimeout: duration('10s', { min: '1s', max: '10m' }).describe(
    'bound on establishing a TCP connection (shorter than `requestDeadline`)',
  ),
  /** Bound on waiting for response headers. @defaultValue "30s" */
  headersTimeout: duration('30s', { min: '1s', max: '1h' }).describe(
    'bound on waiting for response headers (shorter than `requestDeadline` and `responseTimeout`)',
  ),
  /** Bound on silence while reading a response body. @defaultValue "60s" */
  bodyTimeout: duration('60s', { min: '1s', max: '1h' }).describe(
    'bound on silence while reading a body (shorter than `requestDeadline` and `responseTimeout`)',
  ),
  /**
   * Bound on one attempt's whole answer, headers and body: a body trickled a byte at a time is never
   * silent for bodyTimeout, and a large origin day may stream for longer than requestDeadline. The
   * attempt is retried like any timeout. @defaultValue "10m"
   */
  responseTimeout: duration('10m', { min: '1s', max: '1d' }).describe(
    "bound on one attempt's whole answer, headers and body: a body trickled a byte at a time ends there and is retried",
  ),
  /**
   * Largest response body accepted, in bytes: a body is held in memory, and an ordinary log page is
   * far above 1 MiB. @defaultValue 512 MiB
   */
  maxResponseBytes: wholeNumber({ min: 2 ** 20, max: 2 ** 30, example: 512 * 2 ** 20 })
    .default(512 * 2 ** 20)
    .meta({ accepted: '1 MiB – 1 GiB, in bytes' })
    .describe(
      'larger answers fail (permanently), the error naming this key; a body is held in memory (a Shield page from 16 MiB is decoded in parts)',
    ),
  /** Attempts per request, the first included. @defaultValue 6 */
  retryAttempts: wholeNumber({ min: 1, max: 50, example: 6 })
    .default(6)
    .describe('attempts per request, the first included'),
  /** First retry delay; doubles each attempt (with jitter) up to retryMaxDelay. @defaultValue "500ms" */
  retryBaseDelay: duration('500ms', { min: '10ms', max: '1h' }).describe(
    'first retry delay, doubling with jitter up to `retryMaxDelay` (at most it, and below `requestDeadline`); a `Retry-After` is honoured exactly',
  ),
  /** @defaultValue "30s" */
  retryMaxDelay: duration('30s', { min: '10ms', max: '1h' }).describe('longest retry delay'),
  /** Overall bound on one request including its retries. @defaultValue "5m" */
  requestDeadline: duration('5m', { min: '1s', max: '1d' }).describe('bound on one request with its retries'),
  /**
   * Open connections per API host: at least twice worker.concurrency, since undici hands a finished
   * request's socket to the next one a loop turn or two later (docs/MEASUREMENTS.md, 2026-11-29).
   * @defaultValue 16
   */
  connections: wholeNumber({ min: 1, max: 256, example: 16 })
    .default(16)
    .describe(
      "open connections per API host; keep it at least twice `worker.concurrency`, or a day's next page waits for a socket",
    ),
  /** Shield pages one zone-day may take before it is stopped as a runaway. @defaultValue 100000 */
  pageCap: wholeNumber({ min: 1, max: 10_000_000, example: 100_000 })
    .default(100_000)
    .describe(
      'Shield pages one zone-day may take before it is stopped as a runaway (the day is then `incomplete`)',
    ),
});

const scheduleSchema = z.strictObject({
  /** How often today's (partial) day of every zone is fetched again. @defaultValue "1h" */
  refreshEvery: duration('1h', { min: '1m', max: '1d' }).describe(
    "how often each zone's days are planned and fetched (today's again)",
  ),
  /**
   * A day counts as complete once fetched to exhaustion at least this long after it ended (late logs).
   * @defaultValue "1h"
   */
  finalizeDelay: duration('1h', { min: '0s', max: '1d' }).describe(
    'a day is complete once fetched to its end this long after it ended (late logs); see Rules between keys',
  ),
  /**
   * Days before today that plan jobs look at for origin logs. At least 1: only a pass on a later day
   * can make a day complete, so with 0 every day would stay partial and its last hours never fetched.
   * @defaultValue 2
   */
  originLookbackDays: wholeNumber({ min: 1, max: 365, example: 2 })
    .default(2)
    .describe(
      'days before today that each origin pass looks at (catch-up and finalising); see Rules between keys',
    ),
  /** The same for Shield, which keeps today and the two days before (API-NOTES). @defaultValue 2 */
  shieldLookbackDays: wholeNumber({ min: 1, max: 30, example: 2 })
    .default(2)
    .describe('the same for Shield, which keeps today and the two days before'),
  /** How often API Guardian metrics are snapshotted. @defaultValue "15m" */
  guardianEvery: duration('15m', { min: '1m', max: '1d' }).describe(
    'how often API Guardian counters are snapshotted',
  ),
});

const keptJobs = (what: string, age: string, count: number) =>
  z
    .strictObject({
      age: duration(age, { min: '1m', max: '365d' }).describe(`${what} jobs are kept in Redis this long`),
      count: wholeNumber({ min: 100, max: 1_000_000, example: count })
        .default(count)
        .describe(`and at most this many; \`sync\` reads its jobs' results from there, hence the floors`),
    })
    .prefault({});

const workerSchema = z.strictObject({
  /** Jobs one process works at once. @defaultValue 4 */
  concurrency: wholeNumber({ min: 1, max: 256, example: 4 })
    .default(4)
    .describe('jobs one process works at once'),
  /**
   * Threads that fetch and decode Shield pages while the main thread stores them; 0 does it all on the
   * main thread. @defaultValue 1 where a core is left beside the main thread and the history process
   * (history.path set: a third core), else 0
   */
  pageThreads: wholeNumber({ min: 0, max: 16, example: 1 })
    .optional()
    .meta({ defaultText: '1 with a core to spare (3 with a history, 2 without), else 0' })
    .describe(
      'threads that fetch and decode Shield pages and origin days while the main thread stores; 0 does it all on the main thread',
    ),
  /** On SIGINT/SIGTERM, how long to wait for the jobs in hand before giving up on them. @defaultValue "20s" */
  shutdownTimeout: duration('20s', { min: '1s', max: '1h' }).describe(
    "on SIGINT/SIGTERM, how long the jobs and webhook deliveries in hand get to stop (PM2's `kill_timeout` must be longer)",
  ),
  /**
   * How long a worker's hold on a day lasts unless renewed (it is renewed while the worker works): the
   * ledger lease, and half of it the job's BullMQ lock (and its stalled-job check). The work of a worker
   * that died where its process cannot be looked up (another host) waits this long for another worker.
   * @defaultValue "60s" (a 30 s job lock, BullMQ's default)
   */
  lease: duration('60s', { min: '4s', max: '1h' }).describe(
    "how long a worker's hold on a day lasts unless renewed (renewed while it works); the job's BullMQ lock is half of it",
  ),
  /** Attempts of a job that fails with a retryable error. @defaultValue 5 */
  jobAttempts: wholeNumber({ min: 1, max: 100, example: 5 })
    .default(5)
    .describe('attempts of a job that fails with a retryable error'),
  /**
   * Finished jobs kept (by age and by count) for inspection. `sync` reads the result of each job it
   * waits for from the queue, so a job must outlive its sync's wait: hence the floors.
   * @defaultValue { age: "1d", count: 1000 }
   */
  keepCompleted: keptJobs('completed', '1d', 1000),
  /** @defaultValue { age: "7d", count: 5000 } */
  keepFailed: keptJobs('failed', '7d', 5000),
});

const hookName = z.string().regex(/^[\w.-]+$/, { error: 'hook names are letters, digits, "_", "-" and "."' });

/** Bound on one delivery. @defaultValue "10s" */
const hookTimeout = duration('10s', { min: '100ms', max: '10m' });

/** Headers edgelog sets itself on every delivery: a hook's `headers` may not replace them. */
export const HOOK_RESERVED_HEADERS = [
  'connection',
  'content-length',
  'content-type',
  'host',
  'idempotency-key',
  'transfer-encoding',
  'user-agent',
  'x-edgelog-signature',
];

// RFC 9110 token characters.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Names and values checked where they are given, so that a delivery never fails on them. */
export const hookHeaders = z
  .record(
    z.string(),
    z
      .string({ error: 'expected a text value' })
      .regex(/^[^\r\n\0]*$/, { error: 'a header value cannot hold a line break or NUL' }),
  )
  .superRefine((headers, ctx) => {
    for (const name of Object.keys(headers)) {
      if (!HEADER_NAME.test(name)) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: "not a header name (letters, digits and !#$%&'*+.^_`|~-)",
        });
      } else if (HOOK_RESERVED_HEADERS.includes(name.toLowerCase())) {
        ctx.addIssue({ code: 'custom', path: [name], message: 'is set by edgelog: leave it out' });
      }
    }
  });

/** How a hook authenticates (besides credentials in its URL); one way at most (relations.ts). */
/**
 * The notice's text in Liquid (alerts/templates.ts): Slack's message, or each webhook alert's
 * `description` annotation. Checked at start-up against a sample notice.
 */
const hookTemplate = z.string().min(1).max(20_000).optional();

const hookAuth = {
  /**
   * Sent as `Authorization: Bearer <token>`. Prefer EDGELOG_HOOK_<NAME>_TOKEN. @defaultValue undefined
   */
  bearerToken: z
    .string()
    .regex(/^[\x21-\x7e]+$/, { error: 'a bearer token is printable ASCII without spaces' })
    .optional(),
  /**
   * Headers sent with every delivery, e.g. `{ "X-Api-Key": "…" }`; each value is kept out of every
   * output as a secret. Also from EDGELOG_HOOK_<NAME>_HEADERS (JSON). @defaultValue undefined
   */
  headers: hookHeaders.optional(),
};

const hookSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({
      /** POST an Alertmanager-compatible (webhook v4) JSON payload. */
      type: z.literal('webhook'),
      /** Credentials in it (`https://user:password@…`) are sent as Basic authorization. */
      url: httpUrl,
      /** Signs the body: header X-Edgelog-Signature: sha256=<hex HMAC-SHA256>. */
      secret: z.string().min(1).optional(),
      timeout: hookTimeout,
      template: hookTemplate,
      ...hookAuth,
    }),
    z.strictObject({
      /** A Slack incoming webhook: a text message. */
      type: z.literal('slack'),
      url: httpUrl,
      timeout: hookTimeout,
      template: hookTemplate,
      ...hookAuth,
    }),
  ],
  { error: 'expected a hook of type "webhook" or "slack"' },
);

const ruleBase = {
  name: z.string().regex(/^[\w.-]+$/, { error: 'rule names are letters, digits, "_", "-" and "."' }),
  /** Zones the rule watches; absent means every configured zone of its source. */
  zones: z.array(zoneId).optional(),
  hooks: z.array(hookName).default([]),
  /** How long the condition must hold before the alert fires. @defaultValue "0s" */
  for: duration('0s', { min: '0s', max: '30d', example: '10m' }),
  /** Free-form label passed to receivers (e.g. "critical"). */
  severity: z.string().optional(),
};

const hourMultiple = duration('1h', { min: '1h', max: '7d' }).refine((ms) => ms > 0 && ms % 3_600_000 === 0, {
  error: 'must be a whole number of hours (the archive counts per hour), e.g. "1h" or "6h"',
});

const spikeRule = z.strictObject({
  ...ruleBase,
  type: z.literal('spike'),
  source: z.enum(['origin', 'shield']),
  /** Which entries count. Origin: statusCodeMin/Max, errorCode. Shield: severity, ruleId, status. */
  filter: z
    .strictObject({
      statusCodeMin: wholeNumber({ min: 0, max: 999, example: 500 }).optional(),
      statusCodeMax: wholeNumber({ min: 0, max: 999, example: 599 }).optional(),
      errorCode: z.string().optional(),
      severity: z.string().optional(),
      ruleId: z.string().optional(),
      status: z.string().optional(),
    })
    .prefault({}),
  window: hourMultiple,
  /** "previous": the windows just before; "same-hour": the same window on earlier days. */
  reference: z.enum(['previous', 'same-hour']).default('previous'),
  /** How many reference windows are averaged. @defaultValue 3 */
  referenceWindows: wholeNumber({ min: 1, max: 60, example: 3 }).default(3),
  /** Fire when count ≥ factor × reference … @defaultValue 3 */
  factor: positiveNumber({ above: 0, max: 1000, example: 3 }).default(3),
  /** … and count ≥ min. @defaultValue 20 */
  min: wholeNumber({ min: 1, max: 1_000_000_000, example: 20 }).default(20),
});

const flatlineRule = z.strictObject({
  ...ruleBase,
  type: z.literal('flatline'),
  source: z.enum(['origin', 'shield']),
  /** Fire when the zone's last successful ingestion is older than this. @defaultValue "3h" */
  maxAge: duration('3h', { min: '1m', max: '30d' }),
});

const guardianRule = z.strictObject({
  ...ruleBase,
  type: z.literal('guardian'),
  counter: z.enum(GUARDIAN_COUNTER_NAMES),
  /** Fire when the counter grows by more than this between two consecutive snapshots. */
  maxIncrease: wholeNumber({ min: 0, max: Number.MAX_SAFE_INTEGER, example: 100 }),
});

/** The fields a new-term rule may watch, per source (src/store/terms.ts keeps their values). */
export const NEW_TERM_FIELDS = {
  origin: ['error_code', 'status_code', 'path'],
  shield: ['country', 'asn', 'rule_id', 'severity', 'method', 'path'],
} as const;

/** The deepest path prefix kept: each depth is counted separately at ingestion. */
export const MAX_PATH_DEPTH = 3;

const newTermRule = z
  .strictObject({
    ...ruleBase,
    type: z.literal('new-term'),
    source: z.enum(['origin', 'shield']),
    /** Origin: error_code, status_code, path. Shield: country, asn, rule_id, severity, method, path. */
    field: z.enum(['country', 'asn', 'rule_id', 'severity', 'method', 'error_code', 'status_code', 'path']),
    /** With `path`: how many leading segments of the URL's path make the value (query dropped). @defaultValue 1 */
    depth: wholeNumber({ min: 1, max: MAX_PATH_DEPTH, example: 2 }).optional(),
    /** The window judged, aligned to its length; only complete, fully archived windows are judged. */
    window: hourMultiple,
    /** How far back before the window a value must not have appeared. @defaultValue "14d" */
    lookback: duration('14d', { min: '1h', max: '365d' }).refine((ms) => ms % 3_600_000 === 0, {
      error: 'must be a whole number of hours (the archive counts per hour), e.g. "14d"',
    }),
    /** A new value counts when it appears at least this many times in the window. @defaultValue 1 */
    min: wholeNumber({ min: 1, max: 1_000_000_000, example: 5 }).default(1),
  })
  .superRefine((rule, ctx) => {
    const fields: readonly string[] = NEW_TERM_FIELDS[rule.source];
    if (!fields.includes(rule.field))
      ctx.addIssue({
        code: 'custom',
        path: ['field'],
        message: `"${rule.field}" is not a ${rule.source} field; ${rule.source} has ${fields.join(', ')}`,
      });
    if (rule.depth !== undefined && rule.field !== 'path')
      ctx.addIssue({ code: 'custom', path: ['depth'], message: 'only a "path" field takes a depth' });
  });

const sqlRule = z.strictObject({
  name: ruleBase.name,
  hooks: ruleBase.hooks,
  for: ruleBase.for,
  severity: ruleBase.severity,
  type: z.literal('sql'),
  /**
   * One read-only statement on the archive's engine (as `edgelog query --engine store`): each row is an
   * alert, its columns its labels, a numeric `value` column its value.
   */
  sql: z.string().trim().min(1, { error: 'expected a SELECT statement' }),
  /** Bound on one run of the statement. @defaultValue "10s" */
  timeout: duration('10s', { min: '100ms', max: '10m' }),
  /** Rows read at most; more are left out (and logged). @defaultValue 500 */
  maxRows: wholeNumber({ min: 1, max: 10_000, example: 500 }).default(500),
});

const ruleSchema = z.discriminatedUnion(
  'type',
  [spikeRule, flatlineRule, guardianRule, newTermRule, sqlRule],
  {
    error: 'expected a rule of type "spike", "flatline", "guardian", "new-term" or "sql"',
  },
);

const alertsSchema = z
  .strictObject({
    hooks: z
      .record(hookName, hookSchema)
      .default({})
      .meta({ leaf: true, accepted: 'a map of names to `{ "type": "webhook" | "slack", "url", … }`' })
      .describe('where notices go, by name; see [Alerts](ALERTS.md) for the fields and credentials'),
    rules: z
      .array(ruleSchema)
      .default([])
      .meta({ leaf: true, accepted: 'a list of `spike`, `flatline`, `guardian`, `new-term` and `sql` rules' })
      .describe('what to watch; see [Alerts](ALERTS.md) for each type and its bounds'),
    /**
     * Notices of one rule made within one window of this length go to each hook as one grouped notice
     * (Alertmanager's group_wait); "0s" sends each alone at once. @defaultValue "30s"
     */
    groupWait: duration('30s', { min: '0s', max: '1h' }).describe(
      'notices of one rule made within one window of this length go to each hook as one grouped notice; `"0s"` sends each alone at once',
    ),
    /** A firing alert is sent again after this long. @defaultValue "4h" */
    renotifyEvery: duration('4h', { min: '1m', max: '30d' }).describe(
      'a firing alert is sent again after this long',
    ),
    /** Rules are also evaluated on this schedule (besides after each ingestion job). @defaultValue "5m" */
    evaluateEvery: duration('5m', { min: '10s', max: '1d' }).describe(
      'every rule is also evaluated on this schedule, besides after each ingestion job',
    ),
    /**
     * Delivery attempts of one notice, with capped exponential backoff from retryDelay up to
     * maxRetryDelay. @defaultValue 100
     */
    deliveryAttempts: wholeNumber({ min: 1, max: 1000, example: 100 })
      .default(100)
      .describe('delivery attempts of one notice'),
    /** @defaultValue "5s" */
    retryDelay: duration('5s', { min: '100ms', max: '1d' }).describe(
      'first delay between delivery attempts, doubling up to `maxRetryDelay` (at most it)',
    ),
    /** @defaultValue "10m" */
    maxRetryDelay: duration('10m', { min: '100ms', max: '1d' }).describe(
      'longest delay between delivery attempts',
    ),
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

// "host:port", the host a name, an IPv4 address or a bracketed IPv6 one; port 0 picks a free port.
const LISTEN = /^(?:\[([0-9A-Fa-f:.]+)\]|([A-Za-z0-9.-]+)):(\d{1,5})$/;
const listenExample = 'e.g. "127.0.0.1:9469", or "0.0.0.0:9469" for every interface';

/** A "host:port" to listen on, parsed; null turns the endpoint off. */
const listenAddress = z
  .string({ error: `expected "host:port" or null, ${listenExample}` })
  .transform((text, ctx) => {
    const m = LISTEN.exec(text);
    const port = m ? Number(m[3]) : NaN;
    if (!m || port > 65_535) {
      ctx.addIssue({
        code: 'custom',
        message: `expected "host:port" with a port from 0 to 65535 (got "${text}"), ${listenExample}`,
      });
      return z.NEVER;
    }
    return { host: (m[1] ?? m[2])!, port };
  });

export const configSchema = z.strictObject({
  api: apiSchema.prefault({}),
  redis: z
    .strictObject({
      url: z
        .string()
        .regex(/^rediss?:\/\//, { error: 'expected a redis:// or rediss:// URL' })
        .default('redis://127.0.0.1:6379')
        .meta({ accepted: '`redis://` or `rediss://` URL' })
        .describe(
          'also `REDIS_URL`; one configured (here or there) that does not answer at start fails, naming it; no private server is started for it',
        ),
      /** Namespace of every key edgelog writes in Redis. */
      prefix: z
        .string()
        .min(1)
        .regex(/^[^:]+$/, { error: 'must not contain ":"' })
        .default('edgelog')
        .meta({ accepted: 'text without `:`' })
        .describe('namespace of every key edgelog writes in Redis'),
      /**
       * When no Redis URL is configured and none answers on the default one, start a private
       * redis-server under the data directory. A configured URL that does not answer always fails.
       * @defaultValue true
       */
      embedded: z
        .boolean()
        .default(true)
        .describe(
          'when no URL is configured and none answers on the default one, start a private `redis-server` under the data directory',
        ),
    })
    .prefault({}),
  database: z
    .strictObject({
      /**
       * The archive. A relative path in a configuration file is relative to that file's directory.
       * @defaultValue "data/edgelog.db" (relative to the working directory)
       */
      path: z
        .string()
        .min(1)
        .default(DEFAULT_DATABASE_PATH)
        .meta({ accepted: 'a path' })
        .describe(
          "the SQLite archive; relative to the configuration file's directory when set there (also `EDGELOG_DB`)",
        ),
      /**
       * Whole UTC days kept before today (today is always kept); null keeps everything. Pruned daily.
       * @defaultValue null
       */
      retentionDays: wholeNumber({ min: 1, max: 3650, example: 30 })
        .nullable()
        .default(null)
        .describe('whole UTC days kept before today (pruned daily at 00:05 UTC); `null` keeps everything'),
      /** Checkpoint the WAL from a background thread instead of inside the ingesting writer. */
      backgroundCheckpoints: z
        .boolean()
        .default(true)
        .describe('checkpoint the WAL from a background thread, not in the ingesting writer'),
      /**
       * A PostgreSQL archive instead of the SQLite file at `path` (docs/POSTGRES.md). Prefer the
       * EDGELOG_DATABASE_URL environment variable: the URL holds the password. @defaultValue null
       */
      url: postgresUrl
        .nullable()
        .default(null)
        .meta({ accepted: '`postgres://` or `postgresql://` URL' })
        .describe(
          'a PostgreSQL archive instead of the SQLite file (also `EDGELOG_DATABASE_URL`); its password is never printed',
        ),
      /**
       * The PostgreSQL archive as readers reach it: a role that may only read (docs/OPERATIONS.md, "A role for
       * readers"). `query`, `report`, `status` and `alerts list` connect with it instead of `url`; the
       * worker never does. Prefer EDGELOG_READER_DATABASE_URL. @defaultValue null (readers use `url`)
       */
      readerUrl: postgresUrl
        .nullable()
        .default(null)
        .meta({ accepted: '`postgres://` or `postgresql://` URL' })
        .describe(
          'the archive as `query`, `report`, `status` and `alerts list` reach it: a role that may only read (also `EDGELOG_READER_DATABASE_URL`; see [A role for readers](OPERATIONS.md#postgresql-many-workers-one-archive))',
        ),
      /** TLS to the PostgreSQL server; absent, the URL's sslmode decides. @defaultValue undefined */
      ssl: z
        .strictObject({
          /** Verify the server's certificate. @defaultValue true */
          rejectUnauthorized: z
            .boolean()
            .optional()
            .meta({ defaultText: '`true`' })
            .describe(
              "TLS to PostgreSQL: verify the server's certificate (absent `ssl`, the URL's `sslmode` decides)",
            ),
          /** The CA certificate(s): PEM text, or a path to a PEM file. */
          ca: z
            .string()
            .min(1)
            .optional()
            .meta({ accepted: 'PEM text or a path' })
            .describe("the CA certificate(s) the server's is checked against"),
        })
        .optional(),
    })
    .prefault({}),
  history: z
    .strictObject({
      /**
       * Where days that are done are kept as Parquet files (docs/HISTORY.md); null keeps no history.
       * A relative path in a configuration file is relative to that file's directory.
       * @defaultValue "history" beside the SQLite archive file (data/history for the default archive)
       */
      path: z
        .string()
        .min(1)
        .nullable()
        .optional()
        .meta({ accepted: 'a path', defaultText: '`history` beside the SQLite archive (`data/history`)' })
        .describe(
          "where days that are done are kept as Parquet files ([History](HISTORY.md)); relative to the configuration file's directory when set there; `null` keeps no history",
        ),
      /**
       * Whole UTC days before today whose entry rows stay in the store once their day is in history;
       * older rows leave the store after their files are verified. null keeps every row. @defaultValue 7
       */
      hotDays: wholeNumber({ min: 0, max: 3650, example: 7 })
        .nullable()
        .default(7)
        .describe(
          'whole UTC days before today whose rows stay in the store once their day is in the history; older rows leave it after their files are verified; `null` keeps every row',
        ),
    })
    .prefault({}),
  pullZones: z
    .array(zone)
    .default([])
    .meta({ accepted: 'ids, or `{ "id": 123, "name": "…" }`, each once' })
    .describe('the pull zones whose origin error logs are archived'),
  shieldZones: z
    .array(zone)
    .default([])
    .meta({ accepted: 'ids, or `{ "id": 123, "name": "…" }`, each once' })
    .describe('the Shield zones whose event logs (and API Guardian counters) are archived'),
  schedule: scheduleSchema.prefault({}),
  worker: workerSchema.prefault({}),
  alerts: alertsSchema.prefault({}),
  metrics: z
    .strictObject({
      /**
       * Where `edgelog run` serves /metrics, /healthz and /readyz; null serves nothing.
       * @defaultValue "127.0.0.1:9469"
       */
      listen: listenAddress
        .nullable()
        .prefault('127.0.0.1:9469')
        .meta({ accepted: '`"host:port"` (a name, IPv4 or `[IPv6]`; port 0 picks a free one)' })
        .describe(
          'where `edgelog run` serves `/metrics`, `/healthz` and `/readyz`; `null` serves nothing; other commands never serve',
        ),
    })
    .prefault({}),
  console: z
    .strictObject({
      /**
       * Where `edgelog run` also serves the web console (docs/CONSOLE.md); null serves none. Any address
       * but loopback needs the token. @defaultValue null
       */
      listen: listenAddress
        .nullable()
        .default(null)
        .meta({ accepted: '`"host:port"` (a name, IPv4 or `[IPv6]`; port 0 picks a free one)' })
        .describe(
          'where `edgelog run` also serves the web console ([Console](CONSOLE.md)), and `edgelog serve` listens unless `--listen` says otherwise; `null`: `run` serves none (and `serve` listens on `127.0.0.1:8470`); any address but loopback needs the token',
        ),
      /**
       * The environment variable holding the console's token (at least 16 characters): never the token
       * itself, which stays out of the file. @defaultValue "EDGELOG_CONSOLE_TOKEN"
       */
      tokenEnv: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'expected an environment variable name' })
        .default('EDGELOG_CONSOLE_TOKEN')
        .meta({ accepted: 'an environment variable name' })
        .describe(
          "the environment variable that holds the console's token (at least 16 characters; the token itself never goes in the file)",
        ),
      /** A console statement's time bound. @defaultValue "30s" */
      timeout: duration('30s', { min: '1s', max: '1h' }).describe(
        "a console statement's time bound (a request may lower it)",
      ),
      /** Rows a console answer holds at most. @defaultValue 1000 */
      limit: wholeNumber({ min: 1, max: 100_000, example: 1000 })
        .default(1000)
        .describe(
          'rows a console answer holds at most (a request may lower it; downloads hold up to 1,000,000)',
        ),
      /** The session cookie is marked Secure (the console is reached through TLS). @defaultValue false */
      secureCookie: z
        .boolean()
        .default(false)
        .describe('mark the session cookie `Secure` (put a TLS proxy in front)'),
    })
    .prefault({}),
  log: z
    .strictObject({
      level: z
        .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
        .default('info')
        .describe(
          'pino level; logs go to stderr: JSON lines, or short human lines when stderr is a terminal',
        ),
    })
    .prefault({}),
});

export type ConfigInput = z.input<typeof configSchema>;
export type AlertRule = z.output<typeof ruleSchema>;
export type SpikeRule = z.output<typeof spikeRule>;
export type FlatlineRule = z.output<typeof flatlineRule>;
export type GuardianRule = z.output<typeof guardianRule>;
export type NewTermRule = z.output<typeof newTermRule>;
export type SqlRule = z.output<typeof sqlRule>;
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
  /**
   * Which setting gave redis.url ("REDIS_URL", "redis.url in <file>"), or null when none did and the
   * URL is the default: only then may edgelog start a private redis-server (redis.embedded).
   */
  redisUrlFrom: string | null;
};
