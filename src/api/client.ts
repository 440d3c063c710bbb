// The typed client: one method per operation of API.md section 4.
import type { Logger } from 'pino';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { InlineApiError, ResponseError, WindowExpiredError, type ErrorContext } from '../errors/index.js';
import type { RequestMetrics } from '../telemetry/events.js';
import { redactError, registerSecret, registerUrlCredentials } from '../redact.js';
import type { Day } from '../time/utc-day.js';
import { HttpJson, WINDOW_EXPIRED_KEY, type JsonResponse } from './http.js';
import {
  apiGuardianMetricsUrl,
  ddosEnumsUrl,
  edgeScriptUrl,
  originErrorLogsUrl,
  rateLimitUrl,
  redactUrl,
  shieldEventLogsUrl,
  videoPlayDataUrl,
  type ApiHosts,
  type OperationName,
} from './paths.js';
import type { RetryPolicy } from './retry-timing.js';
import { edgeScriptSchema, type EdgeScript } from './schemas/edge-script.js';
import {
  ShapeError,
  parseOriginErrorLogResponse,
  parseShieldEventLogPage,
  type InlineErrorObject,
  type OriginErrorLogResponse,
  type ShieldEventLogPage,
} from './schemas/log-pages.js';
import {
  apiGuardianMetricsSchema,
  ddosEnumsSchema,
  rateLimitSchema,
  type ApiGuardianMetrics,
  type DdosEnums,
  type RateLimit,
} from './schemas/shield.js';
import { videoPlayDataSchema, type VideoPlayData } from './schemas/video.js';

export interface ApiClientOptions extends ApiHosts {
  /** Sent as the AccessKey header to baseUrl and originLogUrl, never to the video host, never logged. */
  accessKey?: string | undefined;
  dispatcher: Dispatcher;
  /** The dispatcher's cap on one answer, named when an answer exceeds it. @defaultValue not said */
  maxResponseBytes?: number | undefined;
  retry: RetryPolicy;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Bound on one attempt's whole answer, headers and body. @defaultValue DEFAULT_RESPONSE_TIMEOUT_MS (10 min) */
  responseTimeoutMs?: number | undefined;
  logger: Logger;
  random?: () => number;
  /** Told of every request attempt and retry. @defaultValue NO_METRICS */
  metrics?: RequestMetrics | undefined;
}

export interface CallOptions {
  signal?: AbortSignal | undefined;
}

export class ApiClient {
  private readonly http: HttpJson;
  private readonly hosts: ApiHosts;
  private readonly authHeaders: Record<string, string>;

  constructor(opts: ApiClientOptions) {
    this.hosts = { baseUrl: opts.baseUrl, originLogUrl: opts.originLogUrl, videoUrl: opts.videoUrl };
    this.authHeaders = opts.accessKey ? { AccessKey: opts.accessKey } : {};
    // The API may quote the key back in an error body; hosts may carry credentials (see redact.ts).
    registerSecret(opts.accessKey);
    for (const host of [opts.baseUrl, opts.originLogUrl, opts.videoUrl]) registerUrlCredentials(host);
    this.http = new HttpJson({
      dispatcher: opts.dispatcher,
      maxResponseBytes: opts.maxResponseBytes,
      retry: opts.retry,
      headersTimeoutMs: opts.headersTimeoutMs,
      bodyTimeoutMs: opts.bodyTimeoutMs,
      ...(opts.responseTimeoutMs === undefined ? {} : { responseTimeoutMs: opts.responseTimeoutMs }),
      logger: opts.logger,
      ...(opts.random ? { random: opts.random } : {}),
      ...(opts.metrics ? { metrics: opts.metrics } : {}),
    });
  }

  /** 4.1 — play data of one video. No security scheme is declared, so no AccessKey is sent. */
  async videoPlayData(
    libraryId: number | string,
    videoId: string,
    query: { token?: string | undefined; expires?: number | undefined } = {},
    call: CallOptions = {},
  ): Promise<VideoPlayData> {
    const url = videoPlayDataUrl(this.hosts, libraryId, videoId, query);
    const res = await this.get('videoPlayData', url, false, {}, call);
    return validate(videoPlayDataSchema, res, ctx('videoPlayData', url, res.status));
  }

  /** 4.2 — every origin error log entry of a pull zone for one UTC day (one call returns the whole day). */
  async originErrorLogs(
    pullZoneId: number,
    day: Day | string,
    call: CallOptions = {},
  ): Promise<OriginErrorLogResponse> {
    const url = originErrorLogsUrl(this.hosts, pullZoneId, day);
    const context = { zone: pullZoneId, date: String(day) };
    const res = await this.get('originErrorLogs', url, true, context, call);
    return parseFast(parseOriginErrorLogResponse, res, {
      ...ctx('originErrorLogs', url, res.status),
      ...context,
    });
  }

  /** 4.3 — one edge script. */
  async edgeScript(id: number | string, call: CallOptions = {}): Promise<EdgeScript> {
    const url = edgeScriptUrl(this.hosts, id);
    const res = await this.get('edgeScript', url, true, {}, call);
    return validate(edgeScriptSchema, res, ctx('edgeScript', url, res.status));
  }

  /** 4.4 — API Guardian metrics of a shield zone. An inline `error.success === false` is an error. */
  async apiGuardianMetrics(
    shieldZoneId: number | string,
    call: CallOptions = {},
  ): Promise<ApiGuardianMetrics> {
    const url = apiGuardianMetricsUrl(this.hosts, shieldZoneId);
    const context = { zone: Number(shieldZoneId) };
    const res = await this.get('apiGuardianMetrics', url, true, context, call);
    const body = validate(apiGuardianMetricsSchema, res, {
      ...ctx('apiGuardianMetrics', url, res.status),
      ...context,
    });
    throwInlineError(body.error, res.status, { ...ctx('apiGuardianMetrics', url, res.status), ...context });
    return body;
  }

  /** 4.5 — the DDoS enumeration catalogue. */
  async ddosEnums(call: CallOptions = {}): Promise<DdosEnums> {
    const url = ddosEnumsUrl(this.hosts);
    const res = await this.get('ddosEnums', url, true, {}, call);
    return validate(ddosEnumsSchema, res, ctx('ddosEnums', url, res.status));
  }

  /**
   * 4.6 — one page of Shield event logs. `token` is empty for the first page, then the previous page's
   * continuationToken. An out-of-window date throws WindowExpiredError; an inline failure InlineApiError.
   */
  async shieldEventLogs(
    shieldZoneId: number,
    day: Day | string,
    token = '',
    call: CallOptions = {},
  ): Promise<ShieldEventLogPage> {
    const url = shieldEventLogsUrl(this.hosts, shieldZoneId, day, token);
    const context = { zone: shieldZoneId, date: String(day) };
    const res = await this.get('shieldEventLogs', url, true, context, call);
    const full = { ...ctx('shieldEventLogs', url, res.status), ...context };
    const page = parseFast(parseShieldEventLogPage, res, full);
    throwInlineError(page.errorResponse, res.status, full);
    return page;
  }

  /**
   * 4.6 for ingestion: one page, decoded by `decode` (e.g. on another thread) inside the retry loop, so a
   * truncated body is retried; the inline error object is checked as for shieldEventLogs.
   */
  async shieldEventLogsWith<T extends { errorResponse: InlineErrorObject | null }>(
    shieldZoneId: number,
    day: Day | string,
    token: string,
    decode: (body: ArrayBuffer) => Promise<T>,
    call: CallOptions = {},
  ): Promise<T> {
    const url = shieldEventLogsUrl(this.hosts, shieldZoneId, day, token);
    const context = { zone: shieldZoneId, date: String(day) };
    const res = await this.http.get(url, this.options('shieldEventLogs', url, true, context, call), decode);
    throwInlineError(res.body.errorResponse, res.status, {
      ...ctx('shieldEventLogs', url, res.status),
      ...context,
    });
    return res.body;
  }

  /**
   * 4.2 for ingestion: the day's answer handed to `consume` chunk by chunk as it arrives (see
   * HttpJson.stream: on a retry, `consume` is called again and must start over).
   */
  async originErrorLogsStream<T>(
    pullZoneId: number,
    day: Day | string,
    consume: (body: AsyncIterable<Buffer>, attempt: number) => Promise<T>,
    call: CallOptions = {},
  ): Promise<T> {
    const url = originErrorLogsUrl(this.hosts, pullZoneId, day);
    const context = { zone: pullZoneId, date: String(day) };
    return (await this.http.stream(url, this.options('originErrorLogs', url, true, context, call), consume))
      .body;
  }

  /** 4.7 — one rate limit rule. */
  async rateLimit(id: number | string, call: CallOptions = {}): Promise<RateLimit> {
    const url = rateLimitUrl(this.hosts, id);
    const res = await this.get('rateLimit', url, true, {}, call);
    const body = validate(rateLimitSchema, res, ctx('rateLimit', url, res.status));
    throwInlineError(body.errorResponse, res.status, ctx('rateLimit', url, res.status));
    return body;
  }

  private get(
    operation: OperationName,
    url: URL,
    authenticated: boolean,
    context: ErrorContext,
    call: CallOptions,
  ): Promise<JsonResponse> {
    return this.http.getJson(url, this.options(operation, url, authenticated, context, call));
  }

  private options(
    operation: OperationName,
    url: URL,
    authenticated: boolean,
    context: ErrorContext,
    call: CallOptions,
  ) {
    return {
      headers: authenticated ? this.authHeaders : {},
      displayUrl: redactUrl(url),
      context: { operation, ...context },
      signal: call.signal,
    };
  }
}

function ctx(operation: OperationName, url: URL, status: number): ErrorContext {
  return { operation, url: redactUrl(url), status };
}

function validate<S extends z.ZodType>(schema: S, res: JsonResponse, context: ErrorContext): z.output<S> {
  const result = schema.safeParse(res.body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
  throw redactError(
    new ResponseError(
      'invalid-shape',
      `${context.url}: response field ${path || '(root)'}: ${issue.message}${more}`,
      {
        context,
      },
    ),
  );
}

function parseFast<T>(parse: (body: unknown) => T, res: JsonResponse, context: ErrorContext): T {
  try {
    return parse(res.body);
  } catch (err) {
    if (!(err instanceof ShapeError)) throw err;
    throw redactError(
      new ResponseError('invalid-shape', `${context.url}: response field ${err.message}`, {
        context,
        cause: err,
      }),
    );
  }
}

/** A 2xx answer is a success only if its inline error object does not say `success: false` (API-NOTES). */
function throwInlineError(
  inline: InlineErrorObject | null | undefined,
  status: number,
  context: ErrorContext,
): void {
  if (!inline || inline.success !== false) return;
  if (inline.errorKey === WINDOW_EXPIRED_KEY) {
    throw redactError(
      new WindowExpiredError(
        `${context.url}: ${WINDOW_EXPIRED_KEY} (the date is outside the API's retention window)`,
        {
          status,
          body: { errorResponse: inline },
          context,
        },
      ),
    );
  }
  throw redactError(
    new InlineApiError({
      status,
      errorKey: inline.errorKey ?? null,
      apiMessage: inline.message ?? null,
      context,
    }),
  );
}
