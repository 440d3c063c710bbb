export { requireAccessKey } from './access-key.js';
export {
  loadConfig,
  parseConfig,
  configPath,
  noConfigFile,
  DEFAULT_CONFIG_FILE,
  type LoadConfigOptions,
} from './load.js';
export {
  configSchema,
  type AlertRule,
  type Config,
  type ConfigInput,
  type FlatlineRule,
  type GuardianRule,
  type HookConfig,
  type NewTermRule,
  type SpikeRule,
  type SqlRule,
  NEW_TERM_FIELDS,
  MAX_PATH_DEPTH,
  type Zone,
} from './schema.js';
export { parseDuration, formatDuration } from './duration.js';
export { TIMER_MAX_MS } from './bounds.js';
export { historyPath } from './history-path.js';
