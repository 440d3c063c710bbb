export { loadConfig, parseConfig, DEFAULT_CONFIG_FILE, type LoadConfigOptions } from './load.js';
export { configSchema, type Config, type ConfigInput, type Zone } from './schema.js';
export { parseDuration, formatDuration } from './duration.js';
