// The API simulator: an HTTP server on loopback serving the seven GET operations of API.md from seeded,
// deterministic data, with fault knobs, plus an oracle that tells exactly what it serves.
export { Simulator } from './simulator.js';
export type {
  FaultKind,
  FaultSpec,
  SimSource,
  SimStats,
  SimUrls,
  SimulatorOptions,
  Spike,
} from './options.js';
export type { OddKeyableSimEntry, PlainSimEntry, SimEntry, UnkeyableSimEntry } from './sim-entry.js';
export { DEFAULT_PULL_ZONES, DEFAULT_SHIELD_ZONES, FAULT_KINDS } from './options.js';
export {
  isKeyable,
  KEYABLE_ODD_KINDS,
  ODD_KINDS,
  UNKEYABLE_ODD_KINDS,
  type KeyableOddKind,
  type OddKind,
  type UnkeyableOddKind,
} from './odd-entry.js';
export { parseFaultSpec } from './fault-spec.js';
export { HOSTILE_TEXT } from './hostile.js';
export { decodeToken, encodeToken, type TokenPosition } from './tokens.js';
export { videoToken } from './handlers/video-play-data.js';
