// End-to-end and fault tests run the built CLI in dist/. A bare `npx vitest run` after editing src/ would
// test the old build: rebuild first when any source file is newer than the build.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUILT = join(ROOT, 'dist', 'cli.js');

/** The newest modification time of a .ts file under `dir`. */
function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile() && entry.name.endsWith('.ts')) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/** Why dist/ does not reflect src/, or undefined when it does. */
export function staleBuild(): string | undefined {
  if (!existsSync(BUILT)) return 'dist/cli.js does not exist';
  const built = statSync(BUILT).mtimeMs;
  const source = newestSource(join(ROOT, 'src'));
  return source > built ? 'src/ changed after the last build' : undefined;
}

const BUNDLE = join(ROOT, 'dist', 'assets', 'console', 'sql-editor.js');
const BUNDLE_ENTRY = join(ROOT, 'assets', 'console', 'sql-editor.entry.js');

/** The console's editor bundle (bin/build-console.js), when it is missing or older than its entry. */
function bundleIfStale(): void {
  if (existsSync(BUNDLE) && statSync(BUNDLE).mtimeMs >= statSync(BUNDLE_ENTRY).mtimeMs) return;
  process.stderr.write('test setup: bundling the console editor\n');
  const esbuild = spawnSync(process.execPath, [join(ROOT, 'bin/build-console.js')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (esbuild.status !== 0) throw new Error(`the console bundle failed (exit ${esbuild.status})`);
}

export default function setup(): void {
  bundleIfStale();
  const why = staleBuild();
  if (!why) return;
  process.stderr.write(`test setup: building dist/ (${why})\n`);
  const tsc = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
    {
      cwd: ROOT,
      stdio: 'inherit',
    },
  );
  if (tsc.status !== 0)
    throw new Error(`the build failed (tsc exit ${tsc.status}): the CLI tests would test stale code`);
}
