// Finding and reading the configuration file, and the environment's overrides: everything before the
// schema. No zod here: commands that only read the archive (query, report, backup) take the one key
// they need from this and start in a fraction of the time (see reader-config.ts).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { ConfigError } from '../errors/config-error.js';
import { withoutComments } from './example-config.js';
import type { ConfigInput } from './schema.js';

export const DEFAULT_CONFIG_FILE = 'edgelog.config.json';

export interface LoadConfigOptions {
  /** Explicit path (the `--config` option); wins over EDGELOG_CONFIG and the default file. */
  path?: string;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Applied over the file and the environment, e.g. the demo's simulator URLs. */
  overrides?: ConfigInput;
}

export interface ConfigInputRead {
  input: ConfigInput;
  /** The file read, or "defaults". */
  origin: string;
  /** Which setting gave the Redis URL ("REDIS_URL", "redis.url in <file>"), or null: none did. */
  redisUrlFrom: string | null;
}

/** The file the configuration is read from: --config, else EDGELOG_CONFIG, else edgelog.config.json here. */
export function configPath(opts: Pick<LoadConfigOptions, 'path' | 'env' | 'cwd'> = {}): string {
  const env = opts.env ?? process.env;
  return resolve(opts.cwd ?? process.cwd(), opts.path ?? env.EDGELOG_CONFIG ?? DEFAULT_CONFIG_FILE);
}

/** Said when no configuration file was found: where edgelog looked, and how to make one. */
export function noConfigFile(path: string, program: string): string {
  return (
    `no configuration file found (looked for ${path}; neither --config nor EDGELOG_CONFIG was given): ` +
    `\`${program} init --pull-zone <id> --shield-zone <id>\` writes one`
  );
}

/** The configuration before validation: the file (if any), the environment over it, the overrides over both. */
export function readConfigInput(opts: LoadConfigOptions = {}): ConfigInputRead {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const explicit = opts.path ?? env.EDGELOG_CONFIG;
  const path = explicit ? resolve(cwd, explicit) : resolve(cwd, DEFAULT_CONFIG_FILE);
  let input: ConfigInput = {};
  let origin = 'defaults';
  if (explicit || existsSync(path)) {
    input = resolveFilePaths(readJsonFile(path), dirname(path));
    origin = path;
  }
  const overrides = opts.overrides ?? {};
  return {
    input: merge(applyEnv(input, env), overrides),
    origin,
    redisUrlFrom: redisUrlSource(input, overrides, origin, env),
  };
}

function redisUrlSource(
  file: ConfigInput,
  overrides: ConfigInput,
  origin: string,
  env: NodeJS.ProcessEnv,
): string | null {
  if (overrides.redis?.url !== undefined) return 'redis.url';
  if (env.REDIS_URL) return 'REDIS_URL';
  if (file.redis?.url === undefined) return null;
  return origin === 'defaults' ? 'redis.url' : `redis.url in ${origin}`;
}

function readJsonFile(path: string): ConfigInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    throw new ConfigError(`Cannot read the configuration file ${path}: create it or pass --config <file>`, {
      cause,
    });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    throw new ConfigError(`The configuration file ${path} is not valid JSON: ${(cause as Error).message}`, {
      cause,
    });
  }
  // Keys named "//" are comments (edgelog init writes them): not configuration.
  value = withoutComments(value);
  // Anything else would be merged away into all defaults, silently.
  if (!isPlainObject(value)) {
    throw new ConfigError(
      `The configuration file ${path} must hold a JSON object ({ "pullZones": [12345], … }), not ${jsonKind(value)}`,
    );
  }
  return value;
}

function jsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

/**
 * A relative database.path or history.path in a file means beside the file, wherever edgelog is started from (PM2, cron,
 * another directory). Paths from EDGELOG_DB, options and the defaults stay relative to the working one.
 */
function resolveFilePaths(input: ConfigInput, dir: string): ConfigInput {
  const out = { ...input };
  const database: unknown = input.database;
  if (isPlainObject(database) && isRelative(database.path))
    out.database = { ...database, path: resolve(dir, database.path) };
  const history: unknown = input.history;
  if (isPlainObject(history) && isRelative(history.path))
    out.history = { ...history, path: resolve(dir, history.path) };
  return out;
}

const isRelative = (path: unknown): path is string =>
  typeof path === 'string' && path !== '' && !isAbsolute(path);

function applyEnv(input: ConfigInput, env: NodeJS.ProcessEnv): ConfigInput {
  const out = { ...input };
  if (env.EDGELOG_ACCESS_KEY) out.api = { ...out.api, accessKey: env.EDGELOG_ACCESS_KEY };
  if (env.REDIS_URL) out.redis = { ...out.redis, url: env.REDIS_URL };
  // EDGELOG_DB names a SQLite archive: it sets aside the PostgreSQL URLs from the file (the environment
  // beats the file), though not those from EDGELOG_DATABASE_URL and EDGELOG_READER_DATABASE_URL.
  if (env.EDGELOG_DB) {
    out.database = { ...out.database, path: env.EDGELOG_DB, url: null, readerUrl: null };
    // Another archive: its history is beside it (history-path.ts), not the one the file names.
    if (out.history) {
      const { path: _theFiles, ...rest } = out.history;
      out.history = rest;
    }
  }
  // The history's directory (with EDGELOG_DB, the demo's own); "null" keeps none.
  if (env.EDGELOG_HISTORY)
    out.history = { ...out.history, path: env.EDGELOG_HISTORY === 'null' ? null : env.EDGELOG_HISTORY };
  if (env.EDGELOG_DATABASE_URL) out.database = { ...out.database, url: env.EDGELOG_DATABASE_URL };
  if (env.EDGELOG_READER_DATABASE_URL)
    out.database = { ...out.database, readerUrl: env.EDGELOG_READER_DATABASE_URL };
  return applyHookEnv(out, env);
}

/** EDGELOG_HOOK_<NAME>_TOKEN and _HEADERS: a hook's name in capitals, each other character `_`. */
const HOOK_ENV = /^EDGELOG_HOOK_(.+)_(TOKEN|HEADERS)$/;

export const hookEnvName = (hook: string): string => hook.toUpperCase().replace(/[^A-Z0-9]/g, '_');

/**
 * A hook's credentials from the environment, over the file's: the bearer token, and headers (a JSON
 * object, merged over the file's). A variable that names no hook, or more than one, is refused.
 */
function applyHookEnv(input: ConfigInput, env: NodeJS.ProcessEnv): ConfigInput {
  const alerts: unknown = input.alerts;
  const hooks: Record<string, unknown> =
    isPlainObject(alerts) && isPlainObject(alerts.hooks) ? { ...alerts.hooks } : {};
  let changed = false;
  for (const [variable, value] of Object.entries(env)) {
    const m = HOOK_ENV.exec(variable);
    if (!m || value === undefined || value === '') continue;
    const names = Object.keys(hooks).filter((h) => hookEnvName(h) === m[1]);
    if (names.length !== 1) {
      throw new ConfigError(
        names.length === 0
          ? `${variable} names no hook of alerts.hooks (${Object.keys(hooks).join(', ') || 'none configured'}): check the name`
          : `${variable} names more than one hook (${names.join(', ')}): rename one of them`,
      );
    }
    const name = names[0]!;
    const hook = isPlainObject(hooks[name]) ? hooks[name] : {};
    hooks[name] =
      m[2] === 'TOKEN'
        ? { ...hook, bearerToken: value }
        : {
            ...hook,
            headers: { ...(isPlainObject(hook.headers) ? hook.headers : {}), ...envHeaders(variable, value) },
          };
    changed = true;
  }
  // Not validated yet: the schema checks what the file and the environment gave together.
  const merged = { ...(isPlainObject(alerts) ? alerts : {}), hooks } as ConfigInput['alerts'];
  return changed ? { ...input, alerts: merged } : input;
}

function envHeaders(variable: string, text: string): Record<string, string> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isPlainObject(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    // The text itself may hold a secret: not quoted.
    throw new ConfigError(
      `${variable} must be a JSON object of header names and text values, e.g. '{"X-Api-Key":"…"}'`,
    );
  }
  return value as Record<string, string>;
}

function merge<T extends object>(base: T, over: object): T {
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? merge(current, value) : (value as unknown);
  }
  return out as T;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
