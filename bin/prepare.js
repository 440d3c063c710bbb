// npm's `prepare` (after `npm ci` or `npm install` in a clone, and before `npm pack`): builds dist/.
// Without the dev dependencies (`npm ci --omit=dev`) there is no compiler: a dist/ built before is kept;
// with none, it says how to get a runnable edgelog instead of failing on `tsc: not found`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The TypeScript compiler's script, or null without the dev dependencies. */
function compiler() {
  try {
    return createRequire(import.meta.url).resolve('typescript/bin/tsc');
  } catch {
    return null;
  }
}

const tsc = compiler();
if (tsc === null) {
  if (existsSync(`${root}/dist/cli.js`)) {
    process.stderr.write(
      'edgelog: no TypeScript compiler (dev dependencies omitted): keeping the dist/ built before\n',
    );
    process.exit(0);
  }
  process.stderr.write(
    [
      'edgelog: dist/ is not built, and building it needs the dev dependencies (TypeScript). Either:',
      '  npm ci && npm prune --omit=dev    build with them, then drop them',
      '  or install a package built elsewhere: npm pack, then npm install -g ./edgelog-<version>.tgz',
      '',
    ].join('\n'),
  );
  process.exit(1);
}
const build = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (build.status !== 0) process.exit(build.status ?? 1);
// The console's editor bundle (esbuild, a dev dependency like the compiler).
const bundle = spawnSync(process.execPath, [`${root}/bin/build-console.js`], { cwd: root, stdio: 'inherit' });
process.exit(bundle.status ?? 1);
