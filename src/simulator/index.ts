// The API simulator: an HTTP server on loopback serving the seven GET operations of API.md from seeded,
// deterministic data, with fault knobs, plus an oracle that tells exactly what it serves.
export { Simulator } from './simulator.js';
export type {
  FaultKind,
  FaultSpec,
  SimEntry,
  SimSource,
  SimStats,
  SimUrls,
  SimulatorOptions,
  Spike,
} from './options.js';
export { DEFAULT_PULL_ZONES, DEFAULT_SHIELD_ZONES, FAULT_KINDS } from './options.js';
export { parseFaultSpec } from './fault-spec.js';
export { decodeToken, encodeToken, type TokenPosition } from './tokens.js';
export { videoToken } from './handlers/video-play-data.js';
