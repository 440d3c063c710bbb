// What the ingest core tells the metrics, through narrow interfaces passed in: the API client, the day
// ingestor, the queue runtime and the notifier each take only their slice. NO_METRICS is the default,
// so none of them needs a registry to be built or tested.

/** Why a failed attempt is tried again (a fixed set: a bounded label). */
export type RetryReason = 'rate_limited' | 'server_error' | 'network' | 'timeout' | 'bad_body' | 'other';

/** How a day job ended (see day-outcome.ts). */
export type DayJobOutcome =
  | 'complete'
  | 'partial'
  | 'incomplete'
  | 'expired'
  | 'skipped'
  | 'deferred'
  | 'interrupted'
  | 'retrying'
  | 'failed';

/** How one delivery attempt of a notice ended. */
export type DeliveryOutcome = 'delivered' | 'failed' | 'abandoned';

export interface RequestMetrics {
  /**
   * One HTTP attempt ended, after its body was read: the status the API answered, or null when no
   * usable answer came (network failure, timeout, a body cut short or not JSON).
   */
  request(operation: string, status: number | null, seconds: number): void;
  /** A failed attempt is retried. */
  retry(operation: string, reason: RetryReason): void;
}

/** What one committed page (or origin batch) added to the archive. */
export interface PageCounts {
  /** API calls it covers: 1 for a page, 0 for an origin day's later batches. */
  pages: number;
  /** Entries the API sent. */
  entries: number;
  /** Rows added to the entry table. */
  inserted: number;
  /** Entries whose embedded log is not a JSON object (stored raw). */
  malformed: number;
  /** Entries without a usable key (quarantined). */
  quarantined: number;
}

export interface PageMetrics {
  page(source: 'origin' | 'shield', zone: number, counts: PageCounts): void;
}

export interface DayJobMetrics {
  dayJob(source: 'origin' | 'shield', outcome: DayJobOutcome): void;
}

export interface DeliveryMetrics {
  delivery(hook: string, outcome: DeliveryOutcome): void;
}

export interface IngestMetrics extends RequestMetrics, PageMetrics, DayJobMetrics, DeliveryMetrics {}

const nothing = (): void => {};

/** Counts nothing. */
export const NO_METRICS: IngestMetrics = Object.freeze({
  request: nothing,
  retry: nothing,
  page: nothing,
  dayJob: nothing,
  delivery: nothing,
});
