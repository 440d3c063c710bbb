// The readers' PostgreSQL archive (open-reader.ts): connections of their own, each part made on first
// use; no migration, no partition.
import type { ArchiveReader, OpenReaderOptions } from '../store.js';
import type { AlertsStore, QueryStore, StatusReads } from '../store.js';
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
  let alerts: Pick<AlertsStore, 'listStates' | 'notifications'> | undefined;
  const { roleWarning } = opts;
  return {
    dialect: 'postgres',
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
    get alerts() {
      if (!alerts) {
        const reads = postgresAlertReads(options);
        closing.push(() => reads.close());
        alerts = reads.alerts;
      }
      return alerts;
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
