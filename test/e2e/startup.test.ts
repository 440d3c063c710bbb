// Start-up: the built CLI loads only what the command that runs needs. Every import the process makes is
// recorded by a module resolve hook (Node's module.register), so the test sees the real import graph.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { openArchive } from '../../src/store/sqlite/archive.js';
import { BIN } from '../support/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'edgelog-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const HOOKS = `
import { appendFileSync } from 'node:fs';
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + '\\n');
  return result;
}
`;
writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
writeFileSync(
  join(dir, 'register.mjs'),
  `import { register } from 'node:module';
register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)}, { data: { log: process.env.IMPORT_LOG } });`,
);

/** The packages (and dist/ modules) a run of the CLI imported. */
function imports(name: string, args: string[]): { packages: Set<string>; modules: string[] } {
  const log = join(dir, `${name}.log`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', join(dir, 'register.mjs'), BIN, ...args], {
    cwd: dir,
    env: { ...process.env, IMPORT_LOG: log, EDGELOG_DB: join(dir, 'small.db'), EDGELOG_CONFIG: '' },
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  const urls = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  const packages = new Set(urls.flatMap((u) => /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(u)?.[1] ?? []));
  const modules = urls.flatMap((u) => /\/dist\/(.+)$/.exec(u)?.[1] ?? []);
  return { packages, modules };
}

const HEAVY = ['bullmq', 'ioredis', 'undici', 'zod', 'better-sqlite3', 'pino'];

describe('start-up', () => {
  it('`edgelog --help` loads commander and the command table only', () => {
    const { packages, modules } = imports('help', ['--help']);
    expect([...packages]).toEqual(['commander']);
    expect(modules).toEqual(['cli.js']);
  });

  it('`edgelog query` loads neither the queue, Redis, HTTP nor the logger', async () => {
    await openArchive(join(dir, 'small.db')).close();
    const { packages, modules } = imports('query', ['query', 'select 1']);
    expect(packages).toContain('better-sqlite3');
    // zod neither: a reading command takes database.path without the configuration schema.
    for (const name of HEAVY.filter((p) => p !== 'better-sqlite3')) expect(packages).not.toContain(name);
    expect(modules).not.toContain('engine.js');
    expect(modules.filter((m) => m.startsWith('commands/')).sort()).toEqual([
      'commands/args.js',
      'commands/query.js',
      'commands/reader-context.js',
    ]);
  });

  // DuckDB costs ~250 ms to load: only the statements in the archive's dialect pay for it.
  it('`edgelog query --engine store` does not load DuckDB; the archive dialect does', async () => {
    await openArchive(join(dir, 'small.db')).close();
    const { packages } = imports('store', [
      'query',
      '--engine',
      'store',
      'select count(*) from origin_error_logs',
    ]);
    expect(packages).toContain('better-sqlite3');
    expect([...packages].filter((p) => p.startsWith('@duckdb/'))).toEqual([]);
    const archive = imports('archive', ['query', 'select count(*) from origin_error_logs']);
    expect(archive.packages).toContain('@duckdb/node-api');
  });
});
