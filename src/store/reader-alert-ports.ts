// The alert tables as the readers read them (ArchiveReader's alerts, silences, alertSeries): each read
// goes through whatever holds the tables, opened on the first read. One pattern for both dialects'
// readers (sqlite/reader.ts: the archive opened as the worker opens it; postgres/reader.ts: a pool).
import type { ArchiveReader } from './store.js';

export type ReaderAlertPorts = Pick<ArchiveReader, 'alerts' | 'silences' | 'alertSeries'>;

/** The ports, each read awaiting `open` (which opens once and hands the same holder after). */
export function lazyAlertPorts(open: () => Promise<ReaderAlertPorts>): ReaderAlertPorts {
  return {
    alerts: {
      listStates: async () => (await open()).alerts.listStates(),
      notifications: async (limit) => (await open()).alerts.notifications(limit),
    },
    silences: { list: async (filter) => (await open()).silences.list(filter) },
    alertSeries: { list: async () => (await open()).alertSeries.list() },
  };
}
