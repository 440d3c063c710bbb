// The console's pages timed in a real browser (Debian's chromium through playwright-core, as the browser
// tests drive it): each load is a fresh navigation, timed by the page's own clock from the navigation's
// start to the frame painted after its data arrived (the API answers' Resource Timing entries, then two
// animation frames), so it holds what the HTTP client's figure leaves out: the HTML, the scripts, the
// JSON parsed and drawn. One warm-up load per page, then `loads`.
import { existsSync } from 'node:fs';
import { chromium, type Page } from 'playwright-core';
import type { LoadName } from './console-bars.js';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

/** A page of the console and the API paths whose answers it draws (the bar's requests). */
export interface BrowserPage {
  name: LoadName;
  /** Path and query of the page. */
  path: string;
  /** The API paths (no query) the load waits for, all of them. */
  api: readonly string[];
}

/**
 * In the page: waits until each of `paths` has answered (its Resource Timing entry ended), then for the
 * second animation frame after (the answer's handler draws in the task after it), and gives the page's
 * clock then. A string, not a function: the bench runs through tsx, whose transform would name the
 * function's inner functions with a helper the page does not have.
 */
const PAINTED_AFTER = `async (paths) => {
  const answered = () => paths.every((p) => performance.getEntriesByType('resource')
    .some((e) => new URL(e.name).pathname === p && e.responseEnd > 0));
  while (!answered()) await new Promise((r) => setTimeout(r, 2));
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now();
}`;

/** Milliseconds from the navigation's start to the frame painted after the last of `api` answered. */
async function timedNavigation(page: Page, url: string, api: readonly string[]): Promise<number> {
  await page.goto(url, { waitUntil: 'commit' });
  return Number(await page.evaluate(`(${PAINTED_AFTER})(${JSON.stringify(api)})`));
}

/** Each page's load times (ms), `loads` of each after one warm-up, the pages in turn. */
export async function browserLoads(
  base: string,
  pages: readonly BrowserPage[],
  loads: number,
): Promise<Record<string, number[]>> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage();
    const times: Record<string, number[]> = Object.fromEntries(pages.map((p) => [p.name, []]));
    for (let round = 0; round <= loads; round++)
      for (const p of pages) {
        const ms = await timedNavigation(page, new URL(p.path, base).href, p.api);
        if (round > 0) times[p.name]!.push(ms);
      }
    return times;
  } finally {
    await browser.close();
  }
}
