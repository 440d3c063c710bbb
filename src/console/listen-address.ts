// Pure: where `edgelog serve` listens (`--listen host:port`), and whether that is this machine only.
import { isIP } from 'node:net';

export interface ListenAddress {
  host: string;
  port: number;
}

/** The console's address unless told otherwise: this machine only. */
export const DEFAULT_LISTEN: ListenAddress = { host: '127.0.0.1', port: 8470 };

/**
 * Reads `host:port`, `[v6]:port` or `:port` (the default host). Throws RangeError naming the form
 * expected. Port 0 lets the system choose (tests).
 */
export function parseListen(text: string): ListenAddress {
  const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]\s]*)):(\d{1,5})$/.exec(text.trim());
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535)
    throw new RangeError(`--listen: expected host:port, e.g. 127.0.0.1:8470 or [::1]:8470, not ${text}`);
  const host = m[1] ?? (m[2] === '' ? DEFAULT_LISTEN.host : m[2]!);
  return { host, port };
}

/**
 * Whether `host` names only this machine: 127.0.0.0/8, ::1, or `localhost`. Anything else (0.0.0.0, ::,
 * a name, a LAN address) may be reached by others.
 */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped !== null && mapped[1]!.startsWith('127.');
}

/**
 * Pure: whether a request's Host header names this machine (a loopback console answers only those, so
 * a web page whose name was pointed at 127.0.0.1 — DNS rebinding — cannot read it through a browser).
 */
export function isLoopbackHostHeader(header: string | undefined): boolean {
  if (header === undefined) return false;
  const m = /^(\[[0-9a-fA-F:.]+\]|[^:]+)(:\d{1,5})?$/.exec(header.trim());
  return m !== null && isLoopback(m[1]!);
}
