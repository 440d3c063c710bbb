// The generator and the oracle. A zone-day's entries are a pure function of (seed, source, zone, day,
// segment, index): nothing is stored, any entry is computed on demand, so a million-entry day is served
// page by page in flat memory, and the oracle answers with exactly the bytes the server sends.
import { DAY_MS, dayEndMs, dayStartMs, type Day } from '../time/utc-day.js';
import { segmentTime, spreadRange, visiblePrefix, type Segment, type Spread } from './layout.js';
import { hostileText, HOSTILE_TEXT, plainText, type Mark } from './hostile.js';
import { esc, uuidOf } from './json-text.js';
import { ODD_KINDS, oddEntryJson, type OddKind } from './odd-entry.js';
import type { ResolvedOptions, SimSource } from './options.js';
import { originEntry, originVocab, type EntryText, type OriginVocab } from './origin-entry.js';
import { hashOf, keyed, Rng, unit } from './prng.js';
import { shieldEntry, shieldVocab, type ShieldVocab } from './shield-entry.js';
import { toSimEntry, type SimEntry } from './sim-entry.js';

/** A segment with the keys of its per-entry sequences. */
export interface SegmentPlan extends Segment {
  idKeys: readonly [number, number, number, number];
  contentKey: number;
  malformedKey: number;
  /** Draws whether an entry is odd, then (a second sequence) its kind and variant. */
  oddKey: number;
  oddKindKey: number;
  /** The rendered vocabulary of the segment's entries (origin or shield, by source). */
  vocab: OriginVocab | ShieldVocab;
}

/** A place in a zone-day: the next entry to serve. */
export interface Position {
  segment: number;
  index: number;
}

export interface PageSlice {
  /** The page's entries as JSON texts joined by commas (the inside of `logs: [...]`). */
  json: string;
  count: number;
  /** Where the page started (after skipping exhausted segments). */
  start: Position;
  /** Where the next page starts; undefined when nothing more is logged yet. */
  next: Position | undefined;
}

const PLAN_CACHE_LIMIT = 4096;

export class DataSet {
  private readonly plans = new Map<string, SegmentPlan[]>();
  private readonly vocabs = new Map<string, OriginVocab | ShieldVocab>();
  private readonly rng = new Rng();
  private readonly oddRng = new Rng();
  private readonly text: EntryText = { log: '', labels: '' };
  /** What every string of an entry gets (the hostileText knob), and its escaped form before a logId. */
  private readonly mark: Mark;
  private readonly idPrefix: string;

  constructor(private readonly opts: ResolvedOptions) {
    this.mark = opts.hostileText ? hostileText : plainText;
    this.idPrefix = opts.hostileText ? esc(HOSTILE_TEXT) : '';
  }

  /** True when the zone exists for that source. */
  knows(source: SimSource, zone: number): boolean {
    return (source === 'origin' ? this.opts.pullZones : this.opts.shieldZones).has(zone);
  }

  /** The segments of a zone-day in serving order: base entries, then each spike touching the day. */
  plan(source: SimSource, zone: number, day: Day): SegmentPlan[] {
    const cacheKey = `${source}:${zone}:${day}`;
    const cached = this.plans.get(cacheKey);
    if (cached) return cached;
    const plan = this.buildPlan(source, zone, day);
    if (this.plans.size >= PLAN_CACHE_LIMIT) this.plans.clear();
    this.plans.set(cacheKey, plan);
    return plan;
  }

  /** Entries of each segment logged at instant `at` (a prefix of each segment). */
  visible(plan: readonly SegmentPlan[], day: Day, at: number): number[] {
    if (at < dayStartMs(day)) return plan.map(() => 0);
    if (at >= dayEndMs(day)) return plan.map((s) => s.size);
    return plan.map((s) => visiblePrefix(s, at));
  }

  /** Whether entry `i` of a segment has a cut-short `log`. */
  isMalformed(seg: SegmentPlan, i: number): boolean {
    const rate = this.opts.malformedRate;
    return rate > 0 && unit(keyed(seg.malformedKey, seg.first + i)) < rate;
  }

  /** The odd kind of entry `i` of a segment, or null for an entry as documented. */
  oddKind(seg: SegmentPlan, i: number): OddKind | null {
    const rate = this.opts.oddEntryRate;
    if (rate === 0 || unit(keyed(seg.oddKey, seg.first + i)) >= rate) return null;
    return ODD_KINDS[
      Math.floor(this.oddRng.reseed(keyed(seg.oddKindKey, seg.first + i)).float() * ODD_KINDS.length)
    ]!;
  }

  /** The JSON text of entry `i` of a segment, exactly as served. */
  entryJson(source: SimSource, zone: number, seg: SegmentPlan, i: number): string {
    const k = seg.first + i;
    const [k0, k1, k2, k3] = seg.idKeys;
    const logId = this.idPrefix + uuidOf(keyed(k0, k), keyed(k1, k), keyed(k2, k), keyed(k3, k));
    if (this.opts.tinyEntries) return `{"logId":"${logId}","timestamp":${segmentTime(seg, i)}}`;
    const rng = this.rng.reseed(keyed(seg.contentKey, k));
    const text = this.text;
    if (source === 'origin') originEntry(seg.vocab as OriginVocab, rng, text);
    else shieldEntry(seg.vocab as ShieldVocab, rng, text);
    let log = text.log;
    if (this.isMalformed(seg, i)) {
      const whole = JSON.parse(`"${log}"`) as string;
      log = esc(whole.slice(0, Math.floor(whole.length / 2)));
    }
    const timestamp = segmentTime(seg, i);
    // Off (rate 0) this costs one comparison per entry. oddRng, seeded by oddKind, goes on to the variant.
    if (this.opts.oddEntryRate > 0) {
      const odd = this.oddKind(seg, i);
      if (odd !== null) return oddEntryJson(odd, { logId, timestamp, log, labels: text.labels }, this.oddRng);
    }
    return `{"logId":"${logId}","timestamp":${timestamp},"log":"${log}","labels":${text.labels}}`;
  }

  /** ORACLE: the entries served at instant `at`, in serving order. Unknown zones have none. */
  entries(source: SimSource, zone: number, day: Day, at: number): SimEntry[] {
    if (!this.knows(source, zone)) return [];
    const plan = this.plan(source, zone, day);
    const visible = this.visible(plan, day, at);
    const out: SimEntry[] = [];
    plan.forEach((seg, s) => {
      for (let i = 0; i < visible[s]!; i++) {
        const raw = this.entryJson(source, zone, seg, i);
        out.push(toSimEntry(raw, this.oddKind(seg, i), this.isMalformed(seg, i)));
      }
    });
    return out;
  }

  count(source: SimSource, zone: number, day: Day, at: number): number {
    if (!this.knows(source, zone)) return 0;
    const plan = this.plan(source, zone, day);
    return this.visible(plan, day, at).reduce((a, b) => a + b, 0);
  }

  /** Every entry of a zone-day logged at `at`, as JSON texts, in serving order (for streaming). */
  *entryJsons(source: SimSource, zone: number, day: Day, at: number): Generator<string> {
    const plan = this.plan(source, zone, day);
    const visible = this.visible(plan, day, at);
    for (let s = 0; s < plan.length; s++) {
      for (let i = 0; i < visible[s]!; i++) yield this.entryJson(source, zone, plan[s]!, i);
    }
  }

  /** Up to `size` Shield entries from `from` (the start of the day when undefined). */
  page(zone: number, day: Day, from: Position | undefined, at: number, size: number): PageSlice {
    const plan = this.plan('shield', zone, day);
    const visible = this.visible(plan, day, at);
    let s = from ? plan.findIndex((seg) => seg.id >= from.segment) : 0;
    if (s < 0) s = plan.length;
    let i = from && plan[s]?.id === from.segment ? from.index : 0;
    const parts: string[] = [];
    let start: Position | undefined;
    while (s < plan.length) {
      const seg = plan[s]!;
      if (i >= visible[s]!) {
        s++;
        i = 0;
        continue;
      }
      if (parts.length === size) break;
      start ??= { segment: seg.id, index: i };
      parts.push(this.entryJson('shield', zone, seg, i));
      i++;
    }
    const next = s < plan.length ? { segment: plan[s]!.id, index: i } : undefined;
    return {
      json: parts.join(','),
      count: parts.length,
      start: start ?? from ?? { segment: 0, index: 0 },
      next,
    };
  }

  /**
   * Where Shield page `page` (1-based) starts when every page before it held `size` entries, counted
   * from the start of the day as page() walks it; the end of what is logged when the day holds fewer.
   */
  pageStart(zone: number, day: Day, at: number, size: number, page: number): Position {
    const plan = this.plan('shield', zone, day);
    const visible = this.visible(plan, day, at);
    let skip = size * (page - 1);
    for (let s = 0; s < plan.length; s++) {
      const take = Math.min(skip, visible[s]!);
      skip -= take;
      // page() moves on from an exhausted segment before it stops at a full page.
      if (skip === 0 && take < visible[s]!) return { segment: plan[s]!.id, index: take };
    }
    const last = plan.length - 1;
    return { segment: plan[last]!.id, index: visible[last]! };
  }

  private baseVocab(source: SimSource, zone: number): OriginVocab | ShieldVocab {
    const key = `${source}:${zone}`;
    let vocab = this.vocabs.get(key);
    if (!vocab) {
      vocab =
        source === 'origin'
          ? originVocab(zone, undefined, this.mark)
          : shieldVocab(zone, undefined, this.mark);
      this.vocabs.set(key, vocab);
    }
    return vocab;
  }

  private buildPlan(source: SimSource, zone: number, day: Day): SegmentPlan[] {
    const { seed } = this.opts;
    const dayStart = dayStartMs(day);
    const dayNumber = dayStart / DAY_MS;
    const n = this.opts.entriesPerDay(source, zone, day);
    const base = (salt: string) => hashOf(seed, source, zone, 'base', dayNumber, salt);
    const plan: SegmentPlan[] = [
      {
        id: 0,
        spread: { start: dayStart, span: DAY_MS, total: n, timeKey: base('time') },
        first: 0,
        size: n,
        ...keysOf(base),
        vocab: this.baseVocab(source, zone),
      },
    ];
    this.opts.spikes.forEach((spike, index) => {
      if (spike.source !== source || spike.zone !== zone || spike.count === 0) return;
      const key = (salt: string) => hashOf(seed, source, zone, 'spike', index, salt);
      const spread: Spread = {
        start: spike.from,
        span: spike.to - spike.from,
        total: spike.count,
        timeKey: key('time'),
      };
      const { first, end } = spreadRange(spread, dayStart, dayStart + DAY_MS);
      if (end <= first) return;
      plan.push({
        id: index + 1,
        spread,
        first,
        size: end - first,
        ...keysOf(key),
        vocab:
          source === 'origin'
            ? originVocab(zone, { statusCode: spike.statusCode, errorCode: spike.errorCode }, this.mark)
            : shieldVocab(zone, { ruleId: spike.ruleId, severity: spike.severity }, this.mark),
      });
    });
    return plan;
  }
}

function keysOf(
  key: (salt: string) => number,
): Pick<SegmentPlan, 'idKeys' | 'contentKey' | 'malformedKey' | 'oddKey' | 'oddKindKey'> {
  return {
    idKeys: [key('id0'), key('id1'), key('id2'), key('id3')],
    contentKey: key('content'),
    malformedKey: key('malformed'),
    oddKey: key('odd'),
    oddKindKey: key('odd-kind'),
  };
}
