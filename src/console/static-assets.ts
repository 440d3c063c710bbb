// The console's pages, script and stylesheet: plain files shipped in the package (assets/console/, no
// build step), read once at start. Only the names listed here are served: a request's path never
// becomes a file path.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface Asset {
  type: string;
  body: Buffer;
  /** Served without the token (what the login page needs). */
  public: boolean;
}

/** From src/console/ and dist/console/ alike, two folders up. */
export const ASSETS_DIR = fileURLToPath(new URL('../../assets/console/', import.meta.url));

const HTML = 'text/html; charset=utf-8';

const FILES: ReadonlyArray<[path: string, file: string, type: string, isPublic: boolean]> = [
  ['/', 'index.html', HTML, false],
  ['/index.html', 'index.html', HTML, false],
  ['/explorer.html', 'explorer.html', HTML, false],
  ['/sql.html', 'sql.html', HTML, false],
  ['/alerts.html', 'alerts.html', HTML, false],
  ['/dashboard.html', 'dashboard.html', HTML, false],
  ['/login.html', 'login.html', HTML, true],
  ['/console.js', 'console.js', 'text/javascript; charset=utf-8', false],
  ['/console.css', 'console.css', 'text/css; charset=utf-8', true],
];

export function loadAssets(dir: string = ASSETS_DIR): ReadonlyMap<string, Asset> {
  return new Map(
    FILES.map(([path, file, type, isPublic]) => [
      path,
      { type, body: readFileSync(`${dir}${file}`), public: isPublic },
    ]),
  );
}
