// Parses the command line's fault syntax `kind[:key=value,...]`, e.g. `429:rate=0.1,retryAfter=1`,
// `loop:afterPage=3`, `503:times=2,operation=shieldEventLogs`, `slow-body:chunks=5,delayMs=100`. Pure; bad specs throw UsageError with
// the reason.
import type { OperationName } from '../api/paths.js';
import { UsageError } from '../errors/index.js';
import { checkFault, FAULT_KINDS, type FaultKind, type FaultSpec } from './options.js';

export const OPERATIONS: readonly OperationName[] = [
  'videoPlayData',
  'originErrorLogs',
  'edgeScript',
  'apiGuardianMetrics',
  'ddosEnums',
  'shieldEventLogs',
  'rateLimit',
];

/** Keys each kind accepts besides operation, times and rate. */
const KIND_KEYS: Record<string, readonly string[]> = {
  '429': ['retryAfter'],
  slow: ['delayMs'],
  loop: ['afterPage'],
  'empty-more': ['afterPage'],
  'slow-body': ['chunks', 'delayMs'],
};

const SYNTAX = 'expected kind[:key=value,...], e.g. 429:rate=0.1,retryAfter=1 or 503:times=2';

function integer(spec: string, key: string, value: string): number {
  if (!/^\d+$/.test(value))
    throw new UsageError(`fault "${spec}": ${key} must be a whole number, got "${value}"`);
  return Number(value);
}

export function parseFaultSpec(spec: string): FaultSpec {
  const colon = spec.indexOf(':');
  const kind = (colon < 0 ? spec : spec.slice(0, colon)).trim();
  if (!(FAULT_KINDS as readonly string[]).includes(kind)) {
    throw new UsageError(
      `fault "${spec}": unknown kind "${kind}" (one of ${FAULT_KINDS.join(', ')}); ${SYNTAX}`,
    );
  }
  const fault: FaultSpec = { kind: kind as FaultKind };
  if (colon < 0) return fault;
  const allowed = ['operation', 'times', 'rate', ...(KIND_KEYS[kind] ?? [])];
  // Split on commas that start a new key=value, so an HTTP date in retryAfter may hold a comma.
  for (const pair of spec.slice(colon + 1).split(/,(?=\s*[A-Za-z]+=)/)) {
    const eq = pair.indexOf('=');
    const key = pair.slice(0, eq).trim();
    const value = pair.slice(eq + 1).trim();
    if (eq < 0 || key === '') throw new UsageError(`fault "${spec}": "${pair}" is not key=value; ${SYNTAX}`);
    if (!allowed.includes(key)) {
      throw new UsageError(`fault "${spec}": ${kind} takes no "${key}" (it takes ${allowed.join(', ')})`);
    }
    if (key in fault) throw new UsageError(`fault "${spec}": ${key} is given twice`);
    switch (key) {
      case 'operation':
        if (!(OPERATIONS as readonly string[]).includes(value)) {
          throw new UsageError(
            `fault "${spec}": unknown operation "${value}" (one of ${OPERATIONS.join(', ')})`,
          );
        }
        fault.operation = value as OperationName;
        break;
      case 'times':
        fault.times = integer(spec, key, value);
        break;
      case 'rate':
        if (!/^(0|1|0?\.\d+|1\.0*)$/.test(value)) {
          throw new UsageError(`fault "${spec}": rate must be a number from 0 to 1, got "${value}"`);
        }
        fault.rate = Number(value);
        break;
      case 'retryAfter':
        if (value === '') throw new UsageError(`fault "${spec}": retryAfter is empty`);
        fault.retryAfter = value;
        break;
      case 'delayMs':
        fault.delayMs = integer(spec, key, value);
        break;
      case 'chunks':
        fault.chunks = integer(spec, key, value);
        if (fault.chunks < 1) throw new UsageError(`fault "${spec}": chunks must be at least 1`);
        break;
      case 'afterPage':
        fault.afterPage = integer(spec, key, value);
        if (fault.afterPage < 1) throw new UsageError(`fault "${spec}": afterPage counts from 1`);
        break;
    }
  }
  try {
    return checkFault(fault, `fault "${spec}"`);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}
