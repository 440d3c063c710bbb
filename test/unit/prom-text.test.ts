// The test parser of the Prometheus text format is itself tested: it reads what prom-client writes, and
// refuses each kind of defect, so a metrics test that passes through it cannot pass on a broken page.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { parsePromText, sampleValue } from '../support/prom-text.js';

describe('parsePromText', () => {
  it("reads prom-client's output: families, types, labels with escapes, histograms, +Inf", async () => {
    const registry = new Registry();
    const c = new Counter({
      name: 'x_total',
      help: 'a "counter"\\ with\nnewline',
      labelNames: ['path'],
      registers: [registry],
    });
    c.inc({ path: 'a"b\\c\nd' }, 3);
    const g = new Gauge({ name: 'lag_seconds', help: 'lag', labelNames: ['zone'], registers: [registry] });
    g.set({ zone: '1' }, Infinity);
    // prom-client writes NaN as "Nan" (Prometheus reads it, ignoring case, as NaN).
    g.set({ zone: '2' }, NaN);
    const h = new Histogram({
      name: 'd_seconds',
      help: 'durations',
      buckets: [0.1, 1],
      registers: [registry],
    });
    h.observe(0.5);
    const families = parsePromText(await registry.metrics());
    expect([...families.keys()].sort()).toEqual(['d_seconds', 'lag_seconds', 'x_total']);
    expect(families.get('x_total')).toMatchObject({ type: 'counter', help: 'a "counter"\\ with\nnewline' });
    expect(families.get('x_total')!.samples[0]!.labels).toEqual({ path: 'a"b\\c\nd' });
    expect(sampleValue(families, 'x_total', { path: 'a"b\\c\nd' })).toBe(3);
    expect(sampleValue(families, 'lag_seconds', { zone: '1' })).toBe(Infinity);
    expect(sampleValue(families, 'lag_seconds', { zone: '2' })).toBeNaN();
    expect(families.get('d_seconds')!.type).toBe('histogram');
    expect(sampleValue(families, 'd_seconds_bucket', { le: '0.1' })).toBe(0);
    expect(sampleValue(families, 'd_seconds_bucket', { le: '+Inf' })).toBe(1);
    expect(sampleValue(families, 'd_seconds_count')).toBe(1);
  });

  it.each([
    ['no HELP', '# TYPE a counter\na 1\n', 'family a has no HELP'],
    ['no TYPE', '# HELP a help\na 1\n', 'sample a has no TYPE before it'],
    ['TYPE after samples', '# HELP a h\na 1\n# TYPE a counter\n', 'sample a has no TYPE'],
    ['two TYPEs', '# HELP a h\n# TYPE a counter\n# TYPE a gauge\na 1\n', 'second TYPE'],
    ['unknown type', '# HELP a h\n# TYPE a meter\na 1\n', 'unknown type'],
    ['bad value', '# HELP a h\n# TYPE a gauge\na one\n', 'not a sample value'],
    ['bad label escape', '# HELP a h\n# TYPE a gauge\na{x="\\t"} 1\n', 'bad escape'],
    ['unquoted label', '# HELP a h\n# TYPE a gauge\na{x=1} 1\n', 'not quoted'],
    ['label twice', '# HELP a h\n# TYPE a gauge\na{x="1",x="2"} 1\n', 'given twice'],
    ['duplicate series', '# HELP a h\n# TYPE a gauge\na{x="1"} 1\na{x="1"} 2\n', 'duplicate series'],
    [
      'split family',
      '# HELP a h\n# TYPE a gauge\na 1\n# HELP b h\n# TYPE b gauge\nb 1\n# HELP a h\n',
      'appears in two places',
    ],
    ['bucket without le', '# HELP h h\n# TYPE h histogram\nh_bucket 1\n', 'without "le"'],
    ['bad metric name', '# HELP 1a h\n', 'bad metric name'],
    ['no final line feed', '# HELP a h\n# TYPE a gauge\na 1', 'must end with a line feed'],
  ])('refuses %s', (_what, text, message) => {
    expect(() => parsePromText(text)).toThrow(message);
  });
});
