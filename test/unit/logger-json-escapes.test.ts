// JSON log lines carry archived text (a sql rule's labels in `alert firing` lines, an entry's URL in a
// warning): the C1 controls, the bidirectional controls and the line separators, which JSON.stringify
// leaves raw and `pm2 logs` would hand to a terminal, are written as \u escapes, as the commands' JSON
// output writes them (format/terminal-text.ts safeJson). The line still parses to the same value.
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

const HOSTILE = 'a\u0085b\u009b31mc\u202ed\u2066e\u2067f\u2068g\u2069h\u2028i\u2029j\u007fk\u061cl\u200em';
const RAW = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('JSON log lines', () => {
  it('escape C1, bidi and line-separator characters, and parse back to the same text', () => {
    const lines: string[] = [];
    const log = createLogger({ destination: { write: (s: string) => void lines.push(s) } });
    log.warn({ rule: 'r', series: `url=${HOSTILE}` }, `alert firing ${HOSTILE}`);
    log.child({ zone: HOSTILE }).info('child binding');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).not.toMatch(RAW);
    expect(lines[0]).toContain('\\u0085b\\u009b31mc\\u202ed\\u2066e');
    expect(JSON.parse(lines[0]!)).toMatchObject({ series: `url=${HOSTILE}`, msg: `alert firing ${HOSTILE}` });
    expect(JSON.parse(lines[1]!)).toMatchObject({ zone: HOSTILE });
  });
});
