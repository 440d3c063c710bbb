// The logger's last line of defence (its streamWrite hook, src/logger.ts): a registered secret that
// reaches a log line by a road no redact path names — a message, a field, an error's message, its cause,
// its own fields, a child's bindings — is scrubbed before the line is written, in JSON and in the
// terminal form alike, on the real stderr too. The secret is handed to the logger raw here: nothing else
// on the way (redactError, the error classes) has scrubbed it first.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createLogger, prettyDestination, type Logger } from '../../src/logger.js';
import { clearSecrets, registerSecret } from '../../src/redact.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

// A quote and a slash, so that its JSON- and URL-quoted forms differ from it.
const SECRET = 'sk-live/9f8e"7d6c5b4a';
/** Every form the secret takes in text: as is, quoted in JSON (as a line holds it), URL-encoded. */
const FORMS = [SECRET, JSON.stringify(SECRET).slice(1, -1), encodeURIComponent(SECRET)];

/** One line through each road a secret can take into a log line. */
function logEveryRoad(log: Logger): void {
  log.info(`request sent with ${SECRET}`);
  log.info(
    { url: `https://api.example/x?key=${encodeURIComponent(SECRET)}`, seen: { list: [`a ${SECRET}`] } },
    'a field no redact path names',
  );
  log.error({ err: new Error(`HTTP 401: key ${SECRET} refused`) }, 'an error message');
  const root = new Error(`the body said ${SECRET}`);
  log.error({ err: new Error('outer', { cause: new Error('middle', { cause: root }) }) }, 'an error cause');
  log.error({ err: Object.assign(new Error('no key'), { body: `{"key":"${SECRET}"}` }) }, 'an error field');
  log.child({ zone: 201, token: SECRET }).warn('a child binding');
}
const ROADS = 6;

/**
 * The lines written, each checked: no form of the secret, and the redaction mark in its place on the
 * lines that show the text that held it (`unshown`: the ones whose form leaves that text out).
 */
function expectScrubbed(lines: string[], unshown: number[] = []): void {
  expect(lines).toHaveLength(ROADS);
  lines.forEach((line, i) => {
    for (const form of FORMS) expect(line).not.toContain(form);
    if (!unshown.includes(i)) expect(line).toContain('[REDACTED]');
  });
}

describe('the logger scrubs a registered secret from every line', () => {
  beforeEach(() => registerSecret(SECRET));
  afterEach(() => clearSecrets());

  it('JSON lines: message, fields, error message, cause, own field, child binding', () => {
    const lines: string[] = [];
    logEveryRoad(createLogger({ destination: { write: (s: string) => void lines.push(s) } }));
    expectScrubbed(lines);
    // The lines are whole around the mark: the redaction cut the secret, not the text.
    expect(JSON.parse(lines[0]!)).toMatchObject({ msg: 'request sent with [REDACTED]' });
    expect(JSON.parse(lines[3]!)).toMatchObject({
      err: { message: 'outer: middle: the body said [REDACTED]' },
    });
  });

  it('terminal lines, with stacks', () => {
    const lines: string[] = [];
    const destination = prettyDestination(
      { write: (s: string) => void lines.push(s) },
      { color: false, stack: true },
    );
    logEveryRoad(createLogger({ level: 'debug', destination }));
    expectScrubbed(lines, [4]); // an error's own fields are not shown on a terminal

    expect(lines[0]).toMatch(/^\d\d:\d\d:\d\d INFO {2}request sent with \[REDACTED\]\n$/);
  });

  // The default destinations (stderr, synchronous), in a process of their own as the CLI runs them.
  it.each([
    ['JSON', false],
    ['terminal', true],
  ])('%s lines on stderr', async (_form, pretty) => {
    const script = `
      const [{ createLogger }, { registerSecret }] = await Promise.all([
        import('./dist/logger.js'),
        import('./dist/redact.js'),
      ]);
      const [secret, pretty] = JSON.parse(process.argv[1]);
      registerSecret(secret);
      const log = createLogger({ pretty, env: { NO_COLOR: '1' } });
      log.info('request sent with ' + secret);
      log.error({ err: new Error('outer', { cause: new Error('the body said ' + secret) }) }, 'failed');
      log.flush();
    `;
    const child = spawn(
      process.execPath,
      ['--input-type=module', '-e', script, JSON.stringify([SECRET, pretty])],
      { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    const lines = stderr.trimEnd().split('\n');
    expect(lines[0]).toContain('request sent with [REDACTED]');
    expect(stderr).toContain('the body said [REDACTED]');
    for (const form of FORMS) expect(stderr).not.toContain(form);
  });
});
