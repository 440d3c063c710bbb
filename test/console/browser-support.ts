// Debian's chromium driven by playwright-core (no browser download), and a page that records what would
// betray archived markup taken for HTML: dialogs, page errors, console errors, a request for the `x` an
// injected <img src=x> would make; and anything the Content-Security-Policy blocked.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);

export interface WatchedBrowser {
  browser: Browser;
  page: Page;
  /** What happened that must not: empty while the hostile text stays inert. */
  events: string[];
}

export async function watchedBrowser(): Promise<WatchedBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  const page = await browser.newPage();
  const events: string[] = [];
  // A blocked style or script (the CSP) says so in the page, where the console event sees it.
  await page.addInitScript(
    "document.addEventListener('securitypolicyviolation', (e) => " +
      "console.error('csp: ' + e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline')));",
  );
  page.on('dialog', (d) => {
    events.push(`dialog: ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => events.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') events.push(`console: ${m.text()}`);
  });
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/x') events.push(`request: ${r.url()}`);
  });
  return { browser, page, events };
}
