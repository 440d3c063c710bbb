// The runs the README's sample outputs come from, as a newcomer makes them: the built CLI in a fresh
// directory, against the API simulator on loopback and a Redis. Each sample is one command's output or a
// transcript (`$ command`, then what it printed). Shared by the drift test and `npm run readme:samples`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import type { ConfigInput } from '../../src/config/index.js';
import { Simulator } from '../../src/simulator/index.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { runCli, writeConfig } from '../support/cli.js';

export interface SampleRun {
  /** Sample name → the text the README should show. */
  samples: Map<string, string>;
  close(): Promise<void>;
}

/**
 * The instant the samples are made at, whatever the day: the CLI's clock (fixed-clock.js) and the
 * simulator's start there, so the samples show the same days and, the simulator being seeded, the same
 * data. Only durations, ports and temporary paths differ from one run to the next.
 */
export const SAMPLE_CLOCK = Date.parse('2026-11-23T11:50:00.000Z');
const PRELOAD = fileURLToPath(new URL('./fixed-clock.js', import.meta.url));

/** The rules the README's Alerts section shows (its configuration example is these, as JSON). */
export const NEW_RULES_SAMPLE: NonNullable<NonNullable<ConfigInput['alerts']>['rules']> = [
  {
    name: 'new-error-code',
    type: 'new-term',
    source: 'origin',
    field: 'error_code',
    window: '1h',
    lookback: '12h',
    min: 5,
  },
  {
    name: 'busy-error-codes',
    type: 'sql',
    sql:
      'SELECT pull_zone_id AS zone, error_code, count(*) AS value FROM origin_error_logs ' +
      'WHERE timestamp >= (SELECT max(timestamp) FROM origin_error_logs) - 7200000 ' +
      'GROUP BY pull_zone_id, error_code HAVING count(*) >= 20',
    timeout: '5s',
  },
];

/** When this process began running samples: the samples' clock starts at SAMPLE_CLOCK then. */
const SESSION_START = Date.now();

/** What a terminal shows of a command: its output, then what it wrote on stderr. */
async function shown(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const clock = {
    NODE_OPTIONS: `--import=${PRELOAD}`,
    EDGELOG_README_CLOCK: String(SAMPLE_CLOCK),
    EDGELOG_README_CLOCK_SINCE: String(SESSION_START),
  };
  const r = await runCli(args, { cwd, env: { ...env, ...clock } });
  // CSV ends its lines with CRLF; a terminal shows line breaks.
  return (r.stdout + r.stderr).replaceAll('\r\n', '\n');
}

/** Runs every sample's commands; `redisUrl` names a Redis of its own (the demo's prefix is fixed). */
export async function runSamples(redisUrl: string): Promise<SampleRun> {
  const dirs: string[] = [];
  const fresh = (name: string) => {
    const dir = mkdtempSync(join(tmpdir(), `edgelog-readme-${name}-`));
    dirs.push(dir);
    return dir;
  };
  const samples = new Map<string, string>();
  // The demo's Redis prefix is fixed ("edgelog-demo"): `redisUrl` must be a Redis of these runs alone.
  const env = { REDIS_URL: redisUrl };

  const demo = fresh('demo');
  // As a terminal shows it: warnings only beside its own output (off a terminal it logs at info).
  // As the README has a newcomer run it: `npx edgelog demo` (npm sets npm_command=exec).
  samples.set(
    'demo',
    await shown(['demo', '--log-level', 'warn', '--entries', '2000'], demo, { ...env, npm_command: 'exec' }),
  );
  samples.set('status', await shown(['status'], demo, env));

  // A session against `edgelog simulate`'s data with a config of one's own.
  const started = Date.now();
  const sim = new Simulator({
    now: () => SAMPLE_CLOCK + (Date.now() - started),
    entriesPerDay: 800,
    spikes: [
      {
        source: 'origin',
        zone: 101,
        from: SAMPLE_CLOCK - 40 * 60_000,
        to: SAMPLE_CLOCK,
        count: 600,
        statusCode: 503,
      },
    ],
  });
  const sims = [sim];
  const urls = await sim.listen();
  const dir = fresh('commands');
  writeConfig(dir, {
    api: { ...urls, accessKey: sim.accessKey },
    redis: { url: redisUrl, prefix: `readme-${randomUUID().slice(0, 8)}` },
    pullZones: [101, 102],
    shieldZones: [201],
    log: { level: 'warn' },
  });
  const today = dayOf(SAMPLE_CLOCK);
  const yesterday = addDays(today, -1);
  const transcript: string[] = [];
  for (const args of [
    ['migrate'],
    ['sync', '--from', yesterday],
    [
      'query',
      `SELECT rule_id, severity, count(*) AS events FROM shield_event_logs WHERE log_date = '${yesterday}' GROUP BY 1, 2 ORDER BY events DESC, rule_id LIMIT 5`,
    ],
    [
      'query',
      '--format',
      'csv',
      'SELECT time, status_code, error_code, request_url FROM origin_error_logs ORDER BY timestamp DESC LIMIT 2',
    ],
    ['query', 'DELETE FROM origin_error_logs'],
    ['report', 'origin', '--zone', '101', '--from', today],
  ]) {
    const line = args.map((a) => (/[\s*'(]/.test(a) ? `"${a}"` : a)).join(' ');
    transcript.push(`$ edgelog ${line}`, (await shown(args, dir, {})).trimEnd(), '');
  }
  samples.set('commands', transcript.join('\n'));

  // Alerts on the same archive: a rule, a webhook behind a token and a Slack hook with a template.
  writeConfig(dir, {
    api: { ...urls, accessKey: sim.accessKey },
    redis: { url: redisUrl, prefix: `readme-${randomUUID().slice(0, 8)}` },
    pullZones: [101, 102],
    shieldZones: [201],
    log: { level: 'warn' },
    alerts: {
      hooks: {
        ops: {
          type: 'webhook',
          url: 'http://127.0.0.1:9093/hooks/edgelog',
          bearerToken: 'sample-token-1234',
        },
        chat: {
          type: 'slack',
          url: 'https://hooks.slack.com/services/T0000/B0000/XXXXXXXX',
          template:
            '{{ firing }} firing:{% for a in alerts %} {{ a.rule }} zone {{ a.zone }} ({{ a.summary }}){% endfor %}',
        },
      },
      rules: [
        {
          name: 'origin-5xx-spike',
          type: 'spike',
          source: 'origin',
          filter: { statusCodeMin: 500 },
          window: '1h',
          factor: 3,
          min: 20,
          severity: 'page',
          hooks: ['ops', 'chat'],
        },
      ],
    },
  });
  const alerting: string[] = [];
  const step = async (args: string[]) => {
    const line = args.map((a) => (/[\s*'(]/.test(a) ? `"${a}"` : a)).join(' ');
    const out = (await shown(args, dir, {})).trimEnd();
    alerting.push(`$ edgelog ${line}`, out, '');
    return out;
  };
  await step(['alerts', 'test', 'ops', '--dry-run']);
  await step(['alerts', 'check', '--dry-run']);
  const silenced = await step([
    'alerts',
    'silence',
    'origin-5xx-spike',
    '--zone',
    '101',
    '--for',
    '2h',
    '--comment',
    'deploy in progress',
  ]);
  await step(['alerts', 'silences']);
  await step(['alerts', 'check', '--dry-run']);
  const id = /^silence ([0-9a-f]+):/.exec(silenced)?.[1] ?? 'none';
  await step(['alerts', 'unsilence', id]);
  samples.set('alerts', alerting.join('\n'));
  samples.set('missing', await shown(['status', '--missing'], dir, {}));

  // New-term and sql rules (README, Alerts): zone 101 meets an error code it never had before.
  const sim2 = new Simulator({
    now: () => SAMPLE_CLOCK + (Date.now() - started),
    entriesPerDay: 800,
    spikes: [
      {
        source: 'origin',
        zone: 101,
        from: SAMPLE_CLOCK - 110 * 60_000,
        to: SAMPLE_CLOCK - 60 * 60_000,
        count: 40,
        statusCode: 502,
        errorCode: 'http_tls_handshake',
      },
    ],
  });
  sims.push(sim2);
  const urls2 = await sim2.listen();
  const alertsDir = fresh('alerts');
  writeConfig(alertsDir, {
    api: { ...urls2, accessKey: sim2.accessKey },
    redis: { url: redisUrl, prefix: `readme-${randomUUID().slice(0, 8)}` },
    pullZones: [101, 102],
    log: { level: 'warn' },
    alerts: { rules: NEW_RULES_SAMPLE },
  });
  const alertsRun: string[] = [];
  for (const args of [
    ['sync', '--from', yesterday],
    ['alerts', 'check'],
    ['alerts', 'list'],
  ]) {
    alertsRun.push(`$ edgelog ${args.join(' ')}`, (await shown(args, alertsDir, {})).trimEnd(), '');
  }
  samples.set('alerts-new-rules', alertsRun.join('\n'));

  return {
    samples,
    async close() {
      for (const s of sims) await s.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
