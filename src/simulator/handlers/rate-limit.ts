// 4.7 Rate limit rule: ids 1..1000 exist, each deterministic (API.md 2.10). An unknown id answers 404
// with the model-state body shape of section 7.
import { uuidOf } from '../json-text.js';
import { hashOf, Rng } from '../prng.js';
import { echoField, INLINE_OK, json, type Reply } from '../replies.js';
import type { HandlerContext } from './context.js';
import { MAX_RESOURCE_ID } from './edge-script.js';

export const VARIABLE_TYPES = [
  'REQUEST_URI',
  'REQUEST_URI_RAW',
  'ARGS',
  'ARGS_COMBINED_SIZE',
  'ARGS_GET',
  'ARGS_GET_NAMES',
  'ARGS_POST',
  'ARGS_POST_NAMES',
  'FILES_NAMES',
  'GEO',
  'REMOTE_ADDR',
  'QUERY_STRING',
  'REQUEST_BASENAME',
  'REQUEST_BODY',
  'REQUEST_COOKIES_NAMES',
  'REQUEST_COOKIES',
  'REQUEST_FILENAME',
  'REQUEST_HEADERS_NAMES',
  'REQUEST_HEADERS',
  'REQUEST_LINE',
  'REQUEST_METHOD',
  'REQUEST_PROTOCOL',
  'RESPONSE_BODY',
  'RESPONSE_HEADERS',
  'RESPONSE_STATUS',
  'FINGERPRINT',
  'VERIFIED_BOT_CATEGORY',
] as const;

const NOT_FOUND =
  '{"location":"id","value":null,"formatters":[],"contentTypes":[],"declaredType":"","statusCode":404';

const PATHS = ['/api/', '/login', '/search', '/checkout', '/graphql'];

/** Every variable type as a key; the ones a condition inspects carry their selector, the rest "". */
function variableTypes(used: string, selector: string): Record<string, string> {
  return Object.fromEntries(VARIABLE_TYPES.map((v) => [v, v === used ? selector : '']));
}

export function rateLimit(ctx: HandlerContext, id: number): Reply {
  if (id < 1 || id > MAX_RESOURCE_ID) return json(404, `${NOT_FOUND}${echoField(404, ctx.echo)}}`);
  const rng = new Rng(hashOf(ctx.opts.seed, 'rate-limit', id));
  const zones = [...ctx.opts.shieldZones];
  const path = rng.pick(PATHS);
  const requests = rng.int(10, 1000);
  const seconds = rng.pick([1, 10, 60, 300]);
  const condition = {
    variableTypes: variableTypes('REQUEST_URI', ''),
    transformationTypes: ['LOWERCASE', 'URL_DECODE'],
    value: path,
    isNegated: false,
    isRegexVariable: false,
  };
  const chained = rng.chance(0.5)
    ? [
        {
          variableTypes: variableTypes('REQUEST_METHOD', ''),
          value: rng.pick(['POST', 'GET']),
          isNegated: false,
          isRegexVariable: false,
        },
      ]
    : [];
  const body = {
    id,
    shieldZoneId: zones.length > 0 ? zones[id % zones.length] : 0,
    userId: uuidOf(rng.next(), rng.next(), rng.next(), rng.next()),
    ruleName: `Limit ${path} to ${requests} per ${seconds}s`,
    ruleDescription: `Simulated rate limit rule ${id}`,
    ruleJson: JSON.stringify({
      ...condition,
      requestCount: requests,
      timeframe: seconds,
      blockTime: seconds * 10,
    }),
    ruleConfiguration: { ...condition, chainedRuleConditions: chained },
  };
  return json(200, `${JSON.stringify(body).slice(0, -1)},"errorResponse":${INLINE_OK}}`);
}
