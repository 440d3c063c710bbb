// Hooks behind authentication, against a receiver on loopback: credentials in the hook's URL, a bearer
// token or headers from the configuration or the environment reach the receiver; none of them is ever
// printed, even when the receiver quotes them back in an error.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deliver } from '../../src/alerts/deliver.js';
import type { Notice } from '../../src/alerts/payload.js';
import { loadConfig, type ConfigInput } from '../../src/config/index.js';
import { clearSecrets, redact } from '../../src/redact.js';
import { runCli, writeConfig } from '../support/cli.js';

interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

/** A receiver that records each request; `refuse` answers 401 quoting the request's headers back. */
async function receiver(refuse = false) {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      if (refuse) res.writeHead(401).end(`bad credentials: ${JSON.stringify(req.headers)}`);
      else res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    seen,
    origin: `127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const notice: Notice = {
  id: 'n-auth',
  rule: 'stale',
  ruleType: 'flatline',
  source: 'origin',
  zone: 101,
  status: 'firing',
  startsAt: 0,
  endsAt: null,
  summary: 'test',
  details: {},
  fingerprint: 'fp',
};

let dir: string | undefined;
const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
  clearSecrets();
});

async function started(refuse = false) {
  const r = await receiver(refuse);
  closing.push(r.close);
  return r;
}

/** The configuration as edgelog reads it: a file, then the environment. */
function configWith(hooks: NonNullable<ConfigInput['alerts']>['hooks'], env: NodeJS.ProcessEnv = {}) {
  dir = mkdtempSync(join(tmpdir(), 'edgelog-hook-auth-'));
  const path = writeConfig(dir, { alerts: { hooks } });
  return { path, config: loadConfig({ path, env }) };
}

describe('hook authentication', () => {
  it("credentials in the hook's URL are sent as Basic authorization, and not in the request line", async () => {
    const r = await started();
    const { config } = configWith({
      ops: { type: 'webhook', url: `http://alert%40ops:p%3Ass-w0rd@${r.origin}/hook` },
    });
    expect(await deliver('ops', config.alerts.hooks.ops!, notice)).toBe(200);
    expect(r.seen).toHaveLength(1);
    expect(r.seen[0]!.url).toBe('/hook');
    const basic = Buffer.from('alert@ops:p:ss-w0rd').toString('base64');
    expect(r.seen[0]!.headers.authorization).toBe(`Basic ${basic}`);
    // The password and the value it is sent as are secrets from now on.
    expect(redact(`p:ss-w0rd ${basic}`)).toBe('[REDACTED] [REDACTED]');
  });

  it('a bearer token and headers, from the file or the environment', async () => {
    const r = await started();
    const { config } = configWith(
      {
        ops: { type: 'webhook', url: `http://${r.origin}/a`, headers: { 'X-Team': 'edge-oncall' } },
        'team-b.slack': { type: 'slack', url: `http://${r.origin}/b`, bearerToken: 'file-token-123' },
      },
      {
        EDGELOG_HOOK_OPS_TOKEN: 'env-token-456',
        EDGELOG_HOOK_OPS_HEADERS: '{"X-Api-Key":"k-789-secret"}',
      },
    );
    await deliver('ops', config.alerts.hooks.ops!, notice);
    await deliver('team-b.slack', config.alerts.hooks['team-b.slack']!, notice);
    expect(
      r.seen.map((s) => [s.url, s.headers.authorization, s.headers['x-api-key'], s.headers['x-team']]),
    ).toEqual([
      ['/a', 'Bearer env-token-456', 'k-789-secret', 'edge-oncall'],
      ['/b', 'Bearer file-token-123', undefined, undefined],
    ]);
    // Each of them is a secret from now on.
    expect(redact('env-token-456 k-789-secret file-token-123')).toBe('[REDACTED] [REDACTED] [REDACTED]');
  });

  it('refuses what cannot be sent, or would be sent twice, naming the key', () => {
    const bad = (hooks: NonNullable<ConfigInput['alerts']>['hooks'], env: NodeJS.ProcessEnv = {}) => {
      try {
        configWith(hooks, env);
      } catch (err) {
        return (err as Error).message;
      }
      throw new Error('accepted');
    };
    const url = 'http://127.0.0.1:9/hook';
    expect(bad({ ops: { type: 'webhook', url, headers: { 'Content-Type': 'text/plain' } } })).toContain(
      'alerts.hooks.ops.headers.Content-Type: is set by edgelog',
    );
    expect(bad({ ops: { type: 'webhook', url, headers: { 'X-A': 'one\r\nX-B: two' } } })).toContain(
      'alerts.hooks.ops.headers.X-A: a header value cannot hold a line break or NUL',
    );
    expect(bad({ ops: { type: 'webhook', url, headers: { 'bad name': 'x' } } })).toContain(
      'alerts.hooks.ops.headers.bad name: not a header name',
    );
    expect(
      bad({ ops: { type: 'webhook', url: 'http://u:p@127.0.0.1:9/hook', bearerToken: 'abcd-token' } }),
    ).toContain('alerts.hooks.ops: give the hook one credential');
    expect(
      bad(
        { ops: { type: 'webhook', url, headers: { authorization: 'Basic eA==' } } },
        { EDGELOG_HOOK_OPS_TOKEN: 'tok-123' },
      ),
    ).toContain('alerts.hooks.ops: give the hook one credential');
    expect(bad({ ops: { type: 'webhook', url } }, { EDGELOG_HOOK_OSP_TOKEN: 'tok-123' })).toContain(
      'EDGELOG_HOOK_OSP_TOKEN names no hook of alerts.hooks (ops)',
    );
    expect(bad({ ops: { type: 'webhook', url } }, { EDGELOG_HOOK_OPS_HEADERS: '{"X-A": 1}' })).toContain(
      'EDGELOG_HOOK_OPS_HEADERS must be a JSON object of header names and text values',
    );
    expect(
      bad(
        { 'a-b': { type: 'webhook', url }, 'a.b': { type: 'webhook', url } },
        { EDGELOG_HOOK_A_B_TOKEN: 'tok-123' },
      ),
    ).toContain('EDGELOG_HOOK_A_B_TOKEN names more than one hook (a-b, a.b)');
  });

  it('`alerts test` against a receiver that refuses them prints none of the credentials', async () => {
    const r = await started(true);
    dir = mkdtempSync(join(tmpdir(), 'edgelog-hook-auth-'));
    const path = writeConfig(dir, {
      alerts: {
        hooks: {
          basic: { type: 'webhook', url: `http://ops:basic-pw-2718@${r.origin}/hook` },
          bearer: {
            type: 'webhook',
            url: `http://${r.origin}/hook`,
            headers: { 'X-Api-Key': 'key-3141-secret' },
          },
        },
      },
    });
    const env = { EDGELOG_HOOK_BEARER_TOKEN: 'tok-1618-secret' };
    const basic = await runCli(['--config', path, 'alerts', 'test', 'basic'], { cwd: dir, env });
    const bearer = await runCli(['--config', path, 'alerts', 'test', 'bearer'], { cwd: dir, env });
    // Both sent their credentials (and the receiver's answer quoted them back).
    expect(r.seen.map((s) => [s.headers.authorization, s.headers['x-api-key']])).toEqual([
      [`Basic ${Buffer.from('ops:basic-pw-2718').toString('base64')}`, undefined],
      ['Bearer tok-1618-secret', 'key-3141-secret'],
    ]);
    for (const result of [basic, bearer]) {
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('answered HTTP 401');
      const out = result.stdout + result.stderr;
      for (const secret of [
        'basic-pw-2718',
        Buffer.from('ops:basic-pw-2718').toString('base64'),
        'tok-1618-secret',
        'key-3141-secret',
      ])
        expect(out).not.toContain(secret);
    }
  });
});
