// Notice text templates per hook, in Liquid (LiquidJS): a template language with no code execution,
// here with no file access either (includes find nothing) and bounded parse, render time and memory.
// LiquidJS is loaded only when a hook has a template. Every template is parsed and rendered once at
// start-up against a sample notice with strict variables and filters, so a mistake is found then, and
// the error names the hook. Values a template prints into a Slack message are escaped for mrkdwn.
import type { HookConfig } from '../config/index.js';
import { ConfigError } from '../errors/index.js';
import type { Delivery, RenderText } from './notice-request.js';

export type { RenderText } from './notice-request.js';
import { slackEscape, slackGroupPayload, slackPayload, type Notice } from './payload.js';
import { cutText, MAX_RENDERED_CHARS } from './label-bounds.js';

/** Renders a hook's text for a delivery (synchronously: noticeRequest is pure). */

/** What a template sees. */
export interface TemplateVars {
  hook: string;
  rule: string;
  /** firing while any alert of the delivery fires */
  status: 'firing' | 'resolved';
  firing: number;
  resolved: number;
  alerts: Array<{
    status: string;
    rule: string;
    source: string;
    zone: number;
    severity: string;
    summary: string;
    details: Record<string, string>;
    startsAt: string;
    endsAt: string;
    fingerprint: string;
  }>;
}

export function templateVars(d: Delivery, hook: string): TemplateVars {
  const firing = d.notices.filter((n) => n.status === 'firing').length;
  return {
    hook,
    rule: d.notices[0]?.rule ?? '',
    status: firing > 0 ? 'firing' : 'resolved',
    firing,
    resolved: d.notices.length - firing,
    alerts: d.notices.map((n) => ({
      status: n.status,
      rule: n.rule,
      source: n.source,
      zone: n.zone,
      severity: n.severity ?? '',
      summary: n.summary,
      details: { ...n.details },
      startsAt: new Date(n.startsAt).toISOString(),
      endsAt: n.endsAt === null ? '' : new Date(n.endsAt).toISOString(),
      fingerprint: n.fingerprint,
    })),
  };
}

/** Bounds on one template: its length, one render's time, and the memory a render may take. */
const LIMITS = { parseLimit: 20_000, renderLimit: 1_000, memoryLimit: 10_000_000 };

/** Sample figures that have every name (`details.count`, `details.window`…). */
function anyDetail(): Record<string, string> {
  return new Proxy(
    {},
    {
      get: (_t, key) => (typeof key === 'string' ? 'sample' : undefined),
      has: (_t, key) => typeof key === 'string',
      getOwnPropertyDescriptor: (_t, key) =>
        typeof key === 'string' ? { value: 'sample', enumerable: true, configurable: true } : undefined,
    },
  );
}

/** A sample delivery that every template must render against at start-up. */
export function sampleNotice(now: number): Notice {
  return {
    id: `sample-${now}`,
    rule: 'edgelog-test',
    ruleType: 'spike',
    source: 'origin',
    zone: 0,
    status: 'firing',
    startsAt: now,
    endsAt: null,
    severity: 'info',
    summary: 'test notice from edgelog; no action needed',
    details: { test: 'true' },
    fingerprint: '0000000000000000',
  };
}

/**
 * Compiles the templates of the hooks that have one (none: LiquidJS is not even loaded). Throws a
 * ConfigError naming the hook for a template that does not parse or does not render.
 */
export async function compileTemplates(
  hooks: Readonly<Record<string, HookConfig>>,
): Promise<ReadonlyMap<string, RenderText>> {
  const out = new Map<string, RenderText>();
  const withTemplate = Object.entries(hooks).filter(([, h]) => h.template !== undefined);
  if (withTemplate.length === 0) return out;
  const { Liquid } = await import('liquidjs');
  for (const [name, hook] of withTemplate) {
    const engine = new Liquid({
      templates: {}, // no file system: {% include %} and {% render %} find nothing
      strictFilters: true,
      strictVariables: true,
      ownPropertyOnly: true,
      ...LIMITS,
      ...(hook.type === 'slack' ? { outputEscape: slackEscape } : {}),
    });
    const where = `alerts.hooks.${name}.template`;
    let parsed;
    try {
      parsed = engine.parse(hook.template!);
    } catch (err) {
      throw new ConfigError(`${where}: ${(err as Error).message}`, { cause: err });
    }
    // At run time a variable a notice lacks (a figure another kind of rule has) prints as nothing. A
    // render that fails (its time or memory bound, on archived text of any size) still sends the notice.
    const render: RenderText = (d, hookName) => {
      try {
        return boundedText(
          String(engine.renderSync(parsed, templateVars(d, hookName), { strictVariables: false })).trim(),
        );
      } catch (err) {
        return templateFailed(hook.type === 'slack', d, hookName, err);
      }
    };
    try {
      // At start-up, strictly: a misspelt name fails now, not in a notice. Figures differ per rule: any
      // name under `details` stands.
      const vars = templateVars({ key: 'sample', notices: [sampleNotice(0)] }, name);
      for (const a of vars.alerts) a.details = anyDetail();
      engine.renderSync(parsed, vars);
    } catch (err) {
      throw new ConfigError(
        `${where} does not render a sample notice: ${(err as Error).message} (variables: hook, rule, status, firing, resolved, alerts[] with status, rule, source, zone, severity, summary, details, startsAt, endsAt, fingerprint)`,
        { cause: err },
      );
    }
    out.set(name, render);
  }
  return out;
}

/** A rendered text within MAX_RENDERED_CHARS; a longer one is cut, and says so. */
export function boundedText(text: string): string {
  if (text.length <= MAX_RENDERED_CHARS) return text;
  const note = ` [cut by edgelog: ${text.length} characters, over the bound of ${MAX_RENDERED_CHARS}]`;
  return cutText(text, MAX_RENDERED_CHARS - note.length) + note;
}

/**
 * The text sent when a hook's template fails on a notice: what failed, then the default text (Slack's
 * message; a webhook's alerts keep their summaries, this is their description), so the alert is not lost.
 */
export function templateFailed(slack: boolean, d: Delivery, hook: string, err: unknown): string {
  const reason = err instanceof Error ? err.message.split('\n')[0]! : String(err);
  const said = `[edgelog: the template of hook ${hook} failed (${cutText(reason, 200)}); the default text follows]`;
  const [first] = d.notices;
  const text = !slack
    ? d.notices.map((n) => n.summary).join('\n')
    : d.notices.length === 1 && first
      ? slackPayload(first).text
      : slackGroupPayload(d.notices).text;
  return boundedText(`${slack ? slackEscape(said) : said} ${text}`);
}
