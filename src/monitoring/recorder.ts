// Turns what the ingest core reports (events.ts) into samples, with every label bounded: a zone that is
// not configured, an unknown operation or hook, is counted as `other`.
import type {
  DayJobOutcome,
  DeliveryOutcome,
  IngestMetrics,
  PageCounts,
  RetryReason,
} from '../telemetry/events.js';
import type { MetricSet } from './definitions.js';
import { OPERATIONS } from '../api/paths.js';
import { bounded, RETRY_REASONS, statusClass } from '../telemetry/labels.js';

export interface KnownLabels {
  pullZones: readonly number[];
  shieldZones: readonly number[];
  /** Configured hook names. */
  hooks: readonly string[];
}

const DAY_OUTCOMES: readonly DayJobOutcome[] = [
  'complete',
  'partial',
  'incomplete',
  'expired',
  'skipped',
  'deferred',
  'interrupted',
  'retrying',
  'failed',
];
const DELIVERY_OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failed', 'abandoned'];

export class MetricsRecorder implements IngestMetrics {
  private readonly zones: Record<'origin' | 'shield', ReadonlySet<string>>;
  private readonly hooks: ReadonlySet<string>;
  private readonly operations = new Set<string>(OPERATIONS);

  constructor(
    private readonly m: MetricSet,
    known: KnownLabels,
  ) {
    this.zones = {
      origin: new Set(known.pullZones.map(String)),
      shield: new Set(known.shieldZones.map(String)),
    };
    this.hooks = new Set(known.hooks);
    this.zero(known);
  }

  page(source: 'origin' | 'shield', zone: number, c: PageCounts): void {
    const labels = { source, zone: bounded(String(zone), this.zones[source]) };
    this.m.pages.inc(labels, c.pages);
    this.m.entriesReceived.inc(labels, c.entries);
    this.m.entriesArchived.inc(labels, c.inserted);
    this.m.entriesMalformed.inc(labels, c.malformed);
    this.m.entriesQuarantined.inc(labels, c.quarantined);
  }

  request(operation: string, status: number | null, seconds: number): void {
    const op = bounded(operation, this.operations);
    this.m.requestDuration.observe({ operation: op, status_class: statusClass(status) }, seconds);
    if (status === 429) this.m.rateLimited.inc({ operation: op });
  }

  retry(operation: string, reason: RetryReason): void {
    this.m.retries.inc({ operation: bounded(operation, this.operations), reason });
  }

  dayJob(source: 'origin' | 'shield', outcome: DayJobOutcome): void {
    this.m.dayJobs.inc({ source, outcome });
  }

  delivery(hook: string, outcome: DeliveryOutcome): void {
    this.m.deliveries.inc({ hook: bounded(hook, this.hooks), outcome });
  }

  /** Every counter series that can be known in advance starts at 0, so rate() sees its first increase. */
  private zero(known: KnownLabels): void {
    const zoned = [
      this.m.pages,
      this.m.entriesReceived,
      this.m.entriesArchived,
      this.m.entriesMalformed,
      this.m.entriesQuarantined,
    ];
    for (const [source, zones] of [
      ['origin', known.pullZones],
      ['shield', known.shieldZones],
    ] as const) {
      for (const zone of zones) for (const c of zoned) c.inc({ source, zone: String(zone) }, 0);
      if (zones.length > 0) for (const outcome of DAY_OUTCOMES) this.m.dayJobs.inc({ source, outcome }, 0);
    }
    for (const operation of OPERATIONS) {
      this.m.rateLimited.inc({ operation }, 0);
      for (const reason of RETRY_REASONS) this.m.retries.inc({ operation, reason }, 0);
    }
    for (const hook of known.hooks) {
      for (const outcome of DELIVERY_OUTCOMES) this.m.deliveries.inc({ hook, outcome }, 0);
    }
  }
}
