// Reads the configuration once: file, then environment overrides, then the schema. Fails fast, freezes.
import { ConfigError } from '../errors/index.js';
import { readConfigInput, type LoadConfigOptions } from './file.js';
import { relationIssues, type RelationIssue } from './relations.js';
import { configSchema, type Config, type Zone } from './schema.js';

export { DEFAULT_CONFIG_FILE, type LoadConfigOptions } from './file.js';

/** Finds, reads, validates and freezes the configuration. Throws ConfigError naming the key and the fix. */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const { input, origin } = readConfigInput(opts);
  return parseConfig(input, origin);
}

/** Validates an in-memory configuration (tests, the demo) exactly as a file would be. */
export function parseConfig(input: unknown, origin = 'inline'): Config {
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
  });
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
