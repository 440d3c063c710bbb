// Pure: the configuration `edgelog init` writes: the zones asked for and the keys a newcomer turns first,
// each section with a comment under the key "//" (the loader drops those keys, file.ts), never the access
// key (it comes from EDGELOG_ACCESS_KEY). Defaults are written out so that the file shows what they are.

export interface ExampleConfigOptions {
  pullZones: readonly number[];
  shieldZones: readonly number[];
  /**
   * The API simulator's address (`edgelog simulate --port N`), e.g. "http://127.0.0.1:8080": its three
   * hosts are path prefixes of one server. @defaultValue none: the platform's own hosts
   */
  simulator?: string;
}

/** The simulator's hosts under its address (src/simulator/routes.ts, PREFIXES). */
export function simulatorUrls(address: string): { baseUrl: string; originLogUrl: string; videoUrl: string } {
  const root = address.replace(/\/+$/, '');
  return { baseUrl: `${root}/api`, originLogUrl: `${root}/origin`, videoUrl: `${root}/video` };
}

export function exampleConfig(opts: ExampleConfigOptions): Record<string, unknown> {
  return {
    '//': [
      'edgelog configuration, written by `edgelog init`. Keys named "//" are comments.',
      'Every key, its default and range: docs/CONFIGURATION.md.',
      'The API access key is read from the EDGELOG_ACCESS_KEY environment variable: keep it out of this file.',
    ],
    pullZones: [...opts.pullZones],
    shieldZones: [...opts.shieldZones],
    api: opts.simulator
      ? {
          '//': 'the API simulator (edgelog simulate); its access key is sim-access-key',
          ...simulatorUrls(opts.simulator),
        }
      : {
          '//': "the platform's hosts are the defaults; add baseUrl / originLogUrl / videoUrl to change them",
        },
    database: {
      '//': 'the SQLite archive, relative to this file; for PostgreSQL set url (docs/POSTGRES.md)',
      path: 'data/edgelog.db',
      retentionDays: null,
    },
    history: {
      '//': 'days that are done, as Parquet files; their rows stay in the archive for hotDays days (null: all)',
      path: 'data/history',
      hotDays: 7,
    },
    schedule: {
      '//': 'today is fetched again every refreshEvery; each pass also looks back this many days',
      refreshEvery: '1h',
      finalizeDelay: '1h',
      originLookbackDays: 2,
      shieldLookbackDays: 2,
    },
    redis: {
      '//': 'REDIS_URL or url names a Redis; with neither, 127.0.0.1:6379, else a private redis-server under data/',
      embedded: true,
    },
    alerts: {
      '//': 'hooks (webhook, Slack) and rules (spike, flatline, guardian, new-term, sql): docs/ALERTS.md',
      hooks: {},
      rules: [],
    },
    metrics: {
      '//': 'where `edgelog run` serves /metrics, /healthz and /readyz; null: nowhere',
      listen: '127.0.0.1:9469',
    },
    log: { level: 'info' },
  };
}

/** The value without its comment keys ("//"), at any depth: what the schema validates. */
export function withoutComments(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutComments);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== '//')
      .map(([key, v]) => [key, withoutComments(v)]),
  );
}
