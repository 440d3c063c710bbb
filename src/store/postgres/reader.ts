// The readers' PostgreSQL archive (open-reader.ts): connections of their own, each part made on first
// use; no migration, no partition.
import type { ArchiveReader, OpenReaderOptions } from '../store.js';
import type { QueryStore, StatusReads } from '../store.js';
import { lazyAlertPorts } from '../reader-alert-ports.js';
import { serverOptions } from './connection.js';
import { postgresStatusReads } from './health.js';
import { postgresAlertReads, postgresQueries, postgresReports } from './postgres-store.js';
import { readerRoleWarning } from './reader-role.js';

export function postgresReader(
  server: {
    url: string;
    ssl?: { rejectUnauthorized?: boolean | undefined; ca?: string | undefined } | undefined;
  },
  opts: OpenReaderOptions,
): ArchiveReader {
  const options = {
    ...serverOptions({ url: server.url, ssl: server.ssl }),
    applicationName: opts.applicationName,
  };
  const closing: Array<() => Promise<void>> = [];
  let queries: QueryStore | undefined;
  let status: StatusReads | undefined;
  let alertReads: ReturnType<typeof postgresAlertReads> | undefined;
  // One pool for the alert tables and the silences, made on first use.
  const reads = () => {
    if (!alertReads) {
      const made = postgresAlertReads(options);
      closing.push(() => made.close());
      alertReads = made;
    }
    return alertReads;
  };
  const { roleWarning } = opts;
  return {
    dialect: 'postgres',
    ...lazyAlertPorts(() => Promise.resolve(reads())),
    get queries() {
      return (queries ??= postgresQueries(
        options,
        roleWarning
          ? {
              onRole: (role) => {
                const warning = readerRoleWarning(role);
                if (warning) roleWarning(warning);
              },
            }
          : {},
      ));
    },
    get status() {
      return (status ??= postgresStatusReads(
        postgresQueries(serverOptions({ url: server.url, ssl: server.ssl })),
      ));
    },
    async report(out, read) {
      const server = postgresReports(options);
      try {
        return await read(server.reports, out);
      } finally {
        await server.close();
      }
    },
    async close() {
      await Promise.all(closing.map((close) => close()));
    },
  };
}
