// The keyboard reaches every control (issue 31): on each page, once its data is drawn, Tab from the top
// of the page to its end must land on every interactive element that is shown (links, buttons, form
// fields, disclosure summaries, anything with a tabindex), and each must show that it has the focus
// (`:focus-visible`, an outline or a shadow, a box of some size). Run on a console with a token, logged in,
// so the alerts page's writing controls (the silence form, an Expire button) are there to reach.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { safeText } from '../../src/format/terminal-text.js';
import { HAS_CHROMIUM, watchedBrowser } from './browser-support.js';
import {
  consoleArchive,
  SHIELD_201_VIEW,
  serveConfigured,
  withFiringAlert,
  type ConsoleArchive,
} from './support.js';

const TOKEN = 'a-console-token-keyboard-0123';
/**
 * What counts as a control: the brief's list, the <summary> a <details> opens with, an editor
 * (contenteditable, as a code editor's text is), and the explorer's lines, which open on a click (a row
 * that did so without a tabindex would be the mouse's only).
 */
const NATIVE =
  'a, button, input, select, textarea, summary, [contenteditable]:not([contenteditable=false]), #lines tr.line';
/** A plain element with a tabindex counts too (but with -1 it is a target for the script's focus). */
const CONTROLS = `${NATIVE}, [tabindex]`;

interface Stop {
  /** The control's mark (`data-kb`), or null for an element that is not one of the controls. */
  kb: string | null;
  what: string;
  visible: boolean;
}

// The browser's side is plain JavaScript in strings: the project's types have no DOM (no `lib: dom`).

/**
 * Marks every control shown on the page (not hidden, not disabled; a plain element with tabindex=-1 is
 * a target for the script's focus, not a control) with `data-kb`, and returns each mark with a
 * description.
 */
async function markControls(page: Page): Promise<Array<{ kb: string; what: string }>> {
  const marked = await page.evaluate<Array<{ kb: string; what: string }>>(`(() => {
    const out = [];
    // The controls of the document and of every open shadow root in it (the SQL editor's).
    const all = (root) => [
      ...root.querySelectorAll(${JSON.stringify(CONTROLS)}),
      ...[...root.querySelectorAll('*')].filter((x) => x.shadowRoot).flatMap((x) => all(x.shadowRoot)),
    ];
    all(document).forEach((e, i) => {
      if (!e.checkVisibility() || e.disabled) return;
      if (e.getAttribute('tabindex') === '-1' && !e.matches(${JSON.stringify(NATIVE)})) return;
      if (e.tagName === 'INPUT' && e.type === 'hidden') return;
      e.dataset.kb = String(i);
      const name = e.getAttribute('name') ?? e.getAttribute('aria-label') ?? e.textContent ?? '';
      out.push({ kb: String(i), what: e.tagName.toLowerCase() + ' "' + name.trim().slice(0, 40) + '"' });
    });
    return out;
  })()`);
  // The names are archived text (terminal escapes among them) that a failure would print.
  return marked.map((c) => ({ ...c, what: safeText(c.what) }));
}

/** Where the focus is after one Tab (null: not on the page), and whether it shows. */
function focused(page: Page): Promise<Stop | null> {
  return page.evaluate<Stop | null>(`(async () => {
    let e = document.activeElement;
    if (e === null || e === document.body) return null;
    // Focus inside a shadow root (the SQL editor's) shows on the document as its host.
    while (e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
    const ringOf = (x) => {
      const s = getComputedStyle(x);
      return (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none';
    };
    const box = e.getBoundingClientRect();
    // CodeMirror draws its focus ring on the editor's frame, around the editable text, once it has seen
    // the focus (a moment after it moved): up to 500 ms for it.
    const frame = e.closest('.cm-editor');
    for (let i = 0; frame !== null && !ringOf(frame) && i < 50; i++) await new Promise((r) => setTimeout(r, 10));
    const ring = ringOf(e) || (frame !== null && ringOf(frame));
    return {
      kb: e.dataset?.kb ?? null,
      what: e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''),
      visible: e.matches(':focus-visible') && ring && box.width > 0 && box.height > 0,
    };
  })()`);
}

/**
 * Tabs from the top of the page until the focus leaves the page (back to its body or the browser's own
 * controls) or comes round to the first stop: the stops in order.
 */
async function tabThrough(page: Page, most: number): Promise<Stop[]> {
  await page.evaluate('document.activeElement?.blur()');
  const stops: Stop[] = [];
  for (let i = 0; i < most; i++) {
    await page.keyboard.press('Tab');
    const stop = await focused(page);
    if (stop === null) break;
    if (stops.length > 0 && stop.kb !== null && stop.kb === stops[0]!.kb) break;
    stops.push(stop);
  }
  return stops;
}

describe.skipIf(!HAS_CHROMIUM)('the keyboard reaches every control (Debian chromium)', () => {
  let a: ConsoleArchive;
  let server: ConsoleServer;
  let browser: Browser;
  let page: Page;
  let events: string[] = [];

  beforeAll(async () => {
    a = await consoleArchive('SQLite');
    server = await serveConfigured(await withFiringAlert(a), TOKEN);
    // A silence to expire: the alerts page draws an Expire button for it.
    const made = await fetch(new URL('/api/v1/silences', server.url), {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ rule: 'origin-5xx', zones: [101], for: '2h', comment: 'keyboard' }),
    });
    expect(made.status).toBe(201);
    ({ browser, page, events } = await watchedBrowser());
    page.setDefaultTimeout(10_000);
    await page.goto(new URL('/login.html', server.url).href);
    await page.locator('input[name=token]').fill(TOKEN);
    await page.locator('button[type=submit]').click();
    await page.waitForURL((u) => u.pathname === '/');
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await a?.h.close();
  });

  const view = new URLSearchParams(SHIELD_201_VIEW).toString();
  /** Each page, and what shows that its data is drawn (every control the data brings is then there). */
  const PAGES: Array<[string, string, string[]]> = [
    ['overview', '/', ['#calendar td a', '#lag td a']],
    [
      'explorer',
      `/explorer.html?${view}`,
      ['#lines tr.line', '#facets button', '#downloads a', '#more:not([hidden])'],
    ],
    [
      'SQL',
      `/sql.html?${new URLSearchParams({ sql: 'SELECT 1 AS one' }).toString()}`,
      ['#result td', '#downloads a', '#schema summary'],
    ],
    ['dashboard', `/dashboard.html?${view}`, ['#top table td']],
    ['alerts', '/alerts.html', ['#states td', '#silences button:text-is("Expire")', '#preview:not(:empty)']],
  ];

  it.each(PAGES)('%s: Tab reaches every control, each visibly focused', async (_name, path, drawn) => {
    await page.goto(new URL(path, server.url).href);
    for (const selector of drawn) await page.locator(selector).first().waitFor();
    const controls = await markControls(page);
    // The page has controls beyond the navigation's four links (its form, its data's).
    expect(controls.length).toBeGreaterThan(8);
    const stops = await tabThrough(page, controls.length + 20);
    const reached = new Set(stops.map((s) => s.kb));
    expect(controls.filter((c) => !reached.has(c.kb)).map((c) => c.what)).toEqual([]);
    // Judged per control: a date field takes four Tabs (month, day, year, then its picker button, whose
    // ring Chromium draws inside the field's own shadow tree, where no style of the page can be read).
    const shown = new Set(stops.filter((s) => s.visible).map((s) => s.kb));
    expect(controls.filter((c) => !shown.has(c.kb)).map((c) => c.what)).toEqual([]);
    // Nothing but the controls takes the focus (a stray tabindex on a plain element would show here).
    expect(stops.filter((s) => s.kb === null).map((s) => s.what)).toEqual([]);
    expect(events).toEqual([]);
  });
});
