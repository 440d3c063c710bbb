import { describe, expect, it } from 'vitest';
import { noticeBody, noticeRequest } from '../../src/alerts/notice-request.js';
import { showRequest } from '../../src/alerts/show-request.js';
import { slackPayload, type Notice } from '../../src/alerts/payload.js';
import { compileTemplates, sampleNotice } from '../../src/alerts/templates.js';
import { parseConfig } from '../../src/config/index.js';
import { ConfigError } from '../../src/errors/index.js';

const hostile: Notice = {
  ...sampleNotice(Date.parse('2026-11-26T00:00:00Z')),
  rule: 'new-country',
  zone: 101,
  summary: 'new value <!channel> & <https://evil.example|click here>',
  details: { 'values<>': 'AS1 <@U123>' },
};

function hooks(template: string, type: 'slack' | 'webhook' = 'slack') {
  return parseConfig({
    alerts: { hooks: { chat: { type, url: 'https://hooks.example.net/x', template } } },
  }).alerts.hooks;
}

describe('hook templates', () => {
  it('load nothing for hooks without a template', async () => {
    expect((await compileTemplates(parseConfig({}).alerts.hooks)).size).toBe(0);
  });

  it('render the Slack text, every printed value escaped for mrkdwn', async () => {
    const config = hooks(
      '{{ status | upcase }} {{ rule }}: {% for a in alerts %}zone {{ a.zone }} {{ a.summary }}{% endfor %} <ok>',
    );
    const render = (await compileTemplates(config)).get('chat')!;
    const body = JSON.parse(noticeBody('chat', config.chat!, { key: 'k', notices: [hostile] }, render)) as {
      text: string;
    };
    expect(body.text).toBe(
      'FIRING new-country: zone 101 new value &lt;!channel&gt; &amp; &lt;https://evil.example|click here&gt; <ok>',
    );
  });

  it('render a webhook alert’s description annotation (JSON needs no mrkdwn escaping)', async () => {
    const config = hooks('{{ alerts[0].summary }} ({{ hook }})', 'webhook');
    const render = (await compileTemplates(config)).get('chat')!;
    const body = JSON.parse(noticeBody('chat', config.chat!, { key: 'k', notices: [hostile] }, render)) as {
      alerts: Array<{ annotations: Record<string, string> }>;
    };
    expect(body.alerts[0]!.annotations.description).toBe(`${hostile.summary} (chat)`);
    expect(body.alerts[0]!.annotations.summary).toBe(hostile.summary);
  });

  it.each([
    ['{{ status ', /alerts\.hooks\.chat\.template: .*not closed/],
    ['{{ status | shout }}', /alerts\.hooks\.chat\.template: .*undefined filter: shout/],
    [
      '{{ zone }}',
      /alerts\.hooks\.chat\.template does not render a sample notice: .*undefined variable: zone/,
    ],
    [
      "{% include 'secrets.txt' %}",
      /alerts\.hooks\.chat\.template does not render a sample notice: .*secrets\.txt/,
    ],
  ])('fail at start-up naming the hook: %s', async (template, message) => {
    const failed = compileTemplates(hooks(template));
    await expect(failed).rejects.toThrow(ConfigError);
    await expect(compileTemplates(hooks(template))).rejects.toThrow(message);
  });
});

describe('default Slack text', () => {
  it('is unchanged for ordinary values, and escapes &, < and > in archived ones', () => {
    expect(slackPayload({ ...hostile, summary: '12 origin errors', details: { count: '12' } }).text).toBe(
      ':rotating_light: [FIRING] new-country (origin zone 101): 12 origin errors — count=12',
    );
    expect(slackPayload(hostile).text).toBe(
      ':rotating_light: [FIRING] new-country (origin zone 101): new value &lt;!channel&gt; &amp; &lt;https://evil.example|click here&gt; — values&lt;&gt;=AS1 &lt;@U123&gt;',
    );
  });
});

describe('a request as dry runs print it', () => {
  it('shows method, URL, headers and body, with every credential redacted', () => {
    const config = parseConfig({
      alerts: {
        hooks: {
          ops: {
            type: 'webhook',
            url: 'https://edgelog:pa%24%24word-1@hooks.example.net/alert?team=a',
            secret: 'signing-secret',
            headers: { 'x-api-key': 'key-123456' },
          },
          bearer: { type: 'webhook', url: 'https://hooks.example.net/b', bearerToken: 'tok-abcdef' },
          chat: { type: 'slack', url: 'https://hooks.slack.example/services/T000/B000/XXXXSECRET' },
        },
      },
    }).alerts.hooks;
    const d = { key: 'k1', notices: [hostile] };
    const ops = showRequest(noticeRequest('ops', config.ops!, d), false);
    expect(ops.split('\n').slice(0, 7)).toEqual([
      'POST https://hooks.example.net/alert?team=a',
      'x-api-key: [REDACTED]',
      'authorization: Basic [REDACTED]',
      'content-type: application/json',
      'user-agent: edgelog',
      'idempotency-key: k1',
      expect.stringMatching(/^x-edgelog-signature: sha256=[0-9a-f]{64}$/),
    ]);
    expect(ops).toContain('"alertname":"new-country"');
    for (const secret of ['pa$$word-1', 'pa%24%24word-1', 'key-123456', 'signing-secret'])
      expect(ops).not.toContain(secret);
    expect(ops).not.toContain(Buffer.from('edgelog:pa$$word-1').toString('base64'));
    const bearer = showRequest(noticeRequest('bearer', config.bearer!, d), false);
    expect(bearer).toContain('authorization: Bearer [REDACTED]');
    expect(bearer).not.toContain('tok-abcdef');
    const chat = showRequest(noticeRequest('chat', config.chat!, d), true);
    expect(chat.split('\n')[0]).toBe('POST https://hooks.slack.example/[REDACTED]');
    expect(chat).not.toMatch(/T000|XXXXSECRET/);
  });
});
