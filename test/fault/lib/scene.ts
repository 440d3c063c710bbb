// One scenario's world: the API simulator in this process (its oracle at hand), a private redis-server,
// a temp folder with the archive, and the built CLI in child processes as a user runs it. Every child's
// output is kept for the secrets scan; close() kills what still runs and removes everything.
import { chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ConfigInput } from '../../../src/config/index.js';
import { Simulator, type SimulatorOptions, type SimUrls } from '../../../src/simulator/index.js';
import { openDatabase, type Db } from '../../../src/store/sqlite/database.js';
import { startCli, writeConfig, type CliResult, type StartedCli } from '../../support/cli.js';
import { simulatorNow, type ClockMode } from './clock.js';
import { RedisProcess } from './redis-process.js';
import { makeSecrets, SecretScan } from './secrets.js';
import { rngFor } from './seeded.js';

export interface SceneOptions {
  /** Names the temp folder and the secrets' generator. */
  name: string;
  seed: number;
  clock: ClockMode;
  /** The simulator's knobs; its seed, clock and access key come from the scene. */
  sim?: Omit<SimulatorOptions, 'seed' | 'now' | 'accessKey'>;
  /** Where the archive lives (a small tmpfs, say). @defaultValue the scene's folder */
  archiveDir?: string;
  /** Run the CLI as this user (a root test run, so that file permissions bind it). */
  user?: { uid: number; gid: number };
}

export interface CliRun extends StartedCli {
  startedAt: number;
}

const CONFIG_FILE = 'edgelog.config.json';

export class Scene {
  readonly dbPath: string;
  /** Every finished child's output. */
  readonly outputs: CliResult[] = [];
  private readonly running = new Set<CliRun>();
  private readonly dbs: Db[] = [];
  private configPath: string | undefined;

  private constructor(
    readonly opts: SceneOptions,
    /** The simulator's clock. */
    readonly now: () => number,
    readonly dir: string,
    readonly sim: Simulator,
    readonly urls: SimUrls,
    readonly redis: RedisProcess,
    /** The access key (the simulator's), the webhook secret and the Slack URL's token of this scene. */
    readonly secrets: ReturnType<typeof makeSecrets>,
  ) {
    this.dbPath = join(opts.archiveDir ?? join(dir, 'archive'), 'edgelog.db');
  }

  static async open(opts: SceneOptions): Promise<Scene> {
    const dir = mkdtempSync(join(tmpdir(), `edgelog-fault-${opts.name}-`));
    const secrets = makeSecrets(rngFor(opts.seed, opts.name, 'secrets'));
    const now = simulatorNow(opts.clock);
    const sim = new Simulator({
      ...opts.sim,
      seed: opts.seed,
      now,
      accessKey: secrets.accessKey,
    });
    try {
      const urls = await sim.listen();
      const redis = await RedisProcess.start(join(dir, 'redis'));
      const scene = new Scene(opts, now, dir, sim, urls, redis, secrets);
      mkdirSync(join(dir, 'archive'), { recursive: true });
      if (opts.user) {
        for (const d of [dir, join(dir, 'archive'), opts.archiveDir ?? dir]) {
          chownSync(d, opts.user.uid, opts.user.gid);
        }
      }
      return scene;
    } catch (err) {
      await sim.close();
      rmSync(dir, { recursive: true, force: true });
      throw err;
    }
  }

  /**
   * Writes the configuration every CLI run of the scene reads: the simulator, the private Redis, the
   * archive, four zones, two hooks holding secrets, quick retries, and metrics on a free port; `extra`
   * overrides by section.
   */
  writeConfig(extra: ConfigInput = {}): string {
    this.configPath = writeConfig(this.dir, {
      ...extra,
      api: { ...this.urls, retryBaseDelay: '10ms', retryMaxDelay: '200ms', ...extra.api },
      redis: { url: this.redis.url, prefix: 'fault', embedded: false, ...extra.redis },
      database: { path: this.dbPath, ...extra.database },
      pullZones: extra.pullZones ?? [101, 102],
      shieldZones: extra.shieldZones ?? [201, 202],
      alerts: { hooks: this.hooks('http://127.0.0.1:9'), ...extra.alerts },
      log: { level: 'info', ...extra.log },
      // A free port each: several `edgelog run` of one scene (or of parallel scenes) never collide.
      metrics: { listen: '127.0.0.1:0', ...extra.metrics },
    });
    return this.configPath;
  }

  /** A webhook signed with the hook secret and a Slack hook whose URL holds a token, both at `origin`. */
  hooks(origin: string): NonNullable<ConfigInput['alerts']>['hooks'] {
    const { hookSecret, slackToken } = this.secrets;
    return {
      ops: { type: 'webhook', url: `${origin}/hook`, secret: hookSecret },
      chat: { type: 'slack', url: `${origin}/services/T0/B0/${slackToken}` },
    };
  }

  /** Starts `edgelog --config <scene config> …args`; the access key comes from the environment. */
  start(
    args: string[],
    opts: { accessKey?: string; fileSizeBlocks?: number; env?: NodeJS.ProcessEnv } = {},
  ): CliRun {
    const config = this.configPath ?? this.writeConfig();
    const started = startCli(['--config', config, ...args], {
      cwd: this.dir,
      env: { ...opts.env, EDGELOG_ACCESS_KEY: opts.accessKey ?? this.secrets.accessKey },
      ...(this.opts.user ?? {}),
      ...(opts.fileSizeBlocks !== undefined ? { fileSizeBlocks: opts.fileSizeBlocks } : {}),
    });
    const run: CliRun = { ...started, startedAt: Date.now() };
    this.running.add(run);
    void started.done.then((result) => {
      this.running.delete(run);
      this.outputs.push(result);
    });
    return run;
  }

  /** Runs a command to its end. */
  run(args: string[], opts: { accessKey?: string; fileSizeBlocks?: number } = {}): Promise<CliResult> {
    return this.start(args, opts).done;
  }

  /** A read-only connection to the archive (closed by close()). */
  db(): Db {
    const db = openDatabase(this.dbPath, { readonly: true });
    this.dbs.push(db);
    return db;
  }

  /** Closes the connections db() opened. */
  closeDbs(): void {
    for (const db of this.dbs.splice(0)) db.close();
  }

  /** Scans every output so far, the scene's files and everything in Redis for the secrets. */
  async scanSecrets(extra: Array<{ name: string; value: string }> = []): Promise<SecretScan> {
    const { accessKey, hookSecret, slackToken } = this.secrets;
    const scan = new SecretScan([
      { name: 'the access key', value: accessKey },
      { name: 'the webhook secret', value: hookSecret },
      { name: 'the Slack URL token', value: slackToken },
      ...extra,
    ]);
    this.outputs.forEach((o, i) => {
      scan.text(`the stdout of CLI run ${i + 1}`, o.stdout);
      scan.text(`the stderr of CLI run ${i + 1}`, o.stderr);
    });
    await this.redis.dump().catch(() => undefined); // a server killed for good has nothing more to say
    scan.files(this.dir, (name) => name === CONFIG_FILE);
    if (this.opts.archiveDir) scan.files(this.opts.archiveDir, () => false);
    return scan;
  }

  async close(): Promise<void> {
    for (const run of this.running) run.child.kill('SIGKILL');
    await Promise.all([...this.running].map((r) => r.done));
    this.closeDbs();
    await this.sim.close();
    await this.redis.stop();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
