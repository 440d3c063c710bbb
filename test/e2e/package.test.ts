// A production install as the README gives it (Installing for production): the package `npm pack`
// makes holds the built CLI, installs with its runtime dependencies only, and runs: `--help`, then a
// short `sync` against the simulator from a directory that is not the repository. And a clone whose dev
// dependencies were omitted gets the steps that work instead of `tsc: not found`.
import { execFile, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncSummary } from '../../src/sync/sync-summary.js';
import { openDatabase } from '../../src/store/sqlite/database.js';
import { addDays, dayOf } from '../../src/time/utc-day.js';
import { childEnv, writeConfig } from '../support/cli.js';
import { harness, redisUrl, type Harness } from '../support/harness.js';

const run = promisify(execFile);
const REPO = new URL('../..', import.meta.url).pathname;

/** Runs `cmd` and hands back its exit code and output, whether it fails or not. */
async function attempt(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  try {
    const { stdout, stderr } = await run(cmd, args, { ...opts, timeout: 120_000 });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

describe('a clone installed without its dev dependencies (npm ci --omit=dev)', () => {
  let clone: string;
  beforeAll(() => {
    // What `prepare` finds there: package.json and bin/, no TypeScript in any node_modules.
    clone = mkdtempSync(join(tmpdir(), 'edgelog-clone-'));
    mkdirSync(join(clone, 'bin'));
    for (const f of ['package.json', 'bin/edgelog.js', 'bin/prepare.js'])
      copyFileSync(join(REPO, f), join(clone, f));
  });
  afterAll(() => rmSync(clone, { recursive: true, force: true }));

  it('prepare gives the steps that work when dist/ is not built, and keeps a dist/ built before', async () => {
    const env = childEnv({ PATH: `/usr/bin:/bin` });
    const bare = await attempt('npm', ['run', 'prepare'], { cwd: clone, env });
    expect(bare.stderr).toContain('dist/ is not built, and building it needs the dev dependencies');
    expect(bare.stderr).toContain('npm ci && npm prune --omit=dev');
    expect(bare.code).toBe(1);

    mkdirSync(join(clone, 'dist'));
    writeFileSync(join(clone, 'dist', 'cli.js'), '');
    const built = await attempt('npm', ['run', 'prepare'], { cwd: clone, env });
    expect(built.stderr).toContain('keeping the dist/ built before');
    expect(built.code).toBe(0);
  });
});

describe('the package (npm pack, npm install -g of the tarball)', () => {
  let dir: string;
  let tarball: string;
  let edgelog: string;
  let h: Harness;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'edgelog-package-'));
    // The test setup built dist/; --ignore-scripts packs that build instead of rebuilding it under the
    // other tests' feet (`prepare` would).
    const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: REPO,
    });
    tarball = join(dir, (JSON.parse(packed.stdout) as Array<{ filename: string }>)[0]!.filename);
    // better-sqlite3's install looks for a prebuilt addon before compiling one (minutes on two busy
    // cores); there is no download here, so it is handed the addon this checkout compiled, for this very
    // Node (its ABI is in the name), as a local prebuild. The install is otherwise npm's own.
    const prebuilds = join(dir, 'prebuilds');
    mkdirSync(prebuilds);
    const addon = join(REPO, 'node_modules', 'better-sqlite3');
    const { version } = JSON.parse(readFileSync(join(addon, 'package.json'), 'utf8')) as { version: string };
    const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
    await run('tar', ['czf', join(prebuilds, name), '-C', addon, 'build/Release/better_sqlite3.node']);
    // From the npm cache where it can.
    await run(
      'npm',
      [
        'install',
        '-g',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        '--prefix',
        join(dir, 'prefix'),
        tarball,
      ],
      { cwd: dir, env: childEnv({ npm_config_better_sqlite3_local_prebuilds: prebuilds }), timeout: 900_000 },
    );
    edgelog = join(dir, 'prefix', 'bin', 'edgelog');
    h = await harness({ entriesPerDay: 300, pageSize: 100, now: Date.now });
  }, 960_000);
  afterAll(async () => {
    await h?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('holds the built CLI, its migrations and the deployment files, and no sources or tests', async () => {
    const { stdout } = await run('tar', ['tzf', tarball]);
    const files = stdout.split('\n').filter(Boolean);
    for (const f of [
      'package/bin/edgelog.js',
      'package/dist/cli.js',
      'package/dist/ingest/page-thread.js',
      'package/migrations/sqlite/0001_archive.sql',
      'package/migrations/postgres/0001_archive.sql',
      'package/ecosystem.config.cjs',
      'package/deploy/edgelog.service',
      'package/README.md',
      // The console's pages and the editor the build bundled (served from the package, no CDN).
      'package/assets/console/sql.html',
      'package/assets/console/console.js',
      'package/assets/console/chart-data.js',
      'package/dist/assets/console/sql-editor.js',
    ])
      expect(files, f).toContain(f);
    expect(
      files.filter(
        (f) => /^package\/(src|test|bench|\.ci)\//.test(f) || f.endsWith('.map') || f.endsWith('.entry.js'),
      ),
    ).toEqual([]);
  });

  it('installs without the dev dependencies, and edgelog --help runs', async () => {
    const installed = join(dir, 'prefix', 'lib', 'node_modules', 'edgelog');
    expect(existsSync(join(installed, 'node_modules', 'better-sqlite3'))).toBe(true);
    for (const dev of ['typescript', 'vitest', 'tsx'])
      expect(existsSync(join(installed, 'node_modules', dev)), dev).toBe(false);
    const { stdout } = await run(edgelog, ['--help'], { cwd: dir, env: childEnv() });
    expect(stdout).toMatch(/^Usage: edgelog /);
  });

  it('syncs a day from the simulator into a new archive', async () => {
    const config = writeConfig(dir, {
      api: { ...h.urls, accessKey: h.sim.accessKey },
      redis: { url: redisUrl(), prefix: h.prefix },
      database: { path: 'archive/edgelog.db' },
      pullZones: [101],
      shieldZones: [201],
      log: { level: 'warn' },
    });
    const yesterday = addDays(dayOf(Date.now()), -1);
    const { stdout } = await run(
      edgelog,
      ['--config', config, 'sync', '--date', yesterday, '--json', '--no-progress'],
      { cwd: dir, env: childEnv(), timeout: 120_000 },
    );
    const summary = JSON.parse(stdout) as SyncSummary;
    expect(summary.ok).toBe(true);
    expect(summary.results.map((r) => `${r.source} ${r.day}`).sort()).toEqual([
      `origin ${yesterday}`,
      `shield ${yesterday}`,
    ]);
    expect(summary.newEntries).toBeGreaterThan(0);
    const db = openDatabase(join(dir, 'archive', 'edgelog.db'), { readonly: true });
    try {
      const rows = db
        .prepare('SELECT (SELECT count(*) FROM origin_error_logs) + (SELECT count(*) FROM shield_event_logs)')
        .pluck()
        .get();
      expect(rows).toBe(summary.newEntries);
    } finally {
      db.close();
    }
  });

  it('serves the console from the installed package: its pages and the bundled editor', async () => {
    const config = writeConfig(dir, { database: { path: 'archive/edgelog.db' } }, 'reader.json');
    const serve = spawn(edgelog, ['--config', config, 'serve', '--listen', '127.0.0.1:0'], {
      cwd: dir,
      env: childEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const url = await new Promise<string>((resolve, reject) => {
        serve.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /the console is at (http:\/\/\S+)/.exec(out);
          if (m) resolve(m[1]!);
        });
        serve.stderr.on('data', (d: Buffer) => (out += d.toString()));
        serve.once('exit', (code) => reject(new Error(`serve exited ${code}: ${out}`)));
      });
      const installed = join(dir, 'prefix', 'lib', 'node_modules', 'edgelog');
      for (const [path, file] of [
        ['/sql.html', 'assets/console/sql.html'],
        ['/chart-data.js', 'assets/console/chart-data.js'],
        ['/sql-editor.js', 'dist/assets/console/sql-editor.js'],
      ] as const) {
        const res = await fetch(new URL(path, url));
        expect(res.status, path).toBe(200);
        expect(await res.text(), path).toBe(readFileSync(join(installed, file), 'utf8'));
      }
      expect(readFileSync(join(installed, 'dist/assets/console/sql-editor.js'), 'utf8')).toBe(
        readFileSync(join(REPO, 'dist/assets/console/sql-editor.js'), 'utf8'),
      );
    } finally {
      serve.kill('SIGTERM');
      await new Promise((resolve) => (serve.exitCode === null ? serve.once('exit', resolve) : resolve(null)));
    }
  });
});
