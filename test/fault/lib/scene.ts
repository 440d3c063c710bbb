// One scenario's world: the API simulator in this process (its oracle at hand), a private redis-server,
// a temp folder, the archive (a SQLite file there, or a PostgreSQL database of its own: scene-database.ts),
// and the built CLI in child processes as a user runs it. Every child's output is kept for the secrets
// scan; close() kills what still runs and removes everything.
import { chownSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ConfigInput } from '../../../src/config/index.js';
import { Simulator, type SimulatorOptions, type SimUrls } from '../../../src/simulator/index.js';
import { openReader, type ArchiveLocation, type ArchiveReader } from '../../support/archive-reader.js';
import { startCli, writeConfig, type CliResult, type StartedCli } from '../../support/cli.js';
import { simulatorNow, type ClockMode } from './clock.js';
import { RedisProcess } from './redis-process.js';
import { openSceneDatabase, type ArchiveCopy, type SceneDatabase, type StoreName } from './scene-database.js';
import { makeSecrets, SecretScan } from './secrets.js';
import { rngFor } from './seeded.js';
import { scanTables } from './table-scan.js';

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
  /**
   * The archive's store: a SQLite file, or a fresh PostgreSQL database through EDGELOG_TEST_DATABASE_URL
   * that the CLI children reach by EDGELOG_DATABASE_URL. @defaultValue 'sqlite'
   */
  store?: StoreName;
}

export interface CliRun extends StartedCli {
  startedAt: number;
}

const CONFIG_FILE = 'edgelog.config.json';

export class Scene {
  /** The SQLite archive's path (on PostgreSQL, where no file may appear). */
  readonly dbPath: string;
  /** Every finished child's output. */
  readonly outputs: CliResult[] = [];
  private readonly running = new Set<CliRun>();
  private readonly readers: ArchiveReader[] = [];
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
    private readonly database: SceneDatabase,
  ) {
    this.dbPath = archivePath(opts, dir);
  }

  /** Where the archive is: the SQLite file, or the PostgreSQL database. */
  get archive(): ArchiveLocation {
    return this.database.location;
  }

  get store(): StoreName {
    return this.database.location.store;
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
    let database: SceneDatabase | undefined;
    let redis: RedisProcess | undefined;
    try {
      const urls = await sim.listen();
      database = await openSceneDatabase(opts.store ?? 'sqlite', archivePath(opts, dir), secrets.dbPassword);
      redis = await RedisProcess.start(join(dir, 'redis'));
      const scene = new Scene(opts, now, dir, sim, urls, redis, secrets, database);
      mkdirSync(join(dir, 'archive'), { recursive: true });
      if (opts.user) {
        for (const d of [dir, join(dir, 'archive'), opts.archiveDir ?? dir]) {
          chownSync(d, opts.user.uid, opts.user.gid);
        }
      }
      return scene;
    } catch (err) {
      await redis?.stop();
      await database?.drop();
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
      // On PostgreSQL the history has no archive file to sit beside: where a SQLite scene's would be.
      history: {
        ...(this.archive.store === 'postgres' ? { path: join(dirname(this.dbPath), 'history') } : {}),
        ...extra.history,
      },
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

  /**
   * Starts `edgelog --config <scene config> …args`; the access key comes from the environment, and so does
   * a PostgreSQL archive's URL (with its password), as a user would keep them.
   */
  start(
    args: string[],
    opts: { accessKey?: string; fileSizeBlocks?: number; env?: NodeJS.ProcessEnv } = {},
  ): CliRun {
    const config = this.configPath ?? this.writeConfig();
    const started = startCli(['--config', config, ...args], {
      cwd: this.dir,
      env: {
        ...(this.archive.store === 'postgres' ? { EDGELOG_DATABASE_URL: this.archive.url } : {}),
        ...opts.env,
        EDGELOG_ACCESS_KEY: opts.accessKey ?? this.secrets.accessKey,
      },
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

  /** A connection to the archive, SQLite (read-only) or PostgreSQL (closed by closeReaders() or close()). */
  async reader(): Promise<ArchiveReader> {
    const reader = await openReader(this.archive);
    this.readers.push(reader);
    return reader;
  }

  /** A copy of the archive as it is now, to put back later (no CLI may be running; readers are closed). */
  async saveArchive(): Promise<ArchiveCopy> {
    await this.closeReaders();
    return this.database.saveCopy();
  }

  /** Closes the connections reader() opened. */
  async closeReaders(): Promise<void> {
    for (const reader of this.readers.splice(0)) await reader.close();
  }

  /**
   * Scans every output so far, the scene's files, everything in Redis and, on PostgreSQL, every table of
   * the archive for the secrets (and the database password).
   */
  async scanSecrets(extra: Array<{ name: string; value: string }> = []): Promise<SecretScan> {
    const { accessKey, hookSecret, slackToken } = this.secrets;
    const { password } = this.database;
    const scan = new SecretScan([
      { name: 'the access key', value: accessKey },
      { name: 'the webhook secret', value: hookSecret },
      { name: 'the Slack URL token', value: slackToken },
      ...(password !== undefined ? [{ name: 'the database password', value: password }] : []),
      ...extra,
    ]);
    this.outputs.forEach((o, i) => {
      scan.text(`the stdout of CLI run ${i + 1}`, o.stdout);
      scan.text(`the stderr of CLI run ${i + 1}`, o.stderr);
    });
    await this.redis.dump().catch(() => undefined); // a server killed for good has nothing more to say
    scan.files(this.dir, (name) => name === CONFIG_FILE);
    if (this.opts.archiveDir) scan.files(this.opts.archiveDir, () => false);
    if (this.archive.store === 'postgres') {
      const reader = await openReader(this.archive);
      try {
        await scanTables(scan, reader);
      } finally {
        await reader.close();
      }
    }
    return scan;
  }

  async close(): Promise<void> {
    for (const run of this.running) run.child.kill('SIGKILL');
    await Promise.all([...this.running].map((r) => r.done));
    await this.closeReaders();
    await this.sim.close();
    await this.redis.stop();
    // On PostgreSQL, nothing may have been written to the SQLite file: the archive went where it was told.
    const strayFile = this.archive.store === 'postgres' && existsSync(this.dbPath);
    rmSync(this.dir, { recursive: true, force: true });
    await this.database.drop();
    if (strayFile) throw new Error(`a PostgreSQL scene found a SQLite archive at ${this.dbPath}`);
  }
}

function archivePath(opts: SceneOptions, dir: string): string {
  return join(opts.archiveDir ?? join(dir, 'archive'), 'edgelog.db');
}
