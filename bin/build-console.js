// Bundles the SQL page's editor (CodeMirror 6, assets/console/sql-editor.entry.js) into one minified ES
// module, dist/assets/console/sql-editor.js, which the console serves from the package (no CDN). Run by
// `npm run build` and `prepare`; esbuild is a dev dependency, so a production install keeps the bundle
// its package was built with.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await build({
  absWorkingDir: root,
  entryPoints: ['assets/console/sql-editor.entry.js'],
  outfile: 'dist/assets/console/sql-editor.js',
  bundle: true,
  format: 'esm',
  minify: true,
  // The browsers that have constructable stylesheets, which CodeMirror's styles need under the console's
  // CSP (docs/CONSOLE.md).
  target: ['chrome100', 'firefox101', 'safari16.4'],
  legalComments: 'none',
  logLevel: 'warning',
});
