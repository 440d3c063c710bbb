// Every metric edgelog exports, on a registry of its own (never prom-client's global one, so that tests
// and two engines in one process do not collide). Names follow Prometheus conventions: the `edgelog_`
// prefix, base units (`_seconds`, `_bytes`), `_total` on counters; labels take values from fixed sets.
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** Request durations: from a few milliseconds (a small page on loopback) to the default 5 min deadline. */
export const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

export type MetricSet = ReturnType<typeof defineMetrics>;

export function defineMetrics(registry: Registry) {
  const registers = [registry];
  const zoneLabels = ['source', 'zone'] as const;
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Gauge<L>({ name, help, labelNames, registers });
  return {
    registry,
    entriesReceived: counter(
      'edgelog_entries_received_total',
      'Log entries the API sent, counted as each page is stored (a day fetched again counts again).',
      zoneLabels,
    ),
    entriesArchived: counter(
      'edgelog_entries_archived_total',
      'Log entries added to the archive (new rows; an entry fetched again is not counted again).',
      zoneLabels,
    ),
    entriesMalformed: counter(
      'edgelog_entries_malformed_total',
      'Entries received whose embedded log is not a JSON object (archived raw, with parse_error).',
      zoneLabels,
    ),
    entriesQuarantined: counter(
      'edgelog_entries_quarantined_total',
      'Entries received without a usable key (logId, timestamp), kept in quarantined_entries.',
      zoneLabels,
    ),
    pages: counter(
      'edgelog_pages_total',
      'API answers of log entries stored (a Shield page, an origin day).',
      zoneLabels,
    ),
    requestDuration: new Histogram<'operation' | 'status_class'>({
      name: 'edgelog_api_request_duration_seconds',
      help: 'Duration of each API request attempt until its body was read, by operation and status class (error: no usable answer).',
      labelNames: ['operation', 'status_class'],
      buckets: DURATION_BUCKETS,
      registers,
    }),
    retries: counter(
      'edgelog_api_retries_total',
      'Failed API request attempts that were tried again, by reason.',
      ['operation', 'reason'],
    ),
    rateLimited: counter('edgelog_api_rate_limited_total', 'API answers with HTTP 429 (Too Many Requests).', [
      'operation',
    ]),
    dayJobs: counter('edgelog_day_jobs_total', 'Day jobs (one zone-day each) by how they ended.', [
      'source',
      'outcome',
    ]),
    deliveries: counter(
      'edgelog_alert_deliveries_total',
      'Webhook delivery attempts of alert notices, by hook and outcome (abandoned: the last attempt failed).',
      ['hook', 'outcome'],
    ),
    lastCompleteDay: gauge(
      'edgelog_zone_last_complete_day_timestamp_seconds',
      'End (the next UTC midnight) of the newest day archived complete, per zone.',
      zoneLabels,
    ),
    newestEntry: gauge(
      'edgelog_zone_newest_entry_timestamp_seconds',
      'Timestamp of the newest archived entry, per zone (absent until the zone has one).',
      zoneLabels,
    ),
    ingestionLag: gauge(
      'edgelog_zone_ingestion_lag_seconds',
      'Time since the instant up to which the zone is known archived (its last finished pass); +Inf before any.',
      zoneLabels,
    ),
    daysAtRisk: gauge(
      'edgelog_zone_dates_at_risk',
      'UTC days (dates) of the lookback window the API still serves that should be complete by now and are not.',
      zoneLabels,
    ),
    queueJobs: gauge(
      'edgelog_queue_jobs',
      'Jobs in each BullMQ queue by state (absent while Redis is unreachable).',
      ['queue', 'state'],
    ),
    redisUp: gauge('edgelog_redis_up', 'Whether Redis answered the last scrape (1) or not (0).', []),
    alertStates: gauge(
      'edgelog_alert_states',
      "Alerts of each configured alert rule per state (inactive, pending, firing, resolved): its zones, or a sql rule's rows.",
      ['rule', 'state'],
    ),
    alertSilenced: gauge(
      'edgelog_alert_silenced',
      "Alerts of each configured alert rule (its zones, or a sql rule's rows) whose notices a silence holds now (edgelog alerts silence).",
      ['rule'],
    ),
    silencesActive: gauge('edgelog_silences_active', 'Silences in force now.', []),
    archiveSize: gauge(
      'edgelog_archive_size_bytes',
      'Size of the archive: the SQLite file (file="database") and its write-ahead log (file="wal"), or the PostgreSQL database (file="database").',
      ['file'],
    ),
    historyLostEntries: gauge(
      'edgelog_history_lost_entries',
      'Archived entries no reader returns any more: those of pruned days whose history part is missing (kind="missing") or was found damaged by edgelog compact --verify (kind="lost"). Anything above 0 is data loss.',
      ['kind'],
    ),
    historyIssueDays: gauge(
      'edgelog_history_issues',
      'Zone-days of the history whose recorded part is missing (kind="missing") or whose entries were counted lost (kind="lost").',
      ['kind'],
    ),
    // The worker's own memory is prom-client's process_resident_memory_bytes; its children's are here,
    // labelled so that a child not running has no series rather than a 0.
    childResidentMemory: gauge(
      'edgelog_child_process_resident_memory_bytes',
      'Resident memory of a process the worker started (process="history": flushes, merges, pruning), while it runs.',
      ['process'],
    ),
    childPeakResidentMemory: gauge(
      'edgelog_child_process_peak_resident_memory_bytes',
      'The most resident memory a process the worker started has held since it started (process="history"), while it runs.',
      ['process'],
    ),
    scrapeErrors: counter(
      'edgelog_scrape_errors_total',
      'Scrapes in which a collector failed (its metrics were left out of that scrape).',
      ['collector'],
    ),
  };
}
