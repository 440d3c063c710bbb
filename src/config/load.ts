// Reads the configuration once: file, then environment overrides, then the schema. Fails fast, freezes.
import { ConfigError } from '../errors/index.js';
import { isPlainObject, readConfigInput, type LoadConfigOptions } from './file.js';
import { relationIssues, type RelationIssue } from './relations.js';
import { configSchema, type Config, type Zone } from './schema.js';

export { DEFAULT_CONFIG_FILE, configPath, noConfigFile, type LoadConfigOptions } from './file.js';

/** Finds, reads, validates and freezes the configuration. Throws ConfigError naming the key and the fix. */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const { input, origin, redisUrlFrom } = readConfigInput(opts);
  return parseConfig(input, origin, redisUrlFrom);
}

/**
 * Validates an in-memory configuration (tests, the demo) exactly as a file would be.
 * @param redisUrlFrom which setting gave redis.url; by default `"redis.url"` when the input has one.
 */
export function parseConfig(input: unknown, origin = 'inline', redisUrlFrom = inputRedisUrl(input)): Config {
  const result = configSchema.safeParse(input);
  if (!result.success)
    throw new ConfigError(`Invalid configuration (${origin}):\n${formatIssues(result.error.issues)}`);
  // Checks between keys need every key valid on its own first.
  const contradictions = relationIssues(result.data);
  if (contradictions.length > 0)
    throw new ConfigError(`Invalid configuration (${origin}):\n${formatIssues(contradictions)}`);
  const { pullZones, shieldZones, ...rest } = result.data;
  return deepFreeze({
    ...rest,
    pullZones: normaliseZones(pullZones),
    shieldZones: normaliseZones(shieldZones),
    origin,
    redisUrlFrom,
  });
}

function inputRedisUrl(input: unknown): string | null {
  return isPlainObject(input) && isPlainObject(input.redis) && input.redis.url !== undefined
    ? 'redis.url'
    : null;
}

/** Ids to objects; duplicates were refused by relationIssues. */
function normaliseZones(zones: ReadonlyArray<number | Zone>): Zone[] {
  return zones.map((z) => (typeof z === 'number' ? { id: z } : z));
}

/** One line per problem: `  - api.retryAttempts: must be at least 1 (got 0), e.g. 6`. */
function formatIssues(
  issues: ReadonlyArray<Pick<RelationIssue, 'message'> & { path: PropertyKey[] }>,
): string {
  return issues
    .map((issue) => {
      const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
      const key = path.startsWith('.') ? path.slice(1) : path || '(top level)';
      return `  - ${key}: ${issue.message}`;
    })
    .join('\n');
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
