// Pure: a short, printable description of a body that is not the JSON expected (an HTML error page from
// a proxy, a gzip body, binary), so a message says what was received instead of printing raw bytes.

const SHOWN = 60;

export interface BodyHeaders {
  contentType?: string | undefined;
  contentEncoding?: string | undefined;
}

/** `"<html>…"` with control and non-ASCII characters escaped, at most SHOWN characters of it. */
export function escapeStart(text: string): string {
  return `"${printable(text.slice(0, SHOWN), true)}${text.length > SHOWN ? '…' : ''}"`;
}

/** Text with control and non-ASCII characters escaped (a parser's message may quote raw bytes). */
export function printable(text: string, quoted = false): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0)!;
    if (quoted && (ch === '"' || ch === '\\')) out += `\\${ch}`;
    else if (c >= 0x20 && c < 0x7f) out += ch;
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c === 0x09) out += '\\t';
    else out += c <= 0xff ? `\\x${c.toString(16).padStart(2, '0')}` : `\\u{${c.toString(16)}}`;
  }
  return out;
}

function kindOf(start: Uint8Array | string, headers: BodyHeaders): string | undefined {
  const b0 = typeof start === 'string' ? start.charCodeAt(0) : start[0];
  const b1 = typeof start === 'string' ? start.charCodeAt(1) : start[1];
  if ((b0 === 0x1f && b1 === 0x8b) || /gzip/i.test(headers.contentEncoding ?? '')) return 'gzip-compressed';
  const text = typeof start === 'string' ? start : Buffer.from(start).toString('latin1');
  if (/^\s*<(!doctype|html|\?xml|head|body)/i.test(text) || /html/i.test(headers.contentType ?? ''))
    return 'HTML';
  return undefined;
}

/**
 * Describes a body: its kind when recognisable, its size when known, its content type and encoding, and
 * its first characters escaped. `start` is the body's beginning (text or bytes); `size` its full length.
 */
export function describeBody(start: Uint8Array | string, headers: BodyHeaders = {}, size?: number): string {
  const kind = kindOf(start, headers);
  const length = size ?? start.length;
  const unit = typeof start === 'string' && size === undefined ? 'characters' : 'bytes';
  const parts = [`${kind ? `${kind}, ` : ''}${length.toLocaleString('en-US')} ${unit}`];
  if (headers.contentType) parts.push(`content-type ${headers.contentType}`);
  if (headers.contentEncoding) parts.push(`content-encoding ${headers.contentEncoding}`);
  const text = typeof start === 'string' ? start : Buffer.from(start.subarray(0, SHOWN)).toString('latin1');
  parts.push(length === 0 ? 'empty' : `starting ${escapeStart(text)}`);
  return parts.join(', ');
}
