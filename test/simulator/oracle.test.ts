// The generator and oracle: determinism, the shape of entries, the clock, spikes, malformed and odd
// entries; the oracle's raw texts against what a client receives over loopback.
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  isKeyable,
  ODD_KINDS,
  Simulator,
  type OddKind,
  type PlainSimEntry,
  type SimEntry,
} from '../../src/simulator/index.js';
import { addDays, DAY_MS, dayStartMs, toApiDate, type Day } from '../../src/time/utc-day.js';
import { closeAfterEach, NOON, start, TODAY } from './helpers.js';

closeAfterEach();

const YESTERDAY: Day = addDays(TODAY, -1);
const H = 3_600_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function sim(opts: ConstructorParameters<typeof Simulator>[0] = {}): Simulator {
  return new Simulator({ now: () => NOON, ...opts });
}

/** Entries of a simulator without odd entries, typed as such (the test fails if one is odd). */
function plain(entries: SimEntry[]): PlainSimEntry[] {
  const out = entries.filter((e) => e.odd === null);
  expect(out).toHaveLength(entries.length);
  return out;
}

function nonDecreasing(entries: PlainSimEntry[]): boolean {
  return entries.every((e, i) => i === 0 || e.timestamp >= entries[i - 1]!.timestamp);
}

describe('generated data', () => {
  it('is a pure function of the seed', () => {
    expect(sim({ seed: 7 }).entries('shield', 201, YESTERDAY)).toEqual(
      sim({ seed: 7 }).entries('shield', 201, YESTERDAY),
    );
    const [a, b] = [sim({ seed: 7 }), sim({ seed: 8 })].map((s) => s.entries('shield', 201, YESTERDAY));
    expect(a!.map((e) => e.logId)).not.toEqual(b!.map((e) => e.logId));
  });

  it.each(['origin', 'shield'] as const)(
    '%s: entriesPerDay entries inside the UTC day, in time order',
    (source) => {
      const zone = source === 'origin' ? 101 : 201;
      const entries = plain(sim().entries(source, zone, YESTERDAY));
      expect(entries).toHaveLength(500);
      const start = dayStartMs(YESTERDAY);
      for (const e of entries) {
        expect(Number.isInteger(e.timestamp) && e.timestamp >= start && e.timestamp < start + DAY_MS).toBe(
          true,
        );
        expect(e.logId).toMatch(UUID);
        expect(e.malformed).toBe(false);
      }
      expect(nonDecreasing(entries)).toBe(true);
      expect(new Set(entries.map((e) => e.logId)).size).toBe(500);
    },
  );

  it('origin entries: log JSON with a numeric StatusCode, labels with the same status as a string', () => {
    for (const e of plain(sim().entries('origin', 103, YESTERDAY))) {
      const log = JSON.parse(e.log) as Record<string, unknown>;
      expect(Object.keys(log)).toEqual(['RequestUrl', 'PullZoneId', 'Message', 'ErrorCode', 'StatusCode']);
      expect(log.PullZoneId).toBe(103);
      expect(typeof log.StatusCode).toBe('number');
      expect(Object.keys(e.labels)).toEqual(['ErrorCode', 'StatusCode', 'ServerZone']);
      expect(e.labels.StatusCode).toBe(String(log.StatusCode));
      expect(e.labels.ErrorCode).toBe(log.ErrorCode);
    }
  });

  it('origin entries: the error codes of API-NOTES and a mix of statuses', () => {
    const entries = plain(sim({ entriesPerDay: 3000 }).entries('origin', 101, YESTERDAY));
    const codes = new Set(entries.map((e) => e.labels.ErrorCode));
    const statuses = new Set(entries.map((e) => e.labels.StatusCode));
    expect([...codes].every((c) => KNOWN_CODES.includes(c!))).toBe(true);
    expect(codes.size).toBeGreaterThanOrEqual(8);
    for (const s of ['500', '502', '503', '504', '404']) expect(statuses).toContain(s);
  });

  it('shield entries: string labels, and a log with the keys of API-NOTES, 300–600 bytes on average', () => {
    const entries = plain(sim().entries('shield', 202, YESTERDAY));
    let bytes = 0;
    for (const e of entries) {
      expect(Object.keys(e.labels).sort()).toEqual(
        ['asn', 'country', 'method', 'ruleGroup', 'ruleId', 'serverZone', 'severity', 'status'].sort(),
      );
      expect(Object.values(e.labels).every((v) => typeof v === 'string')).toBe(true);
      const log = JSON.parse(e.log) as Record<string, unknown>;
      expect(Object.keys(log)).toEqual([
        'ServerZoneId',
        'Message',
        'Url',
        'RemoteIp',
        'UrlEncodedBody',
        'Headers',
        'TriggerMatch',
      ]);
      expect(log.RemoteIp).toMatch(/^\d+\.\d+\.\d+\.\*$/);
      expect(log.Headers).toContainEqual({ Name: 'Host', Value: 'shield-202.example.com' });
      expect(log.UrlEncodedBody === null || typeof log.UrlEncodedBody === 'string').toBe(true);
      bytes += Buffer.byteLength(e.log);
    }
    expect(bytes / entries.length).toBeGreaterThan(300);
    expect(bytes / entries.length).toBeLessThan(600);
  });

  it('entriesPerDay may depend on source, zone and day', () => {
    const s = sim({
      entriesPerDay: (source, zone, day) =>
        source === 'origin' ? 10 : zone === 202 ? 0 : day === YESTERDAY ? 30 : 20,
    });
    expect(s.count('origin', 101, YESTERDAY)).toBe(10);
    expect(s.count('shield', 201, YESTERDAY)).toBe(30);
    expect(s.count('shield', 201, addDays(TODAY, -2))).toBe(20);
    expect(s.count('shield', 202, YESTERDAY)).toBe(0);
  });

  it('unknown zones have no entries', () => {
    expect(sim().entries('origin', 201, YESTERDAY)).toEqual([]);
    expect(sim().count('shield', 101, YESTERDAY)).toBe(0);
  });

  it('refuses bad options with a message naming the option', () => {
    expect(() => new Simulator({ pageSize: 0 })).toThrow('pageSize must be an integer >= 1');
    expect(() => new Simulator({ malformedRate: 2 })).toThrow('malformedRate must be a number from 0 to 1');
    expect(() => new Simulator({ pullZones: [1.5] })).toThrow('pullZones[0] must be an integer >= 1');
    expect(
      () => new Simulator({ spikes: [{ source: 'shield', zone: 201, from: 10, to: 10, count: 1 }] }),
    ).toThrow('spikes[0].to must be an integer >= 11');
    expect(() => new Simulator({ faults: [{ kind: '429', times: 1, rate: 0.5 }] })).toThrow(
      'times or rate, not both',
    );
  });
});

const KNOWN_CODES = [
  'dns_lookup',
  'http_timeout',
  'http_request_exception',
  'http_request_failure',
  'http_invalid_range',
  'http_loop_detected',
  'http_invalid_compression',
  'network_socket_exception',
  'network_io_error',
  'notfound_localdb',
  'error',
];

describe('the clock', () => {
  it('today fills in: what is visible at an instant is a prefix of what is visible later', () => {
    const s = sim({ entriesPerDay: 2400 });
    const start = dayStartMs(TODAY);
    const counts = [0, 1, 6, 12, 18, 24].map((h) => s.count('shield', 201, TODAY, start + h * H - 1));
    expect(counts[0]).toBe(0);
    expect(counts[5]).toBe(2400);
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThan(counts[i - 1]!);
    expect(Math.abs(counts[3]! - 1200)).toBeLessThanOrEqual(1);
    const morning = plain(s.entries('shield', 201, TODAY, start + 6 * H));
    const evening = plain(s.entries('shield', 201, TODAY, start + 18 * H));
    expect(evening.slice(0, morning.length)).toEqual(morning);
    expect(morning.every((e) => e.timestamp <= start + 6 * H)).toBe(true);
  });

  it('the default instant is the simulator clock; future days serve nothing', () => {
    const s = sim({ entriesPerDay: 2400 });
    expect(s.count('origin', 101, TODAY)).toBe(s.count('origin', 101, TODAY, NOON));
    expect(s.count('origin', 101, TODAY)).toBeLessThan(2400);
    expect(s.entries('origin', 101, addDays(TODAY, 1))).toEqual([]);
  });
});

describe('spikes', () => {
  const from = dayStartMs(YESTERDAY) + 10 * H;

  it('origin: a segment after the base entries, spread over [from, to), with the spike status and code', () => {
    const s = sim({
      spikes: [
        { source: 'origin', zone: 101, from, to: from + H, count: 300 },
        {
          source: 'origin',
          zone: 102,
          from,
          to: from + H,
          count: 50,
          statusCode: 502,
          errorCode: 'dns_lookup',
        },
        { source: 'shield', zone: 201, from, to: from + H, count: 70 },
      ],
    });
    const entries = plain(s.entries('origin', 101, YESTERDAY));
    expect(entries).toHaveLength(800);
    const spike = entries.slice(500);
    expect(spike.every((e) => e.timestamp >= from && e.timestamp < from + H)).toBe(true);
    expect(nonDecreasing(spike)).toBe(true);
    expect(spike.every((e) => e.labels.StatusCode === '503' && e.labels.ErrorCode === 'http_timeout')).toBe(
      true,
    );
    expect((JSON.parse(spike[0]!.log) as { StatusCode: unknown }).StatusCode).toBe(503);
    const other = plain(s.entries('origin', 102, YESTERDAY).slice(500));
    expect(other).toHaveLength(50);
    expect(other.every((e) => e.labels.StatusCode === '502' && e.labels.ErrorCode === 'dns_lookup')).toBe(
      true,
    );
    expect(s.count('origin', 103, YESTERDAY)).toBe(500);
  });

  it('shield: ruleId and severity of the spike', () => {
    const s = sim({
      spikes: [
        { source: 'shield', zone: 201, from, to: from + H, count: 40, ruleId: '942100', severity: 'error' },
      ],
    });
    const spike = plain(s.entries('shield', 201, YESTERDAY).slice(500));
    expect(spike).toHaveLength(40);
    expect(spike.every((e) => e.labels.ruleId === '942100' && e.labels.severity === 'error')).toBe(true);
    expect(spike.every((e) => e.labels.ruleGroup === 'SQLI')).toBe(true);
  });

  it('a spike across midnight is split between the two days', () => {
    const midnight = dayStartMs(TODAY);
    const s = sim({
      entriesPerDay: 0,
      spikes: [{ source: 'shield', zone: 203, from: midnight - H, to: midnight + H, count: 1000 }],
    });
    const before = plain(s.entries('shield', 203, YESTERDAY));
    const after = plain(s.entries('shield', 203, TODAY));
    expect(before.length + after.length).toBe(1000);
    expect(Math.abs(before.length - 500)).toBeLessThan(5);
    expect(before.every((e) => e.timestamp < midnight) && after.every((e) => e.timestamp >= midnight)).toBe(
      true,
    );
  });
});

describe('malformed entries', () => {
  it('appear at the rate asked, are flagged, and hold the valid log cut short', () => {
    const clean = plain(sim({ entriesPerDay: 4000 }).entries('shield', 201, YESTERDAY));
    const dirty = plain(sim({ entriesPerDay: 4000, malformedRate: 0.1 }).entries('shield', 201, YESTERDAY));
    const flagged = dirty.filter((e) => e.malformed);
    expect(flagged.length).toBeGreaterThan(320);
    expect(flagged.length).toBeLessThan(480);
    dirty.forEach((e, i) => {
      const full = clean[i]!;
      expect(e.logId).toBe(full.logId);
      expect(e.labels).toEqual(full.labels);
      if (e.malformed) {
        expect(e.log).toBe(full.log.slice(0, Math.floor(full.log.length / 2)));
        expect(() => JSON.parse(e.log) as unknown).toThrow();
      } else expect(e.log).toBe(full.log);
    });
  });
});

/** Checks an odd entry against the plain entry it was made from (same seed and index, no odd rate). */
function expectShape(e: SimEntry, plain: PlainSimEntry): void {
  const v: unknown = JSON.parse(e.raw);
  const o = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
  const key = { logId: plain.logId, timestamp: plain.timestamp };
  const changedLabels = () => {
    const labels = o.labels as Record<string, unknown>;
    expect(Object.keys(labels)).toEqual(Object.keys(plain.labels));
    const changed = Object.keys(labels).filter((k) => labels[k] !== plain.labels[k]);
    expect(changed).toHaveLength(1);
    return [labels[changed[0]!], plain.labels[changed[0]!]!] as const;
  };
  const kind: OddKind = e.odd!;
  if (isKeyable(kind)) expect(o).toMatchObject(key);
  switch (kind) {
    case 'null-log':
      expect(o).toEqual({ ...key, log: null, labels: plain.labels });
      break;
    case 'missing-log':
      expect(Object.keys(o)).toEqual(['logId', 'timestamp', 'labels']);
      break;
    case 'null-labels':
      expect(o).toEqual({ ...key, log: plain.log, labels: null });
      break;
    case 'missing-labels':
      expect(Object.keys(o)).toEqual(['logId', 'timestamp', 'log']);
      break;
    case 'null-label-value':
      expect(changedLabels()[0]).toBeNull();
      break;
    case 'nested-label':
      expect(changedLabels()[0]).toEqual({ a: 1 });
      break;
    case 'number-label': {
      const [now, was] = changedLabels();
      expect(typeof now).toBe('number');
      if (/^\d+$/.test(was)) expect(now).toBe(Number(was));
      break;
    }
    case 'null-logId':
    case 'missing-logId':
    case 'empty-logId':
    case 'number-logId': {
      const want = { 'null-logId': null, 'missing-logId': undefined, 'empty-logId': '' }[kind as string];
      if (kind === 'number-logId') expect(Number.isInteger(o.logId)).toBe(true);
      else expect(o.logId).toBe(want);
      expect('logId' in o).toBe(kind !== 'missing-logId');
      expect(o).toMatchObject({ timestamp: plain.timestamp, log: plain.log, labels: plain.labels });
      break;
    }
    case 'null-timestamp':
      expect(o.timestamp).toBeNull();
      break;
    case 'string-timestamp':
      expect(o.timestamp).toBe(String(plain.timestamp));
      break;
    case 'float-timestamp':
      expect(typeof o.timestamp === 'number' && !Number.isInteger(o.timestamp)).toBe(true);
      expect(Math.floor(o.timestamp as number)).toBe(plain.timestamp);
      break;
    case 'negative-timestamp':
      expect(o.timestamp).toBe(-plain.timestamp);
      break;
    case 'not-an-object':
      if (typeof v === 'string') expect(JSON.parse(v)).toEqual(JSON.parse(plain.raw));
      else if (v !== null) expect(v).toBe(plain.timestamp);
      expect([e.logId, e.timestamp, e.log, e.labels]).toEqual([undefined, undefined, undefined, undefined]);
      break;
  }
  if (kind.endsWith('timestamp')) expect(o).toMatchObject({ logId: plain.logId, log: plain.log });
  // The typed fields hold what was served.
  expect([e.logId, e.timestamp, e.log, e.labels]).toEqual([o.logId, o.timestamp, o.log, o.labels]);
}

describe('odd entries', () => {
  const N = 8000;
  const odd = (
    opts: ConstructorParameters<typeof Simulator>[0] = {},
    source: 'origin' | 'shield' = 'shield',
  ) =>
    sim({ entriesPerDay: N, oddEntryRate: 0.5, ...opts }).entries(
      source,
      source === 'origin' ? 101 : 201,
      YESTERDAY,
    );

  it('are off by default: every entry is plain, keyable, and its raw is the JSON of its fields', () => {
    for (const e of sim().entries('shield', 201, YESTERDAY)) {
      expect([e.odd, e.keyable]).toEqual([null, true]);
      expect(e.raw).toBe(
        JSON.stringify({ logId: e.logId, timestamp: e.timestamp, log: e.log, labels: e.labels }),
      );
    }
  });

  it('are deterministic: a pure function of the seed, chosen per entry', () => {
    const a = odd();
    expect(odd()).toEqual(a);
    const other = odd({ seed: 2 });
    expect(other.map((e) => e.odd)).not.toEqual(a.map((e) => e.odd));
  });

  it.each([0.02, 0.25, 1])('appear at the rate asked (%d)', (rate) => {
    const entries = odd({ oddEntryRate: rate });
    expect(entries).toHaveLength(N);
    const count = entries.filter((e) => e.odd !== null).length;
    // Binomial: four standard deviations either side.
    const sd = Math.sqrt(N * rate * (1 - rate));
    expect(Math.abs(count - N * rate)).toBeLessThanOrEqual(4 * sd);
  });

  it.each(['shield', 'origin'] as const)(
    '%s: every kind appears over a large day, each as described',
    (source) => {
      const entries = odd({}, source);
      const plainDay = plain(
        sim({ entriesPerDay: N }).entries(source, source === 'origin' ? 101 : 201, YESTERDAY),
      );
      const seen = new Map<string, number>();
      const shapes = new Set<string>();
      entries.forEach((e, i) => {
        expect(e.keyable).toBe(isKeyable(e.odd));
        if (e.odd === null) {
          expect(e).toEqual(plainDay[i]);
          return;
        }
        seen.set(e.odd, (seen.get(e.odd) ?? 0) + 1);
        if (e.odd === 'not-an-object') shapes.add(e.raw === 'null' ? 'null' : typeof JSON.parse(e.raw));
        expectShape(e, plainDay[i]!);
      });
      expect([...seen.keys()].sort()).toEqual([...ODD_KINDS].sort());
      expect(shapes).toEqual(new Set(['null', 'string', 'number']));
    },
  );

  it('keyable entries keep their key; the typed fields of plain and keyable ones are usable', () => {
    const keyable = odd().filter((e) => e.keyable);
    expect(keyable.every((e) => typeof e.logId === 'string' && Number.isInteger(e.timestamp))).toBe(true);
    expect(new Set(keyable.map((e) => e.logId)).size).toBe(keyable.length);
  });

  it('are independent of malformed entries', () => {
    const both = odd({ oddEntryRate: 0.3, malformedRate: 0.3 });
    const onlyOdd = odd({ oddEntryRate: 0.3 });
    const onlyCut = plain(sim({ entriesPerDay: N, malformedRate: 0.3 }).entries('shield', 201, YESTERDAY));
    expect(both.map((e) => e.odd)).toEqual(onlyOdd.map((e) => e.odd));
    both.forEach((e, i) => {
      if (typeof e.log === 'string') expect(e.malformed).toBe(onlyCut[i]!.malformed);
      else expect(e.malformed).toBe(false);
    });
    expect(both.filter((e) => e.odd !== null && e.malformed).length).toBeGreaterThan(100);
  });

  it('isKeyable sorts the kinds', () => {
    expect(ODD_KINDS.filter((k) => isKeyable(k))).toEqual([
      'null-log',
      'missing-log',
      'null-labels',
      'missing-labels',
      'null-label-value',
      'nested-label',
      'number-label',
    ]);
    expect(isKeyable(null)).toBe(true);
    expect(ODD_KINDS).toHaveLength(16);
  });

  it('refuses a rate outside 0..1', () => {
    expect(() => new Simulator({ oddEntryRate: 1.5 })).toThrow('oddEntryRate must be a number from 0 to 1');
  });
});

describe('raw texts against the wire', () => {
  async function text(url: string, accessKey: string, agent: Agent): Promise<string> {
    const res = await request(url, { dispatcher: agent, headers: { AccessKey: accessKey } });
    expect(res.statusCode).toBe(200);
    return res.body.text();
  }

  it('Shield pages and the origin day hold exactly the oracle raw texts, in order', async () => {
    const { sim: s, urls } = await start({
      entriesPerDay: 1200,
      pageSize: 500,
      oddEntryRate: 0.3,
      malformedRate: 0.1,
    });
    const agent = new Agent();
    try {
      const shield = s.entries('shield', 201, YESTERDAY).map((e) => e.raw);
      let token = '';
      for (let p = 0; p < 3; p++) {
        const url = `${urls.baseUrl}/shield/event-logs/201/${toApiDate(YESTERDAY)}/${encodeURIComponent(token)}`;
        const body = await text(url, s.accessKey, agent);
        expect(body.startsWith(`{"logs":[${shield.slice(p * 500, (p + 1) * 500).join(',')}],`)).toBe(true);
        token = (JSON.parse(body) as { continuationToken: string | null }).continuationToken ?? '';
        expect(token === '').toBe(p === 2);
      }
      const origin = s.entries('origin', 101, YESTERDAY).map((e) => e.raw);
      const body = await text(`${urls.originLogUrl}/101/${toApiDate(YESTERDAY)}`, s.accessKey, agent);
      expect(body.startsWith(`{"logs":[${origin.join(',')}],`)).toBe(true);
      expect((JSON.parse(body) as { logs: unknown[] }).logs).toEqual(
        origin.map((r) => JSON.parse(r) as unknown),
      );
    } finally {
      await agent.close();
    }
  });
});
