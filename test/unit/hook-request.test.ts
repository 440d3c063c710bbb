// Pure: a hook's URL and credentials as they are sent (alerts/hook-request.ts).
import { expect, it } from 'vitest';
import { hookRequest } from '../../src/alerts/hook-request.js';

it.each([
  ['no credentials', { url: 'https://h.example/x' }, 'https://h.example/x', {}],
  [
    'user and password in the URL, percent-encoded',
    { url: 'https://a%40b:p%2Fw@h.example/x?q=1' },
    'https://h.example/x?q=1',
    { authorization: `Basic ${Buffer.from('a@b:p/w').toString('base64')}` },
  ],
  [
    'a user alone',
    { url: 'https://token@h.example/x' },
    'https://h.example/x',
    { authorization: `Basic ${Buffer.from('token:').toString('base64')}` },
  ],
  [
    'a bearer token',
    { url: 'https://h.example/x', bearerToken: 't0k' },
    'https://h.example/x',
    { authorization: 'Bearer t0k' },
  ],
  [
    'headers as given',
    { url: 'https://h.example/x', headers: { 'X-Api-Key': 'k1' } },
    'https://h.example/x',
    { 'X-Api-Key': 'k1' },
  ],
] as const)('%s', (_name, hook, url, headers) => {
  const r = hookRequest(hook);
  expect(r.url.href).toBe(url);
  expect(r.headers).toEqual(headers);
  // Every credential sent is among the secrets.
  for (const value of Object.values(r.headers)) {
    expect(r.secrets.some((s) => value === s || value.endsWith(` ${s}`))).toBe(true);
  }
});
