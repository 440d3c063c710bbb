// Who may use the console: off loopback only with a token, refused at start without one; with a token,
// every page and answer needs it (a bearer header, or the session cookie the login form sets), the
// login form refuses another site's post, and a wrong token is refused in the same words as none.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadReaderConfig } from '../../src/config/reader-config.js';
import { startConsole } from '../../src/console/console.js';
import type { ConsoleServer } from '../../src/console/server.js';
import { silentLogger } from '../../src/logger.js';
import { runCli, writeConfig } from '../support/cli.js';
import { harness, type Harness } from '../support/harness.js';

const TOKEN = 'a-token-long-enough-0123456789';

describe('edgelog serve: access', () => {
  let h: Harness;
  let configPath: string;
  let server: ConsoleServer;

  beforeAll(async () => {
    h = await harness();
    await h.engine(); // an empty archive, migrated
    configPath = writeConfig(
      h.dir,
      { database: { path: h.dbPath }, history: { path: join(h.dir, 'history') } },
      'reader.json',
    );
    // Every address: reached here through 127.0.0.1, but open to others, so the token is required.
    server = await startConsole(loadReaderConfig({ path: configPath }), {
      listen: { host: '0.0.0.0', port: 0 },
      token: TOKEN,
      logger: silentLogger(),
    });
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    await h?.close();
  });

  const url = (path: string) => new URL(path, server.url.replace('0.0.0.0', '127.0.0.1'));

  it('refuses to start off loopback without a token, or with a short one', async () => {
    const config = loadReaderConfig({ path: configPath });
    for (const host of ['0.0.0.0', '::', '192.168.1.10']) {
      await expect(
        startConsole(config, { listen: { host, port: 0 }, token: undefined, logger: silentLogger() }),
      ).rejects.toThrow(/refusing to listen on .* without a token: set EDGELOG_CONSOLE_TOKEN/);
    }
    await expect(
      startConsole(config, { listen: { host: '0.0.0.0', port: 0 }, token: 'short', logger: silentLogger() }),
    ).rejects.toThrow(/too short/);
  });

  it('refuses to start over an archive it cannot open, saying why', async () => {
    const missing = writeConfig(h.dir, { database: { path: join(h.dir, 'none.db') } }, 'missing.json');
    await expect(
      startConsole(loadReaderConfig({ path: missing }), {
        listen: { host: '127.0.0.1', port: 0 },
        token: undefined,
        logger: silentLogger(),
      }),
    ).rejects.toThrow(/cannot open the database .*none\.db: no such file/);
  });

  it('the CLI says so and exits 1', async () => {
    const r = await runCli(['--config', configPath, 'serve', '--listen', '0.0.0.0:0'], { cwd: h.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^edgelog: refusing to listen on 0\.0\.0\.0 without a token/);
  });

  it('answers nothing without the token', async () => {
    for (const headers of [
      {},
      { Authorization: `Bearer ${TOKEN}x` },
      { Authorization: 'Bearer ' },
      { Cookie: 'edgelog_session=forged' },
    ]) {
      const r = await fetch(url('/api/v1/schema'), { headers: headers as Record<string, string> });
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
      expect(await r.text()).not.toContain(TOKEN);
    }
    const page = await fetch(url('/explorer.html'), { redirect: 'manual' });
    expect([page.status, page.headers.get('location')]).toEqual([303, '/login.html']);
    expect((await fetch(url('/console.js'))).status).toBe(401);
    // The login page and its stylesheet are for everyone.
    expect((await fetch(url('/login.html'))).status).toBe(200);
  });

  it('answers with the token as a bearer', async () => {
    const r = await fetch(url('/api/v1/query?sql=SELECT%201%20AS%20one'), {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(r.status).toBe(200);
    expect(await r.json()).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('logs in with the form: an HttpOnly, SameSite=Strict cookie that opens the pages', async () => {
    const post = (token: string, headers: Record<string, string> = {}) =>
      fetch(url('/api/v1/session'), {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
        body: new URLSearchParams({ token }).toString(),
      });
    expect((await post('wrong')).status).toBe(401);
    expect((await post(TOKEN, { Origin: 'https://evil.example' })).status).toBe(403);
    const ok = await post(TOKEN, { Origin: url('/').origin });
    expect(ok.status).toBe(303);
    const cookie = ok.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^edgelog_session=[\w-]+; HttpOnly; SameSite=Strict; Path=\/$/);
    expect(cookie).not.toContain(TOKEN);
    const session = cookie.split(';')[0]!;
    expect((await fetch(url('/explorer.html'), { headers: { Cookie: session } })).status).toBe(200);
    expect((await fetch(url('/api/v1/schema'), { headers: { Cookie: session } })).status).toBe(200);
  });
});
