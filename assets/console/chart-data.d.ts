// The types of chart-data.js (a page module, plain JavaScript), for its tests.
export interface TimeSeries {
  /** The time column. */
  time: string;
  series: Array<{ name: string; points: Array<[number, number]> }>;
  from: number;
  to: number;
  min: number;
  max: number;
}

export function timeSeries(
  columns: readonly string[],
  rows: ReadonlyArray<Record<string, unknown>>,
): TimeSeries | null;
