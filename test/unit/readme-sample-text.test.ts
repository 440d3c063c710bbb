import { describe, expect, it } from 'vitest';
import { condense, sampleDrift, samplesIn, shape, withSample } from '../readme/sample-text.js';

const README = [
  'Intro',
  '<!-- sample: status -->',
  '```',
  'source  zone  state',
  'origin   101  complete',
  '```',
  'Outro',
  '',
].join('\n');

describe('README samples', () => {
  it('are found by name and replaced in place', () => {
    expect(samplesIn(README)).toEqual([
      { name: 'status', text: 'source  zone  state\norigin   101  complete\n' },
    ]);
    const next = withSample(README, 'status', 'a\nb');
    expect(samplesIn(next)[0]!.text).toBe('a\nb\n');
    expect(next.startsWith('Intro\n<!-- sample: status -->\n```\na\nb\n```\nOutro')).toBe(true);
    expect(() => withSample(README, 'nope', '')).toThrow('README has no sample named nope');
    // Prettier puts a blank line between the comment and the fence.
    expect(samplesIn(README.replace('-->\n', '-->\n\n'))).toHaveLength(1);
  });

  it.each([
    ['2026-11-21  complete   1,281  733ms', '2026-11-23 complete 9 12ms'],
    ['http://127.0.0.1:46049 (zones)', 'http://127.0.0.1:8787 (zones)'],
    ['00:00 │███████▎   83', '00:00 │██  9'],
    ['archive  /tmp/readme/data/edgelog.db', 'archive /tmp/edgelog-x1/data/edgelog.db'],
  ])('%s and %s have one shape', (a, b) => {
    expect(shape(a)).toBe(shape(b));
  });

  it('are kept when only figures differ and `…` stands for left-out lines', () => {
    const output =
      'head\nsource zone outcome\norigin 101 complete\norigin 102 partial\nshield 201 complete\ntail\n';
    expect(
      sampleDrift('source zone outcome\norigin 101 complete\n…\nshield 9 complete\n', output),
    ).toBeNull();
  });

  it('drift when a word, a column or the order differs', () => {
    const output = 'source zone outcome\norigin 101 complete\n';
    expect(sampleDrift('source zone state\n', output)).toBe(
      'the README\'s sample and the output part at: "source zone state" (the output: "(no such line)")',
    );
    expect(sampleDrift('source zone outcome\norigin 101 partial\n', output)).toBe(
      'the README\'s sample and the output part at: "origin 0 partial" (the output: "origin 0 complete")',
    );
    expect(sampleDrift('origin 101 complete\n…\nsource zone outcome\n', output)).toMatch(
      /source zone outcome/,
    );
    // Without `…`, the README's lines must follow one another in the output.
    expect(
      sampleDrift('source zone outcome\nshield 1 complete\n', `${output}x\nshield 1 complete\n`),
    ).not.toBeNull();
  });
});

describe('condense', () => {
  it('keeps two and the last of a long run of one shape, and what still matches', () => {
    const text = 'head\nrow 1\nrow 2\nrow 3\nrow 4\nrow 5\ntail 1\n';
    expect(condense(text)).toBe('head\nrow 1\nrow 2\n…\nrow 5\ntail 1\n');
    expect(sampleDrift(condense(text), text)).toBeNull();
    expect(condense('a 1\na 2\na 3\n')).toBe('a 1\na 2\na 3\n');
  });
});
