// The alerts page's API over real loopback HTTP with the worker's configuration: the rules and their
// state, a silence's live preview, and silences made and expired in the archive's own store (what
// `edgelog alerts silence` writes, read back by `edgelog query`). Writes need the token (a bearer, or the
// login's cookie with this console's Origin and CSRF token): a cross-site POST is refused, and a console
// without a token only reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConsoleServer } from '../../src/console/server.js';
import { runCli } from '../support/cli.js';
import { NOW } from '../support/harness.js';
import { consoleArchive, serveConfigured, withFiringAlert, type ConsoleArchive } from './support.js';

const TOKEN = 'a-console-token-0123456789';

describe('edgelog serve: alerts and silences', () => {
  let a: ConsoleArchive;
  let configPath: string;
  let server: ConsoleServer;
  let open: ConsoleServer;

  beforeAll(async () => {
    a = await consoleArchive('SQLite');
    configPath = await withFiringAlert(a);
    server = await serveConfigured(configPath, TOKEN);
    open = await serveConfigured(configPath);
  }, 120_000);
  afterAll(async () => {
    await open?.close();
    await server?.close();
    await a?.h.close();
  });

  const url = (path: string, on = server) => new URL(path, on.url);
  const bearer = { Authorization: `Bearer ${TOKEN}` };
  const getJson = async (path: string) => {
    const r = await fetch(url(path), { headers: bearer });
    expect(r.status).toBe(200);
    return (await r.json()) as Record<string, unknown>;
  };
  const post = (path: string, body: unknown, headers: Record<string, string>, on = server) =>
    fetch(url(path, on), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
  const silencesInStore = async () => {
    const r = await runCli(
      [
        '--config',
        configPath,
        'query',
        '--json',
        'SELECT id, matchers, ends_at FROM alert_silences ORDER BY id',
      ],
      { cwd: a.h.dir },
    );
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout) as Array<{ id: string; matchers: string; ends_at: number }>;
  };
  /** Logs in as the page does: the session cookie, and the CSRF token the page reads. */
  const session = async () => {
    const login = await fetch(url('/api/v1/session'), {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: url('/').origin },
      body: new URLSearchParams({ token: TOKEN }).toString(),
    });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const s = await fetch(url('/api/v1/session'), { headers: { Cookie: cookie } });
    const { csrf } = (await s.json()) as { csrf: string };
    expect(csrf).toMatch(/^[\w-]{20,}$/);
    return { cookie, csrf };
  };

  it('shows the rules, their state per zone and the silences', async () => {
    const view = await getJson('/api/v1/alerts');
    expect(view.rules).toEqual([{ name: 'origin-5xx', type: 'spike', severity: null }]);
    expect(view.states).toEqual([
      expect.objectContaining({ rule: 'origin-5xx', source: 'origin', zone_id: 101, state: 'firing' }),
    ]);
    expect(view.silences).toEqual([]);
  });

  it('previews the alerts a silence would hold', async () => {
    const held = await getJson('/api/v1/silences/preview?rule=origin-5xx&zone=101&for=2h');
    expect(held.alerts).toMatchObject([{ rule: 'origin-5xx', state: 'firing', labels: { zone: '101' } }]);
    expect(held.alerts).toHaveLength(1);
    expect(held.silence).toMatchObject({
      matchers: 'alertname="origin-5xx", zone="101"',
      endsAt: NOW + 7_200_000,
    });
    expect((await getJson('/api/v1/silences/preview?rule=origin-5xx&zone=102')).alerts).toEqual([]);
    const bad = await fetch(url('/api/v1/silences/preview?rule=nope'), { headers: bearer });
    expect(bad.status).toBe(400);
  });

  it('refuses a cross-site or unauthenticated write, and a console without a token only reads', async () => {
    const { cookie, csrf } = await session();
    const body = { rule: 'origin-5xx', zones: [101] };
    const own = url('/').origin;
    for (const [headers, status] of [
      [{}, 401],
      [{ Origin: own, 'X-Edgelog-CSRF': csrf }, 401],
      [{ Cookie: cookie, Origin: 'https://evil.example', 'X-Edgelog-CSRF': csrf }, 403],
      [{ Cookie: cookie, 'X-Edgelog-CSRF': csrf }, 403],
      [{ Cookie: cookie, Origin: own }, 403],
      [{ Cookie: cookie, Origin: own, 'X-Edgelog-CSRF': `${csrf}x` }, 403],
    ] as Array<[Record<string, string>, number]>) {
      const r = await post('/api/v1/silences', body, headers);
      expect(r.status).toBe(status);
      expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
    }
    // A form post from another site (no preflight: text/plain) is refused too.
    const form = await fetch(url('/api/v1/silences'), {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain', Cookie: cookie, Origin: 'https://evil.example' },
      body: JSON.stringify(body),
    });
    expect(form.status).toBe(403);
    expect((await post('/api/v1/silences', body, {}, open)).status).toBe(403);
    expect(await silencesInStore()).toEqual([]);
  });

  it('makes a silence from the page and expires it, in the store `edgelog alerts silence` writes', async () => {
    const { cookie, csrf } = await session();
    const headers = { Cookie: cookie, Origin: url('/').origin, 'X-Edgelog-CSRF': csrf };
    const made = await post(
      '/api/v1/silences',
      { rule: 'origin-5xx', zones: [101], for: '2h', comment: '<b>deploy</b>' },
      headers,
    );
    expect(made.status).toBe(201);
    const silence = (await made.json()) as { id: string; matchers: string; state: string };
    expect(silence).toMatchObject({ matchers: 'alertname="origin-5xx", zone="101"', state: 'active' });
    expect(await silencesInStore()).toEqual([
      {
        id: silence.id,
        matchers:
          '[{"name":"alertname","op":"=","value":"origin-5xx"},{"name":"zone","op":"=","value":"101"}]',
        ends_at: NOW + 7_200_000,
      },
    ]);
    expect((await getJson('/api/v1/alerts')).silences).toEqual([
      expect.objectContaining({ id: silence.id, state: 'active', comment: '<b>deploy</b>' }),
    ]);
    // A script expires it with the token as a bearer.
    const expired = await post('/api/v1/silences/expire', { id: silence.id }, bearer);
    expect(expired.status).toBe(201);
    expect(await expired.json()).toEqual({ id: silence.id, result: 'expired' });
    expect((await silencesInStore())[0]!.ends_at).toBe(NOW);
    expect((await post('/api/v1/silences/expire', { id: '1' }, bearer)).status).toBe(404);
  });
});
