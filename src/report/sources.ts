// The scope (zone, window) every report query is bounded by.
import type { ReadScope } from '../store/store.js';
import type { ReportWindow } from './window.js';

export interface ReportScope {
  /** One zone, or null for every zone. */
  zone: number | null;
  window: ReportWindow;
}

/** The store's form of a scope (store.ts ReadScope). */
export function readScope(scope: ReportScope): ReadScope {
  return { zone: scope.zone, startMs: scope.window.startMs, endMs: scope.window.endMs };
}

export interface ReportParams {
  scope: ReportScope;
  /** Entries per "top" list (for the guardian report: snapshots listed per zone). */
  top: number;
}

export interface TopItem<K = string | null> {
  /** The value counted; null when the entries did not carry it. */
  key: K;
  count: number;
}
