import { describe, expect, it } from 'vitest';
import { describeBody } from '../../src/api/describe-body.js';

describe('describeBody', () => {
  it('names an HTML page and shows its start, escaped', () => {
    expect(describeBody('<!DOCTYPE html>\n<title>Down</title>', { contentType: 'text/html' })).toBe(
      'HTML, 35 characters, content-type text/html, starting "<!DOCTYPE html>\\n<title>Down</title>"',
    );
  });

  it('names a gzip body and never prints its bytes raw', () => {
    const bytes = new Uint8Array([0x1f, 0x8b, 0x08, 0x00, 0xff, 0x01]);
    const text = describeBody(bytes, { contentEncoding: 'gzip' }, 1234);
    expect(text).toBe(
      'gzip-compressed, 1,234 bytes, content-encoding gzip, starting "\\x1f\\x8b\\x08\\x00\\xff\\x01"',
    );
    expect(text).toMatch(/^[\x20-\x7e]*$/);
  });

  it('cuts a long start with an ellipsis, and says when a body is empty', () => {
    expect(describeBody('x'.repeat(100))).toBe(`100 characters, starting "${'x'.repeat(60)}…"`);
    expect(describeBody('')).toBe('0 characters, empty');
  });
});
