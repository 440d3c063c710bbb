// The console's pages, script and stylesheet: plain files shipped in the package (assets/console/), and
// the SQL page's editor, bundled at build time (bin/build-console.js) into dist/assets/console/; all read
// once at start. Only the names listed here are served: a request's path never becomes a file path.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Asset {
  type: string;
  body: Buffer;
  /** Served without the token (what the login page needs). */
  public: boolean;
}

/** From src/console/ and dist/console/ alike, two folders up. */
export const ASSETS_DIR = fileURLToPath(new URL('../../assets/console/', import.meta.url));
/** Where the build writes the bundles (dist/ is beside src/, so the same from both). */
export const BUILT_ASSETS_DIR = fileURLToPath(new URL('../../dist/assets/console/', import.meta.url));

const HTML = 'text/html; charset=utf-8';
const JS = 'text/javascript; charset=utf-8';

interface AssetFile {
  path: string;
  file: string;
  type: string;
  isPublic: boolean;
  /** Built, not written: a console whose bundle was not built serves the page without it. */
  built?: true;
}

const FILES: readonly AssetFile[] = [
  { path: '/', file: 'index.html', type: HTML, isPublic: false },
  { path: '/index.html', file: 'index.html', type: HTML, isPublic: false },
  { path: '/explorer.html', file: 'explorer.html', type: HTML, isPublic: false },
  { path: '/sql.html', file: 'sql.html', type: HTML, isPublic: false },
  { path: '/alerts.html', file: 'alerts.html', type: HTML, isPublic: false },
  { path: '/dashboard.html', file: 'dashboard.html', type: HTML, isPublic: false },
  { path: '/login.html', file: 'login.html', type: HTML, isPublic: true },
  { path: '/console.js', file: 'console.js', type: JS, isPublic: false },
  { path: '/chart-data.js', file: 'chart-data.js', type: JS, isPublic: false },
  { path: '/console.css', file: 'console.css', type: 'text/css; charset=utf-8', isPublic: true },
  { path: '/sql-editor.js', file: 'sql-editor.js', type: JS, isPublic: false, built: true },
];

export interface AssetDirs {
  /** @defaultValue ASSETS_DIR */
  dir?: string;
  /** @defaultValue BUILT_ASSETS_DIR */
  builtDir?: string;
}

/**
 * The assets by path. A built file that is missing (a build by `tsc` alone) is left out and named in
 * `missing`, so the console still starts and its page falls back to the plain textarea.
 */
export function loadAssets({ dir = ASSETS_DIR, builtDir = BUILT_ASSETS_DIR }: AssetDirs = {}): {
  assets: ReadonlyMap<string, Asset>;
  missing: string[];
} {
  const assets = new Map<string, Asset>();
  const missing: string[] = [];
  for (const f of FILES) {
    const path = `${f.built ? builtDir : dir}${f.file}`;
    if (f.built && !existsSync(path)) {
      missing.push(path);
      continue;
    }
    assets.set(f.path, { type: f.type, body: readFileSync(path), public: f.isPublic });
  }
  return { assets, missing };
}
