// docs/CONFIGURATION.md's reference is the schema's: every key, its default, what it accepts and its one
// line, in the schema's order. A key added to the schema without a description, or a page not rewritten
// after a change (`npm run docs:config`), fails here.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configReference, renderReference } from '../../src/config/reference.js';
import { duration, wholeNumber } from '../../src/config/bounds.js';
import { referenceBlock, tableCells, withReference } from './config-table.js';
import { ROOT } from './pages.js';

const page = readFileSync(`${ROOT}docs/CONFIGURATION.md`, 'utf8');

describe('the configuration reference', () => {
  it('is what the schema says, key by key (npm run docs:config rewrites it)', () => {
    const block = referenceBlock(page);
    expect(block, 'docs/CONFIGURATION.md has no generated reference').not.toBeNull();
    expect(tableCells(block!)).toEqual(tableCells(renderReference(configReference())));
  });

  it('names the keys the hand-written table left out', () => {
    const keys = configReference().map((r) => r.key);
    for (const key of ['history.path', 'history.hotDays', 'alerts.groupWait', 'pullZones', 'shieldZones'])
      expect(keys).toContain(key);
  });

  it('refuses a key without a description', () => {
    const schema = z.strictObject({
      a: z.strictObject({ b: wholeNumber({ min: 1, max: 9, example: 2 }).default(2).describe('bee') }),
      c: duration('5s', { min: '1s', max: '1m' }),
    });
    expect(() => configReference(schema)).toThrow('configuration key c has no description');
  });

  it('takes defaults and ranges from the schema', () => {
    const schema = z.strictObject({
      a: z.strictObject({
        b: wholeNumber({ min: 1, max: 90_000, example: 2 }).nullable().default(2).describe('bee'),
      }),
      c: duration('5s', { min: '1s', max: '1m' }).describe('see'),
      d: z.enum(['x', 'y']).default('y').describe('dee'),
    });
    expect(configReference(schema)).toEqual([
      { key: 'a.b', default: '`2`', accepted: 'whole number 1–90,000 or `null`', description: 'bee' },
      { key: 'c', default: '`"5s"`', accepted: '`1s`–`1m`', description: 'see' },
      { key: 'd', default: '`"y"`', accepted: '`x`, `y`', description: 'dee' },
    ]);
  });

  it('reads a table back whatever its alignment, a `\\|` inside a cell kept', () => {
    const md = `x\n${'<!-- config-reference: made from src/config/schema.ts by `npm run docs:config`; edit the schema, not this table -->'}\nold\n<!-- /config-reference -->\ny`;
    const next = withReference(md, '| a | b |\n| --- | --- |\n| `x \\| y` |   z   |\n');
    expect(tableCells(referenceBlock(next)!)).toEqual([
      ['a', 'b'],
      ['`x \\| y`', 'z'],
    ]);
    expect(next.endsWith('\n<!-- /config-reference -->\ny')).toBe(true);
  });
});
